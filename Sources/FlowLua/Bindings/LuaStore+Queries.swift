import CLua
import CLuaShims
import FlowCore

// Graph queries and node paths (docs/queries.md): successors, predecessors, reachable,
// path, cycles, topologicalOrder, components, sources, sinks; nodePath, find, reveal.
// Node arguments are ids or Node handles of the store; node lists come back as Node
// handles in store order.

/// The id of the item an argument names: an id (lua-api §0), or a handle of `cls` that
/// belongs to the store `box` (its id). A handle of another store is an argument error.
func itemID(
    _ args: LuaArgs, _ i: Int32, _ cls: LuaHandleClass<LuaStoreBox>, of box: LuaStoreBox
) throws(LuaError) -> String {
    let L = args.L
    let type = lua_type(L, i)
    if type == LUA_TSTRING || type == LUA_TNUMBER { return try args.id(i) }
    let top = lua_gettop(L)
    defer { lua_settop(L, top) }  // the handle's user values
    guard let h = cls.test(L, i) else {
        throw .type(i, expected: "string or \(cls.name.description)")
    }
    guard h.object?.toOpaque() == Unmanaged.passUnretained(box).toOpaque() else {
        throw .argument(i, "\(cls.name.description) of another store")
    }
    return h.keyString
}

/// A node argument (see `itemID`).
func nodeID(_ args: LuaArgs, _ i: Int32, of box: LuaStoreBox) throws(LuaError) -> String {
    try itemID(args, i, nodeClass, of: box)
}

extension FlowStoreBinding {
    static var queryMethods: [LuaMethod] {
        [
            LuaMethod("successors", successors), LuaMethod("predecessors", predecessors),
            LuaMethod("reachable", reachable), LuaMethod("shortestPath", shortestPath),
            LuaMethod("path", path), LuaMethod("cycles", cycles),
            LuaMethod("topologicalOrder", topologicalOrder), LuaMethod("components", components),
            LuaMethod("sources", sources), LuaMethod("sinks", sinks),
            LuaMethod("nodePath", nodePath), LuaMethod("find", find), LuaMethod("reveal", reveal),
        ]
    }

    /// A method `store:f(node)` returning the node list `query` gives.
    private static func nodeList(
        _ L: OpaquePointer?, _ query: (LuaFlowStore, String) throws -> [String]
    ) -> Int32 {
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            box.pushNodes(args.L, try query(box.store, try nodeID(args, 2, of: box)), store: 1)
            return 1
        }
    }

    /// A method `store:f()` returning a node list.
    private static func allNodes(_ L: OpaquePointer?, _ query: (LuaFlowStore) throws -> [String]) -> Int32 {
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            box.pushNodes(args.L, try query(box.store), store: 1)
            return 1
        }
    }

    /// A method `store:f()` returning lists of nodes.
    private static func nodeLists(_ L: OpaquePointer?, _ query: (LuaFlowStore) -> [[String]]) -> Int32 {
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let lists = query(box.store)
            lua_createtable(args.L, Int32(clamping: lists.count), 0)
            for (k, ids) in lists.enumerated() {
                box.pushNodes(args.L, ids, store: 1)
                lua_rawseti(args.L, -2, lua_Integer(k + 1))
            }
            return 1
        }
    }

    static let successors: LuaFunction = { L in nodeList(L) { try $0.successors($1) } }
    static let predecessors: LuaFunction = { L in nodeList(L) { try $0.predecessors($1) } }
    static let reachable: LuaFunction = { L in nodeList(L) { try $0.reachable($1) } }
    static let cycles: LuaFunction = { L in nodeLists(L) { $0.cycles() } }
    static let components: LuaFunction = { L in nodeLists(L) { $0.components() } }

    static let sources: LuaFunction = { L in allNodes(L) { $0.sourceNodeIDs() } }
    static let sinks: LuaFunction = { L in allNodes(L) { $0.sinkNodeIDs() } }
    static let topologicalOrder: LuaFunction = { L in allNodes(L) { try $0.topologicalOrder() } }

    /// `store:path(from, to)`: the nodes and the edges of a path with the fewest edges, or
    /// nil.
    /// `store:shortestPath(from, to)`: the nodes and edges of a path with the fewest edges.
    static let shortestPath: LuaFunction = { L in shortestPath(L, "shortestPath") }

    /// `store:path(from, to)`: the old name of `shortestPath` (a deprecated alias; "path"
    /// also names node paths, files and edge shapes).
    static let path: LuaFunction = { L in shortestPath(L, "path") }

    /// The body of both names; errors name `operation`, the one the script called.
    private static func shortestPath(_ L: OpaquePointer?, _ operation: String) -> Int32 {
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let from = try nodeID(args, 2, of: box), to = try nodeID(args, 3, of: box)
            let found: [String]?
            do throws(FlowError) { found = try box.store.path(from: from, to: to) } catch {
                var named = error
                named.operation = operation
                throw named
            }
            guard let edges = found else {
                args.pushNil()
                return 1
            }
            let nodes = [from] + edges.compactMap { box.store.edge($0)?.targetNodeID }
            box.pushNodes(args.L, nodes, store: 1)
            box.pushEdges(args.L, edges, store: 1)
            return 2
        }
    }

    static let nodePath: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            args.push(try box.store.nodePath(try nodeID(args, 2, of: box)))
            return 1
        }
    }

    /// `store:find(path)`: the Node at the path, or nil.
    static let find: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            if let n = try box.store.node(atPath: try args.string(2)) {
                box.pushNode(args.L, n.id, store: 1)
            } else {
                args.pushNil()
            }
            return 1
        }
    }

    /// `store:reveal(id [, width, height [, padding]])`.
    static let reveal: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let id = try nodeID(args, 2, of: box)
            let (size, next) = args.isNoneOrNil(3) ? (Size(800, 600), 5) : try args.size(3)
            let padding = try args.optionalNumber(next, default: 50)
            args.push(try box.run(args.L) { try box.store.reveal(id, canvasSize: size, padding: padding) })
            return 1
        }
    }
}
