import CLua
import CLuaShims
import FlowCore

// `store:walk(start [, options])` and the Walker type (docs/queries.md): a FlowWalker
// whose guard is a Lua function.
//
// A Walker userdata holds a LuaWalkerBox; its user value 1 is a table the binding made:
// `{store = <Store userdata>, guard = <function or nil>, context = <any value>}`. So the
// walker keeps its store alive, and a guard that refers to its own walker is collected
// with it (user values are traced; a registry reference would not be).

let walkerClass = LuaClass<LuaWalkerBox>("flow.Walker", name: "Walker")

final class LuaWalkerBox: CustomStringConvertible {
    /// Set right after the box is made (the walker's closures refer to the box).
    var walker: FlowWalker<JSONValue>!
    let storeBox: LuaStoreBox
    /// The thread of the bound call now running, and the stack index of the walker's
    /// user-value table on it: where the guard finds its function and the context.
    var L: OpaquePointer
    var values: Int32 = 0

    init(_ storeBox: LuaStoreBox, _ L: OpaquePointer) {
        self.storeBox = storeBox
        self.L = L
    }

    var description: String {
        guard let w = walker else { return "Walker" }
        let n = w.steps.count
        return "Walker \(w.current) (\(n) \(n == 1 ? "step" : "steps"))"
    }

    /// Calls the Lua guard with the edge's handle and the context; truthy means open. An
    /// error it raises is left on the stack and thrown as `valueOnStack`, so the bound call
    /// raises it unchanged once the Swift frames are gone.
    func callGuard(_ e: FlowEdge) throws -> Bool {
        let L = self.L
        guard lua_checkstack(L, 8) != 0 else { throw LuaError.message("stack overflow in the walker's guard") }
        lua_pushstring(L, "guard")
        lua_rawget(L, values)  // [guard]
        lua_pushstring(L, "store")
        lua_rawget(L, values)  // [guard, store]
        storeBox.pushEdge(L, e.id, store: -1)
        flua_remove(L, -2)  // [guard, edge]
        lua_pushstring(L, "context")
        lua_rawget(L, values)  // [guard, edge, context]
        guard flua_pcall_swift(L, 2, 1, 0) == LUA_OK else { throw LuaError.valueOnStack }
        defer { flua_pop(L, 1) }
        return lua_toboolean(L, -1) != 0
    }

    /// The event line of a move (flowrepl prints it before the selection's lines).
    func print(_ move: FlowWalker<JSONValue>.Move) {
        let context = storeBox.context
        guard context.eventsEnabled else { return }
        switch move {
        case .start(let id): context.emitEvent("walk start \(id)")
        case .next(let s): context.emitEvent("walk next \(s.from) -> \(s.to) (\(s.edge))")
        case .back(let s): context.emitEvent("walk back \(s.to) -> \(s.from) (\(s.edge))")
        case .reset(let from, let to): context.emitEvent("walk reset \(from) -> \(to)")
        }
    }
}

enum LuaWalker {
    static func register(_ L: OpaquePointer) {
        walkerClass.register(
            L, methods: methods, getters: getters, setters: [LuaMethod("context", setContext)],
            readOnlyHints: ["current": "field 'current' is read-only (use walker:next)",
                            "canGoBack": "field 'canGoBack' is read-only"])
    }

    static let methods: [LuaMethod] = [
        LuaMethod("next", next), LuaMethod("back", back), LuaMethod("reset", reset),
        LuaMethod("options", options), LuaMethod("history", history),
    ]

    static let getters: [LuaMethod] = [
        LuaMethod("current", current), LuaMethod("canGoBack", canGoBack), LuaMethod("context", context),
    ]

    /// `store:walk(start [, {guard =, context =, show =}])`.
    static let walk: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let start = try nodeID(args, 2, of: box)
            let options = try args.optionalTable(3)
            var show = true
            lua_createtable(args.L, 0, 3)
            let values = lua_gettop(args.L)
            lua_pushvalue(args.L, 1)
            lua_setfield(args.L, values, "store")
            if let t = options {
                try t.rejectUnknownKeys(["guard", "context", "show"])
                show = try t.optionalBoolean("show", default: true)
                let k = t.pushField("guard")
                guard k == LUA_TFUNCTION || k == LUA_TNIL else {
                    throw t.error("guard", LuaErrors.typeMessage(args.L, -1, expected: "function"))
                }
                lua_setfield(args.L, values, "guard")
                _ = t.pushField("context")
                lua_setfield(args.L, values, "context")
            }
            lua_pushstring(args.L, "context")
            if lua_rawget(args.L, values) == LUA_TNIL {
                lua_createtable(args.L, 0, 0)
                lua_setfield(args.L, values, "context")
            }
            flua_pop(args.L, 1)
            lua_pushstring(args.L, "guard")
            let guarded = lua_rawget(args.L, values) == LUA_TFUNCTION
            flua_pop(args.L, 1)

            let w = LuaWalkerBox(box, args.L)
            w.values = values
            w.walker = try box.run(args.L) {
                try FlowWalker(
                    store: box.store, start: start,
                    edgeGuard: guarded ? { [unowned w] e in try w.callGuard(e) } : nil,
                    showsStep: show, onMove: { [unowned w] m in w.print(m) })
            }
            walkerClass.push(args.L, w, userValue: values)
            return 1
        }
    }

    /// The walker at index 1: its user-value table and the store userdata are pushed (their
    /// indices returned). Raises when the store is closed.
    static func enter(_ args: LuaArgs) throws(LuaError) -> (box: LuaWalkerBox, store: Int32) {
        let box = try pushValues(args)
        guard !box.storeBox.isClosed else { throw .message("attempt to use a closed Store") }
        lua_pushstring(args.L, "store")
        lua_rawget(args.L, -2)
        return (box, lua_gettop(args.L))
    }

    /// Runs a walker call on this thread (after `enter`): the guard finds its table in this
    /// call's frame, and the store's callbacks run here. The previous thread and index are
    /// put back afterwards, for a call made from inside another one (a guard calling a
    /// walker: its own gets `busy` from FlowCore, and may catch that and go on).
    static func run<R>(
        _ args: LuaArgs, _ box: LuaWalkerBox, store: Int32, _ body: (FlowWalker<JSONValue>) throws -> R
    ) throws -> R {
        let saved = (box.L, box.values)
        defer { (box.L, box.values) = saved }
        box.L = args.L
        box.values = store - 1
        return try box.storeBox.run(args.L) { try body(box.walker) }
    }

    /// Pushes the Node handle and the Edge handle of a step's end `to` (the node) and edge.
    static func push(_ args: LuaArgs, _ box: LuaWalkerBox, node: String, edge: String, store: Int32) -> Int32 {
        box.storeBox.pushNode(args.L, node, store: store)
        box.storeBox.pushEdge(args.L, edge, store: store)
        return 2
    }

    /// `walker:next([choice])`: the node reached and the edge taken.
    static let next: LuaFunction = { L in
        luaGuarded(L) { args in
            let choice = args.isNoneOrNil(2) ? nil : try itemID(args, 2, edgeClass, of: try walkerClass.check(args.L, 1).storeBox)
            let (box, store) = try enter(args)
            let step = try run(args, box, store: store) { try $0.next(choice) }
            return push(args, box, node: step.to, edge: step.edge, store: store)
        }
    }

    /// `walker:back()`: the node gone back to and the edge gone back along.
    static let back: LuaFunction = { L in
        luaGuarded(L) { args in
            let (box, store) = try enter(args)
            let step = try run(args, box, store: store) { try $0.back() }
            return push(args, box, node: step.from, edge: step.edge, store: store)
        }
    }

    /// `walker:reset()`: the start node.
    static let reset: LuaFunction = { L in
        luaGuarded(L) { args in
            let (box, store) = try enter(args)
            try run(args, box, store: store) { try $0.reset() }
            box.storeBox.pushNode(args.L, box.walker.current, store: store)
            return 1
        }
    }

    /// `walker:options()`: the ways on, as Edge handles.
    static let options: LuaFunction = { L in
        luaGuarded(L) { args in
            let (box, store) = try enter(args)
            let ways = try run(args, box, store: store) { try $0.options() }
            box.storeBox.pushEdges(args.L, ways.map(\.id), store: store)
            return 1
        }
    }

    /// `walker:history()`: the nodes visited (start first) and the edges taken.
    static let history: LuaFunction = { L in
        luaGuarded(L) { args in
            let (box, store) = try enter(args)
            box.storeBox.pushNodes(args.L, box.walker.visitedNodeIDs, store: store)
            box.storeBox.pushEdges(args.L, box.walker.steps.map(\.edge), store: store)
            return 2
        }
    }

    static let current: LuaFunction = { L in
        luaGuarded(L) { args in
            let (box, store) = try enter(args)
            box.storeBox.pushNode(args.L, box.walker.current, store: store)
            return 1
        }
    }

    static let canGoBack: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try enter(args).box.walker.canGoBack)
            return 1
        }
    }

    /// Checks the walker at index 1 and pushes its user-value table.
    static func pushValues(_ args: LuaArgs) throws(LuaError) -> LuaWalkerBox {
        let box = try walkerClass.check(args.L, 1)
        lua_getiuservalue(args.L, 1, 1)
        return box
    }

    static let context: LuaFunction = { L in
        luaGuarded(L) { args in
            _ = try pushValues(args)
            lua_pushstring(args.L, "context")
            lua_rawget(args.L, -2)
            return 1
        }
    }

    static let setContext: LuaFunction = { L in
        luaGuarded(L) { args in
            _ = try pushValues(args)
            lua_pushstring(args.L, "context")
            lua_pushvalue(args.L, 2)
            lua_rawset(args.L, -3)
            return 0
        }
    }
}
