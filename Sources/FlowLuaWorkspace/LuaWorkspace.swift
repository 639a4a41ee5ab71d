import CLua
import CLuaShims
import FlowCore
import FlowLua
internal import FlowPostgres
internal import FlowStorage

// `flow.workspace(path [, options])` and the Workspace type (docs/workspaces.md): named
// diagrams in an SQLite file, or in a PostgreSQL database shared by many sessions when
// `path` is a `postgresql://` URL (docs/collaboration.md); a store opened from one
// writes each change batch to it.
//
// The module `flow.workspace`, apart from `flow` so that `require "flow"` brings no
// Foundation and no SQLite: `flow.workspace` requires it on its first call. flowrepl and
// in-process hosts put `openFlowWorkspaceModule` in `package.preload` (`FlowHooks.preloads`);
// for the stock lua5.4, scripts/build-module links it as `flow/workspace.so` against
// `flow.so`, with which it shares the store binding and the Swift runtime
// (docs/embedding.md, "Weight").

/// The module's entry point when it is a loadable module of its own (`flow/workspace.so`).
@_cdecl("luaopen_flow_workspace")
public func luaopen_flow_workspace(_ L: OpaquePointer?) -> Int32 {
    _ = flua_keep_loaded(unsafeBitCast(openFlowWorkspaceModule, to: UnsafeRawPointer.self))
    return openFlowWorkspaceModule(L)
}

/// Opens the module `flow.workspace` and returns its table (one result): `{workspace =
/// flow.workspace}`. Requires `flow` first (the store binding it makes stores with). Never
/// raises except on memory errors; what hosts pass to `FlowHooks.preloads`.
public let openFlowWorkspaceModule: @convention(c) (OpaquePointer?) -> Int32 = { L in
    let L = L.unsafelyUnwrapped
    luaL_requiref(L, "flow", openFlowModule, 0)
    flua_pop(L, 1)
    LuaWorkspace.register(L)
    FlowHooks.syncSharedWorkspaces = { PostgresWorkspace.syncAll() }
    FlowHooks.sharedWorkspaceSockets = { PostgresWorkspace.sockets }
    FlowHooks.sharedWorkspacesOffline = { PostgresWorkspace.anyOffline }
    lua_createtable(L, 0, 1)
    luaSetFunctions(L, [LuaMethod("workspace", LuaWorkspace.workspace)], table: -1, qualifier: "flow.")
    return 1
}

let workspaceClass = LuaClass<LuaWorkspaceBox>("flow.Workspace", name: "Workspace")

final class LuaWorkspaceBox: CustomStringConvertible {
    let workspace: any DiagramWorkspace
    init(_ workspace: any DiagramWorkspace) { self.workspace = workspace }
    var description: String { "Workspace \(workspace.location)\(workspace.isClosed ? " (closed)" : "")" }
}

enum LuaWorkspace {
    static func register(_ L: OpaquePointer) {
        workspaceClass.register(
            L, methods: methods, getters: [LuaMethod("path", path)], setters: [],
            metamethods: [LuaMethod("__close", close)],
            readOnlyHints: ["path": "field 'path' is read-only"])
    }

    static let methods: [LuaMethod] = [
        LuaMethod("create", create), LuaMethod("open", open), LuaMethod("fork", fork),
        LuaMethod("list", list), LuaMethod("rename", rename), LuaMethod("delete", delete),
        LuaMethod("versions", versions), LuaMethod("reload", reload), LuaMethod("sync", sync), LuaMethod("close", close),
    ]

    /// `flow.workspace(path [, {readOnly =, maxPages =}])` -> Workspace, or nil and a
    /// message when the file cannot be opened as a workspace.
    static let workspace: LuaFunction = { L in
        luaGuarded(L) { args in
            let path = try args.string(1)
            if PostgresWorkspace.isDatabaseURL(path) {
                if try args.optionalTable(2) != nil {
                    throw LuaError.argument(2, "no options for a PostgreSQL workspace (readOnly and maxPages are for files)")
                }
                do {
                    workspaceClass.push(args.L, LuaWorkspaceBox(try PostgresWorkspace(url: path)))
                    return 1
                } catch {
                    return args.pushFailure("\(error)")
                }
            }
            var options = Workspace.Options()
            if let t = try args.optionalTable(2) {
                try t.rejectUnknownKeys(["readOnly", "maxPages"])
                options.readOnly = try t.optionalBoolean("readOnly", default: false)
                if let pages = try t.optionalInteger("maxPages") {
                    guard pages > 0 else { throw LuaError.argument(2, "field 'maxPages': positive integer expected") }
                    options.maxPages = Int(pages)
                }
            }
            do {
                let ws = try Workspace(path: path, options: options)
                workspaceClass.push(args.L, LuaWorkspaceBox(ws))
                return 1
            } catch {
                return args.pushFailure("\(error)")
            }
        }
    }

    static func open(_ args: LuaArgs) throws -> any DiagramWorkspace {
        let ws = try args.object(1, workspaceClass).workspace
        if ws.isClosed { throw LuaError.message("attempt to use a closed Workspace") }
        return ws
    }

    /// Pushes a new store (default configuration, named after the diagram) and runs `body`
    /// on it; on failure the store is dropped.
    static func withNewStore(_ args: LuaArgs, name: String, _ body: (FlowStore<JSONValue>) throws -> Void) throws -> Int32 {
        let box = FlowStoreBinding.pushNewStore(args.L, configuration: FlowConfiguration())
        do {
            try body(box.store)
        } catch {
            box.shutdown()
            throw error
        }
        box.name = name
        return 1
    }

    /// The `{at = n}` option of `open` and `fork`.
    static func version(_ args: LuaArgs, _ i: Int32) throws -> Int? {
        guard let t = try args.optionalTable(i) else { return nil }
        try t.rejectUnknownKeys(["at"])
        return try t.optionalInteger("at").map { Int($0) }
    }

    /// `ws:create(name)` -> Store bound to the new diagram.
    static let create: LuaFunction = { L in
        luaGuarded(L) { args in
            let ws = try open(args)
            let name = try args.string(2)
            return try withNewStore(args, name: name) { s in try ws.create(name, into: s) }
        }
    }

    /// `ws:open(name [, {at = n}])` -> Store (bound; read-only at a version).
    static let open: LuaFunction = { L in
        luaGuarded(L) { args in
            let ws = try open(args)
            let name = try args.string(2)
            let at = try version(args, 3)
            return try withNewStore(args, name: name) { s in
                if let at { try ws.open(name, at: at, into: s) } else { try ws.open(name, into: s) }
            }
        }
    }

    /// `ws:fork(name, newName [, {at = n}])` -> Store bound to the new diagram.
    static let fork: LuaFunction = { L in
        luaGuarded(L) { args in
            let ws = try open(args)
            let name = try args.string(2)
            let newName = try args.string(3)
            let at = try version(args, 4)
            return try withNewStore(args, name: newName) { s in try ws.fork(name, at: at, as: newName, into: s) }
        }
    }

    static let list: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(strings: try open(args).list())
            return 1
        }
    }

    static let rename: LuaFunction = { L in
        luaGuarded(L) { args in
            let ws = try open(args)
            try ws.rename(try args.string(2), to: try args.string(3))
            return 0
        }
    }

    /// `ws:reload(name)`: the bound store of diagram `name` takes what the file holds now
    /// (after another writer changed the diagram).
    static let reload: LuaFunction = { L in
        luaGuarded(L) { args in
            let ws = try open(args)
            try ws.reload(try args.string(2))
            return 0
        }
    }

    /// `ws:sync()` -> n: applies to the bound stores what other sessions committed (a
    /// PostgreSQL workspace; 0 for a file), and writes changes kept while offline.
    static let sync: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try open(args).sync())
            return 1
        }
    }

    /// `ws:delete(name)`: a diagram open in a store of this state is deleted too, and the
    /// store closed (its calls then raise `attempt to use a closed Store`).
    static let delete: LuaFunction = { L in
        luaGuarded(L) { args in
            let ws = try open(args)
            try ws.delete(try args.string(2)) { store in FlowStoreBinding.close(args.L, store: store) }
            return 0
        }
    }

    /// `ws:versions(name)` -> `{ {version =, name =, summary =, time =}, ... }`.
    static let versions: LuaFunction = { L in
        luaGuarded(L) { args in
            let list = try open(args).versions(try args.string(2))
            let s = LuaStack(args.L)
            lua_createtable(args.L, Int32(list.count), 0)
            for (i, v) in list.enumerated() {
                lua_createtable(args.L, 0, 4)
                s.push(v.number)
                lua_setfield(args.L, -2, "version")
                s.push(v.name)
                lua_setfield(args.L, -2, "name")
                s.push(v.summary)
                lua_setfield(args.L, -2, "summary")
                s.push(float: v.time)
                lua_setfield(args.L, -2, "time")
                lua_rawseti(args.L, -2, lua_Integer(i + 1))
            }
            return 1
        }
    }

    static let close: LuaFunction = { L in
        luaGuarded(L) { args in
            try args.object(1, workspaceClass).workspace.close()
            return 0
        }
    }

    static let path: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try args.object(1, workspaceClass).workspace.location)
            return 1
        }
    }
}
