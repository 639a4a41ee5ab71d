import CLua
import CLuaShims
import FlowCore

// lua-api §5: viewport, geometry, animations.

extension FlowStoreBinding {
    static var viewportMethods: [LuaMethod] {
        [
            LuaMethod("setViewport", setViewport), LuaMethod("pan", pan), LuaMethod("zoom", zoom),
            LuaMethod("fitToContent", fitToContent), LuaMethod("screenToCanvas", screenToCanvas),
            LuaMethod("canvasToScreen", canvasToScreen), LuaMethod("nodeBounds", nodeBounds),
            LuaMethod("hitTest", hitTest), LuaMethod("setNodePositions", setNodePositions),
            LuaMethod("tick", tick),
        ]
    }

    static var viewportGetters: [LuaMethod] {
        [LuaMethod("viewport", viewport), LuaMethod("isAnimating", isAnimating)]
    }

    /// An animation argument: `"default"`, `"smooth"`, `{spring={response=, dampingFraction=}}`
    /// or `{easeInOut={duration=}}`; nil when absent.
    static func animation(_ args: LuaArgs, _ i: Int32, op: String) throws -> FlowAnimation? {
        switch lua_type(args.L, i) {
        case LUA_TNONE, LUA_TNIL: return nil
        case LUA_TSTRING:
            let s = try args.string(i)
            switch s {
            case "default": return .default
            case "smooth": return .smooth
            default:
                throw FlowError.invalidEnum(
                    operation: op, kind: "animation", value: s, expected: ["default", "smooth"])
            }
        case LUA_TTABLE:
            let t = try args.table(i)
            try t.rejectUnknownKeys(["spring", "easeInOut"])
            if let a = try t.optionalTable("spring", { s -> FlowAnimation in
                try s.rejectUnknownKeys(["response", "dampingFraction"])
                return .spring(
                    response: try s.optionalNumber("response", default: 0.55),
                    dampingFraction: try s.optionalNumber("dampingFraction", default: 1))
            }) { return a }
            if let a = try t.optionalTable("easeInOut", { s -> FlowAnimation in
                try s.rejectUnknownKeys(["duration"])
                return .easeInOut(duration: try s.optionalNumber("duration", default: 0.3))
            }) { return a }
            throw t.error("expected a 'spring' or 'easeInOut' field")
        default:
            throw LuaError.type(i, expected: "string or table")
        }
    }

    static let viewport: LuaFunction = { L in
        luaGuarded(L) { args in
            let v = try args.object(1, storeClass).store.viewport
            args.pushTable(fields: 3)
            args.push(v.offset.x); args.setField("x")
            args.push(v.offset.y); args.setField("y")
            args.push(v.zoom); args.setField("zoom")
            return 1
        }
    }

    static let isAnimating: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try args.object(1, storeClass).store.interaction.isAnimating)
            return 1
        }
    }

    static let setViewport: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let t = try args.table(2)
            try t.rejectUnknownKeys(["x", "y", "zoom"])
            let cur = box.store.viewport
            let v = Viewport(
                offset: Point(try t.optionalNumber("x", default: cur.offset.x), try t.optionalNumber("y", default: cur.offset.y)),
                zoom: try t.optionalNumber("zoom", default: cur.zoom))
            let a = try animation(args, 3, op: "setViewport")
            args.push(try box.store.interaction.setViewport(v, animation: a))
            return 1
        }
    }

    static let pan: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            args.push(try box.store.pan(by: try args.point(2).point))
            return 1
        }
    }

    static let zoom: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let factor = try args.number(2)
            var anchor = Point.zero, next: Int32 = 3
            if !args.isNoneOrNil(3) { (anchor, next) = try args.point(3) }
            let a = try animation(args, next, op: "zoom")
            args.push(try box.store.interaction.zoom(by: factor, anchor: anchor, animation: a))
            return 1
        }
    }

    static let fitToContent: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let (size, next) = try args.size(2)
            let padding = try args.optionalNumber(next, default: 50)
            let a = try animation(args, next + 1, op: "fitToContent")
            args.push(try box.store.interaction.fitToContent(canvasSize: size, padding: padding, animation: a))
            return 1
        }
    }

    static let screenToCanvas: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            args.push(box.store.screenToCanvas(try args.point(2).point))
            return 1
        }
    }

    static let canvasToScreen: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            args.push(box.store.canvasToScreen(try args.point(2).point))
            return 1
        }
    }

    static let nodeBounds: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try storeSelf(args).store.nodeBounds())
            return 1
        }
    }

    static let hitTest: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            switch box.store.hitTest(at: try args.point(2).point) {
            case .handle(let nodeID, let handleID, _, _)?:
                args.pushTable(fields: 3)
                args.push("handle"); args.setField("kind")
                args.push(nodeID); args.setField("nodeID")
                args.push(handleID); args.setField("handleID")
            case .node(let id)?: pushKind(args, "node", id)
            case .edge(let id)?: pushKind(args, "edge", id)
            case nil: args.pushNil()
            }
            return 1
        }
    }

    static let setNodePositions: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let t = try args.table(2)
            let (keys, other) = t.stringKeys()
            if other { throw t.error("keys must be node ids") }
            var positions: [(String, Point)] = []
            for k in keys { positions.append((k, try t.point(k))) }
            // store order, so the result does not depend on Lua's table order
            var order: [String: Int] = [:]
            if positions.count > 1 {
                var i = 0
                box.store.forEachNode { n in order[n.id] = i; i += 1 }
                positions.sort { (order[$0.0] ?? Int.max, $0.0) < (order[$1.0] ?? Int.max, $1.0) }
            }
            let a = try animation(args, 3, op: "setNodePositions")
            args.push(try box.run(args.L) { try box.store.interaction.setNodePositions(positions, animation: a) })
            return 1
        }
    }

    static let tick: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let dt = try args.number(2)
            args.push(try box.run(args.L) { try box.store.interaction.tick(dt) })
            return 1
        }
    }
}
