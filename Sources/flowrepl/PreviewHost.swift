import CLua
import CLuaShims
import FlowCore
import FlowLua
import FlowPreview
import FlowRender
import Glibc

/// The live preview on flowrepl's side (docs/preview.md): the `preview` global, the views
/// (which store each page shows), applying the pages' requests and rendering frames. All of
/// it runs on the REPL's thread; the server (FlowPreview) only sees the hub. Nothing here
/// exists until `--serve`, `--watch` or a call of `preview()`.
final class PreviewHost {
    /// The one preview of the process, once started.
    nonisolated(unsafe) static var current: PreviewHost?
    /// Where `preview()` listens when nothing else was asked (`--serve` sets it).
    nonisolated(unsafe) static var address = ServeAddress()
    /// The token pages must give (`--token`); nil: none on loopback, a new one beyond.
    nonisolated(unsafe) static var token: String?

    let server: PreviewServer
    let hub: PreviewHub
    /// Readable when a page sent something (a pipe the server writes a byte to).
    let wakeFD: Int32
    private(set) var host: LuaHost

    /// A view: a store a page can show. View 1 is always the global `store` (whatever it
    /// holds now); the others are the stores given to `preview(s)`, in order.
    private struct View {
        /// Registry reference to the Store userdata; LUA_NOREF for view 1 and for a view
        /// whose store belonged to a closed run of `--watch`.
        var reference: Int32 = LUA_NOREF
        var revision = 0
        var lastSVG: String?
        /// The last drawing failed (its notice is up).
        var drawFailed = false
    }
    private var views: [View] = [View()]
    /// The stores `preview(s)` named since `rebind` (views 2...): the next one gets the next view.
    private var named = 0

    private init(host: LuaHost, server: PreviewServer, hub: PreviewHub, wakeFD: Int32) {
        self.host = host
        self.server = server
        self.hub = hub
        self.wakeFD = wakeFD
    }

    /// Starts the server (once). Throws why it could not start.
    static func start(host: LuaHost) throws(PreviewServerError) -> PreviewHost {
        if let p = current { return p }
        // A pipe the server writes a byte to when a page sent something: the REPL's wait
        // for input returns (both ends non-blocking: a full pipe already wakes it).
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw PreviewServerError("cannot create a pipe") }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        let hub = PreviewHub(wake: {
            var byte: UInt8 = 1
            _ = write(writeEnd, &byte, 1)
        })
        hub.addView(1)
        let server: PreviewServer
        do throws(PreviewServerError) { server = try PreviewServer(address: address, hub: hub, token: token) } catch {
            close(readEnd)
            close(writeEnd)
            throw error
        }
        let fd = readEnd
        let p = PreviewHost(host: host, server: server, hub: hub, wakeFD: fd)
        current = p
        return p
    }

    // MARK: The `preview` global

    /// Defines `preview([store])` in the host's state (cheap: starts nothing). The latest
    /// state installed is the one the preview drives.
    static func install(_ host: LuaHost) {
        host.setGlobal("preview", function: previewFunction)
        installRunner(host)
        sessionHost = host
    }

    private static let previewFunction: LuaFunction = { L in luaGuarded(L) { args in
        guard let L = L else { return 0 }
        let isGlobal = args.isNoneOrNil(1)
        if !isGlobal && FlowStoreBinding.store(L, at: 1) == nil {
            if storeClassName(L, 1) { throw LuaError.message("preview: the store is closed") }
            throw LuaError.type(1, expected: "Store")
        }
        guard let host = hostOf(L) else { throw LuaError.message("preview: not available here") }
        if host.sandbox != nil { throw LuaError.message("preview: not available in the sandbox (it has no network)") }
        let p: PreviewHost
        do throws(PreviewServerError) { p = try start(host: host) } catch {
            throw LuaError.message("preview: \(error.message)")
        }
        let view = isGlobal ? 1 : p.view(forStoreAt: 1)
        p.refresh()
        LuaContext.writeStdoutLine("preview: \(p.server.url(view: view))")
        return 0
    }}

    /// Whether the value at `index` is a Store userdata (open or closed).
    private static func storeClassName(_ L: OpaquePointer, _ index: Int32) -> Bool {
        guard lua_getmetatable(L, index) != 0 else { return false }
        defer { flua_pop(L, 2) }
        LuaStack(L).push("__name")
        lua_rawget(L, -2)  // raw: no metamethod may run (and raise) here
        return LuaStack(L).string(at: -1) == "flow.Store"
    }

    /// The LuaHost whose state runs `L` (flowrepl has one at a time).
    nonisolated(unsafe) fileprivate static var sessionHost: LuaHost?
    private static func hostOf(_ L: OpaquePointer) -> LuaHost? {
        guard let h = sessionHost, h.L == LuaContext.of(L).mainState else { return nil }
        return h
    }

    /// The view of the Store at `index` (view 1 when it is the global `store`): an existing
    /// one, or the next one.
    private func view(forStoreAt index: Int32) -> Int {
        let L = host.L
        let i = lua_absindex(L, index)
        host.pushGlobal("store")
        defer { flua_pop(L, 1) }
        if lua_rawequal(L, -1, i) != 0 { return 1 }
        for (k, v) in views.enumerated() where v.reference != LUA_NOREF {
            lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(v.reference))
            let same = lua_rawequal(L, -1, i) != 0
            flua_pop(L, 1)
            if same { return k + 1 }
        }
        lua_pushvalue(L, i)
        let reference = luaL_ref(L, FLUA_REGISTRYINDEX)
        named += 1
        let k = named  // views[k] is view k + 1
        if k < views.count {
            views[k].reference = reference
        } else {
            views.append(View(reference: reference))
        }
        hub.addView(k + 1)
        return k + 1
    }

    /// Which state the views' stores live in, for `rebind` and `restore`.
    struct Binding {
        fileprivate let host: LuaHost
        fileprivate let references: [Int32]
        fileprivate let named: Int
    }

    /// `--watch` runs the script again in a new state: view 1 shows its `store`, and its
    /// `preview(s)` calls take views 2... again, in order. Frames stay until replaced.
    /// Returns the old binding, for `restore` when the run fails.
    func rebind(_ newHost: LuaHost) -> Binding {
        let old = Binding(host: host, references: views.map(\.reference), named: named)
        for k in views.indices { views[k].reference = LUA_NOREF }
        named = 0
        host = newHost
        return old
    }

    /// Puts back the binding `rebind` returned (views the failed run added keep no store).
    func restore(_ b: Binding) {
        host = b.host
        named = b.named
        for k in views.indices { views[k].reference = k < b.references.count ? b.references[k] : LUA_NOREF }
        PreviewHost.sessionHost = b.host
    }

    // MARK: Frames

    /// Pushes the Store of view `k` (1-based); false (nothing pushed) when it has none.
    private func pushStore(view k: Int) -> Bool {
        let L = host.L
        if k == 1 {
            host.pushGlobal("store")
        } else {
            guard views[k - 1].reference != LUA_NOREF else { return false }
            lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(views[k - 1].reference))
        }
        if FlowStoreBinding.store(L, at: -1) != nil { return true }
        flua_pop(L, 1)
        return false
    }

    /// Draws every view some page shows and publishes the drawings that changed. Called
    /// between reads: after each chunk and after the pages' requests were applied, so a
    /// burst of changes in one chunk is one frame. A view no page shows is not drawn; its
    /// last frame is dropped, since it may be out of date (a page that connects wakes the
    /// REPL, which draws it then).
    func refresh() {
        let changedAt = PreviewFrame.now()
        for k in views.indices {
            guard hub.pageCount(view: k + 1) > 0 else {
                if views[k].lastSVG != nil {
                    views[k].lastSVG = nil
                    hub.retract(view: k + 1)
                }
                continue
            }
            guard pushStore(view: k + 1) else { continue }
            let store = FlowStoreBinding.store(host.L, at: -1)!
            flua_pop(host.L, 1)
            let drawing: SVGDrawing
            do { drawing = try drawSVG(store) } catch {
                hub.notify(view: k + 1, error.description)
                views[k].drawFailed = true
                continue
            }
            if views[k].drawFailed {
                views[k].drawFailed = false
                hub.clearNotice(view: k + 1)
            }
            guard drawing.svg != views[k].lastSVG else { continue }
            views[k].lastSVG = drawing.svg
            views[k].revision += 1
            hub.publish(
                PreviewFrame(
                    view: k + 1, revision: views[k].revision, svg: drawing.svg, warnings: drawing.warnings,
                    changedAt: changedAt))
        }
    }

    /// Shows a problem on the pages of view 1 (a `--watch` run that failed), until
    /// `clearNotice`.
    func notify(_ message: String) { hub.notify(view: 1, message) }

    func clearNotice() { hub.clearNotice(view: 1) }

    // MARK: Requests

    /// Empties the wake-up counter, applies the pages' requests in order and refreshes.
    /// Each request runs like a call at the prompt: its change events print, a failure
    /// changes nothing and is answered to its page only.
    func serviceRequests() {
        var bytes = [UInt8](repeating: 0, count: 256)
        while read(wakeFD, &bytes, bytes.count) > 0 {}
        let requests = hub.takeRequests()
        for r in requests {
            if let message = apply(r) {
                hub.reply(to: r.page, PreviewMessages.error(message))
            } else {
                hub.reply(to: r.page, PreviewMessages.ok)
            }
        }
        refresh()
    }

    /// Runs one request through the store's own Lua methods (so events, callbacks and undo
    /// behave as at the prompt). Returns the error message, nil on success.
    private func apply(_ incoming: PreviewHub.Incoming) -> String? {
        let L = host.L
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        guard lua_rawgetp(L, FLUA_REGISTRYINDEX, &PreviewHost.applyKey) == LUA_TFUNCTION else {
            return "the preview is not installed in this state"
        }
        guard pushStore(view: incoming.view) else { return "view \(incoming.view) has no store" }
        let store = FlowStoreBinding.store(L, at: -1)!
        let s = LuaStack(L)
        switch incoming.request {
        case .select(let item, let id, let add):
            s.push(item == .node ? "selectNode" : "selectEdge")
            s.push(id)
            lua_pushboolean(L, add ? 0 : 1)
        case .clearSelection:
            s.push("clearSelection")
            lua_pushnil(L)
            lua_pushnil(L)
        case .pointer(let phase, let x, let y):
            let p = store.canvasToScreen(Point(x, y))
            s.push("pointer" + phase.rawValue.prefix(1).uppercased() + phase.rawValue.dropFirst())
            lua_pushnumber(L, p.x)
            lua_pushnumber(L, p.y)
        }
        guard flua_pcall_swift(L, 4, 0, 0) == LUA_OK else {
            return s.string(at: -1) ?? "error"
        }
        return nil
    }

    nonisolated(unsafe) private static var applyKey: UInt8 = 0

    /// `apply(store, method, a, b)`: calls `store:method(a, b)`, raising its error without
    /// a position. Kept in the registry.
    private static let applyCode = """
        local function apply(s, method, a, b)
          local ok, e = pcall(s[method], s, a, b)
          if not ok then error(type(e) == "string" and (e:gsub("^[^:]*:%d+: ", "")) or e, 0) end
        end
        return apply
        """

    /// Defines the request runner in `host`'s state (every state the preview drives).
    private static func installRunner(_ host: LuaHost) {
        let L = host.L
        guard host.load(Array(applyCode.utf8), chunkName: "=(preview)") == LUA_OK,
            flua_pcall_swift(L, 0, 1, 0) == LUA_OK
        else {
            flua_pop(L, 1)
            return
        }
        lua_rawsetp(L, FLUA_REGISTRYINDEX, &applyKey)
    }
}
