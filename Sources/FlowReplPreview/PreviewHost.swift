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

    /// A store pages can show: a view of its own, numbered from 1 in the order the preview
    /// first saw the stores (`--watch` gives a store of a new run the view of the store of
    /// the same name in the run before).
    fileprivate final class Shown {
        let view: Int
        weak var box: LuaStoreBox?
        /// The global variable that holds it, else its `store.name`.
        var name: String
        /// When it last changed (a count of changes seen); 0: not since it was found.
        var changed = 0
        var lastSVG: String?
        /// The last drawing failed (its notice is up).
        var drawFailed = false

        init(view: Int, box: LuaStoreBox, name: String) {
            self.view = view
            self.box = box
            self.name = name
        }
    }
    private var shown: [Shown] = []
    /// How many frames each view has had (a view outlives the stores it shows in
    /// `--watch`).
    private var revisions: [Int: Int] = [:]
    private var nextView = 1
    /// Counts the change batches of all stores: the stamps of `Shown.changed`.
    private var changes = 0
    /// The stores of the `--watch` run before this one, whose views the new run's stores
    /// of the same name take over.
    private var previousRun: [Shown] = []
    /// Registry references that keep stores alive: the ones given to `preview(s)`, and
    /// the stores of a script that has ended (`keepStores`).
    private var anchors: [Int32] = []
    /// Which page's gesture holds each store's pointer (several pages press at once).
    private var pointers = PagePointers()

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
        PreviewLimits.raiseDescriptorLimit()  // the REPL's room, whatever the server holds
        let server: PreviewServer
        do throws(PreviewServerError) { server = try PreviewServer(address: address, hub: hub, token: token) } catch {
            close(readEnd)
            close(writeEnd)
            throw error
        }
        let p = PreviewHost(host: host, server: server, hub: hub, wakeFD: readEnd)
        current = p
        return p
    }

    // MARK: The `preview` global

    /// Defines `preview([store])` in the host's state (cheap: starts nothing). The latest
    /// state installed is the one the preview drives.
    static func install(_ host: LuaHost) {
        host.setGlobal("preview", function: previewFunction)
        sessionHost = host
    }

    /// `preview([store])` called through flowrepl's own `preview` global in `host`.
    static func preview(_ L: OpaquePointer?, host: LuaHost) -> Int32 {
        sessionHost = host
        return previewFunction(L)
    }

    private static let previewFunction: LuaFunction = { L in luaGuarded(L) { args in
        guard let L = L else { return 0 }
        let isGlobal = args.isNoneOrNil(1)
        if !isGlobal && FlowStoreBinding.store(L, at: 1) == nil {
            if storeClassName(L, 1) { throw LuaError.message("preview: attempt to use a closed Store") }
            throw LuaError.type(1, expected: "Store")
        }
        guard let host = hostOf(L) else { throw LuaError.message("preview: not available here") }
        if host.sandbox != nil { throw LuaError.message("preview: not available in the sandbox (it has no network)") }
        let p: PreviewHost
        do throws(PreviewServerError) { p = try start(host: host) } catch {
            throw LuaError.message("preview: \(error.message)")
        }
        let view = isGlobal ? nil : p.pin(storeAt: 1)
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

    /// The view of the Store at `index`, which is kept alive from now on.
    private func pin(storeAt index: Int32) -> Int? {
        let L = host.L
        lua_pushvalue(L, index)
        anchors.append(luaL_ref(L, FLUA_REGISTRYINDEX))
        sync()
        guard let box = LuaStoreBox.at(L, index) else { return nil }
        return shown.first { $0.box === box }?.view
    }

    /// Keeps every store of the state alive while the preview runs (a script that ended,
    /// a `--watch` run: their local stores stay on the pages).
    func keepStores() {
        let L = host.L
        for box in LuaStoreBox.all(in: L) {
            box.push(L)
            anchors.append(luaL_ref(L, FLUA_REGISTRYINDEX))
        }
    }

    /// Which state the views' stores live in, for `rebind` and `restore`.
    struct Binding {
        fileprivate let host: LuaHost
        fileprivate let shown: [Shown]
        fileprivate let anchors: [Int32]
    }

    /// `--watch` runs the script again in a new state: its stores take the views of the
    /// stores of the same name in the run before (the others get new ones). Frames stay
    /// until replaced. Returns the old binding, for `restore` when the run fails.
    func rebind(_ newHost: LuaHost) -> Binding {
        let old = Binding(host: host, shown: shown, anchors: anchors)
        previousRun = shown
        shown = []
        anchors = []
        host = newHost
        return old
    }

    /// Puts back the binding `rebind` returned. The failed run may have drawn its stores
    /// on the views: the next `refresh` draws the last good ones again.
    func restore(_ b: Binding) {
        host = b.host
        shown = b.shown
        for s in shown {
            s.lastSVG = nil
            hub.retract(view: s.view)
        }
        anchors = b.anchors
        previousRun = []
        PreviewHost.sessionHost = b.host
        let views = Set(shown.map(\.view))
        for v in hub.viewIDs where !views.contains(v) { hub.removeView(v) }  // the failed run's
        for v in views { hub.addView(v) }
    }

    /// After a `--watch` run that succeeded: the views of the run before that no store of
    /// the new run took over are closed.
    func endRun() {
        sync()
        for s in previousRun {
            hub.removeView(s.view)
            pointers.forget(view: s.view)
        }
        previousRun = []
    }

    // MARK: Stores and frames

    /// Brings the views up to date with the state's stores: a view for each new store
    /// (watched for changes from now on; one that already has nodes counts as changed
    /// now), none for stores that are gone, and each one's name.
    private func sync() {
        let L = host.L
        let boxes = LuaStoreBox.all(in: L)
        let globals = LuaStoreBox.globalNames(in: L)
        var kept: [Shown] = []
        for box in boxes {
            let name = globals[ObjectIdentifier(box)] ?? box.storeName
            if let s = shown.first(where: { $0.box === box }) {
                s.name = name
                kept.append(s)
                continue
            }
            let s: Shown
            if let k = previousRun.firstIndex(where: { $0.name == name }) {
                let old = previousRun.remove(at: k)
                s = Shown(view: old.view, box: box, name: name)
            } else {
                s = Shown(view: nextView, box: box, name: name)
                nextView += 1
                hub.addView(s.view)
            }
            if box.store.nodeCount + box.store.edgeCount > 0 {
                changes += 1
                s.changed = changes
            }
            box.store.addBatchObserver { [weak self, weak s] _, _ in
                guard let self, let s else { return }
                self.changes += 1
                s.changed = self.changes
            }
            kept.append(s)
        }
        for s in shown where !kept.contains(where: { $0 === s }) {
            hub.removeView(s.view)
            pointers.forget(view: s.view)
        }
        shown = kept
    }

    /// The view of the store changed last (the first store when none changed).
    private var latest: Int? {
        shown.max { $0.changed < $1.changed }.map { best in
            best.changed > 0 ? best.view : shown[0].view
        }
    }

    /// Draws every store some page shows and publishes the drawings that changed. Called
    /// between reads: after each chunk and after the pages' requests were applied, so a
    /// burst of changes in one chunk is one frame. A store no page shows is not drawn; its
    /// last frame is dropped, since it may be out of date (a page that connects or picks
    /// it wakes the REPL, which draws it then).
    func refresh() {
        sync()
        let latest = latest
        hub.setStores(
            PreviewMessages.stores(
                shown.map { PreviewMessages.Store(view: $0.view, name: $0.name, nodes: $0.box?.store.nodeCount ?? 0, edges: $0.box?.store.edgeCount ?? 0) },
                latest: latest),
            latest: latest)
        let changedAt = PreviewFrame.now()
        for s in shown {
            guard hub.pageCount(view: s.view) > 0 else {
                if s.lastSVG != nil {
                    s.lastSVG = nil
                    hub.retract(view: s.view)
                }
                continue
            }
            guard let store = s.box?.store else { continue }
            let drawing: SVGDrawing
            do { drawing = try drawSVG(store) } catch {
                hub.notify(view: s.view, error.description)
                s.drawFailed = true
                continue
            }
            if s.drawFailed {
                s.drawFailed = false
                hub.clearNotice(view: s.view)
            }
            guard drawing.svg != s.lastSVG else { continue }
            s.lastSVG = drawing.svg
            revisions[s.view, default: 0] += 1
            hub.publish(
                PreviewFrame(
                    view: s.view, revision: revisions[s.view]!, svg: drawing.svg, warnings: drawing.warnings,
                    changedAt: changedAt))
        }
    }

    /// Shows a problem on every page (a `--watch` run that failed), until `clearNotice`.
    func notify(_ message: String) { hub.notify(message) }

    func clearNotice() { hub.clearNotice() }

    // MARK: Requests

    /// Empties the wake-up counter, applies the pages' requests in order and refreshes.
    /// Each request runs like a call at the prompt: its change events print, a failure
    /// changes nothing and is answered to its page only. Then the gestures of pages that
    /// went away are cancelled (the departures are taken first: every request of a page
    /// that left is in this round or an earlier one).
    func serviceRequests() {
        var bytes = [UInt8](repeating: 0, count: 256)
        while read(wakeFD, &bytes, bytes.count) > 0 {}
        let departed = hub.takeDeparted()
        let requests = hub.takeRequests()
        for r in requests {
            if let message = apply(r) {
                hub.reply(to: r.page, PreviewMessages.error(message))
            } else {
                hub.reply(to: r.page, PreviewMessages.ok)
            }
        }
        for page in departed {
            for view in pointers.leave(page: page) {
                guard let box = shown.first(where: { $0.view == view })?.box else { continue }
                _ = box.hostCall(host.L, "pointerCancel") { _ = $0.interaction.pointerCancel() }
            }
        }
        refresh()
    }

    /// After a script (`flowrepl --serve PORT script.lua`): keeps serving its stores and
    /// applying the pages' requests until the process is interrupted (Ctrl-C, SIGTERM).
    func serveUntilInterrupted() {
        refresh()
        LuaContext.writeStderrLine("preview: still serving \(server.url()) (Ctrl-C to stop)")
        fflush(flua_stdout())
        while true {
            // and what other sessions commit to a shared workspace (its pages redraw)
            let shared = FlowHooks.sharedWorkspaceSockets?() ?? []
            var fds = [pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)] + shared.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let offline = FlowHooks.sharedWorkspacesOffline?() ?? false
            let ready = poll(&fds, nfds_t(fds.count), offline ? 1000 : -1)  // offline: retry once a second
            if ready >= 0 {
                if ready == 0 || fds.dropFirst().contains(where: { $0.revents != 0 }) { _ = FlowHooks.syncSharedWorkspaces?() }
                serviceRequests()
                fflush(flua_stdout())
            }
        }
    }

    /// Runs one request as a Swift call on the store of its view, the way the same call
    /// runs at the prompt (`LuaStoreBox.hostCall`): its change events print, callbacks run,
    /// a failure changes nothing. Returns the error message, nil on success.
    private func apply(_ incoming: PreviewHub.Incoming) -> String? {
        guard let box = shown.first(where: { $0.view == incoming.view })?.box else {
            return "view \(incoming.view) has no store"
        }
        let L = host.L
        switch incoming.request {
        case .select(.node, let id, let add):
            return box.hostCall(L, "selectNode") { try $0.selectNode(id, exclusive: !add) }
        case .select(.edge, let id, let add):
            return box.hostCall(L, "selectEdge") { try $0.selectEdge(id, exclusive: !add) }
        case .clearSelection:
            return box.hostCall(L, "clearSelection") { $0.clearSelection() }
        case .add(let x, let y, let label):
            return box.hostCall(L, "addNode") { store in
                var node = LuaFlowStore.Node(id: store.nextNodeID(), position: .zero, data: .object(JSONObject(label.map { [("label", JSONValue.string($0))] } ?? [])))
                node.position = Point(x - node.size.width / 2, y - node.size.height / 2)
                try store.addNode(node)
            }
        case .delete:
            return box.hostCall(L, "deleteSelection") { _ = $0.deleteSelection() }
        case .pointer(let phase, let x, let y):
            // one page's gesture at a time holds the store's pointer (PagePointers)
            if phase == .down {
                if let other = pointers.press(view: incoming.view, page: incoming.page, at: Point(x, y)) {
                    let q = box.store.canvasToScreen(other.last)
                    if let message = box.hostCall(L, "pointerUp", interaction: true, { _ = try $0.interaction.pointerUp(at: q) }) {
                        LuaContext.writeStderrLine("preview: ending the gesture of \(hub.name(of: other.page) ?? "a page that left"): \(message)")
                    }
                }
            } else if !pointers.follow(view: incoming.view, page: incoming.page, ending: phase == .up || phase == .cancel, at: Point(x, y)) {
                return nil  // another page's press ended this gesture: ignored
            }
            // the page speaks canvas points; the store's pointer input takes points of its
            // viewport (the one conversion)
            let p = box.store.canvasToScreen(Point(x, y))
            switch phase {
            case .down: return box.hostCall(L, "pointerDown", interaction: true) { try $0.interaction.pointerDown(at: p) }
            case .move: return box.hostCall(L, "pointerMove") { _ = try $0.interaction.pointerMove(to: p) }
            case .up: return box.hostCall(L, "pointerUp", interaction: true) { _ = try $0.interaction.pointerUp(at: p) }
            case .cancel: return box.hostCall(L, "pointerCancel") { _ = $0.interaction.pointerCancel() }
            }
        case .view:
            return nil  // the hub's own (never queued)
        }
    }
}
