import CLua
import CLuaShims
import FlowCore

// lua-api §7: pointer input (screen coordinates) and the virtual clock.

extension FlowStoreBinding {
    static var pointerMethods: [LuaMethod] {
        [
            LuaMethod("pointerDown", pointerDown), LuaMethod("pointerMove", pointerMove),
            LuaMethod("pointerUp", pointerUp), LuaMethod("pointerCancel", pointerCancel),
            LuaMethod("tap", tap), LuaMethod("hover", hover), LuaMethod("scroll", scroll),
            LuaMethod("magnify", magnify), LuaMethod("advanceClock", advanceClock),
            LuaMethod("beginInteractiveUpdates", beginInteractiveUpdates),
            LuaMethod("endInteractiveUpdates", endInteractiveUpdates),
        ]
    }

    static var pointerGetters: [LuaMethod] { [LuaMethod("clock", clock)] }

    /// `{command=bool, shift=bool}` at `i`, or none.
    static func modifiers(_ args: LuaArgs, _ i: Int32) throws -> PointerModifiers {
        guard let t = try args.optionalTable(i) else { return [] }
        try t.rejectUnknownKeys(["command", "shift"])
        var m: PointerModifiers = []
        if try t.optionalBoolean("command", default: false) { m.insert(.command) }
        if try t.optionalBoolean("shift", default: false) { m.insert(.shift) }
        return m
    }

    static let pointerDown: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let (p, next) = try args.point(2)
            let m = try modifiers(args, next)
            try box.runAtomic(args.L, "pointerDown", callbacks: box.hasInteractionHandlers) { try box.store.interaction.pointerDown(at: p, modifiers: m) }
            args.push(true)
            return 1
        }
    }

    static let pointerMove: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let p = try args.point(2).point
            args.push(try box.run(args.L) { try box.store.interaction.pointerMove(to: p) })
            return 1
        }
    }

    static let pointerUp: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let p = try args.point(2).point
            args.push(try box.runAtomic(args.L, "pointerUp", callbacks: box.hasInteractionHandlers) { try box.store.interaction.pointerUp(at: p) })
            return 1
        }
    }

    static let pointerCancel: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            args.push(try box.run(args.L) { box.store.interaction.pointerCancel() })
            return 1
        }
    }

    static let tap: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let (p, next) = try args.point(2)
            let m = try modifiers(args, next)
            args.push(try box.runAtomic(args.L, "tap", callbacks: box.hasInteractionHandlers) { try box.store.interaction.tap(at: p, modifiers: m) })
            return 1
        }
    }

    static let hover: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let p = try args.point(2).point
            args.push(try box.run(args.L) { try box.store.hover(at: p) })
            return 1
        }
    }

    static let scroll: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            args.push(try box.store.scroll(by: try args.point(2).point))
            return 1
        }
    }

    static let magnify: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let f = try args.number(2)
            var anchor = Point.zero
            if !args.isNoneOrNil(3) { anchor = try args.point(3).point }
            args.push(try box.store.magnify(by: f, at: anchor))
            return 1
        }
    }

    static let advanceClock: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            try box.store.interaction.advanceClock(by: try args.number(2))
            args.push(true)
            return 1
        }
    }

    static let clock: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try args.object(1, storeClass).store.interaction.clock)
            return 1
        }
    }

    static let beginInteractiveUpdates: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let was = box.store.isHoldingEvents
            box.store.beginInteractiveUpdates()
            args.push(!was)
            return 1
        }
    }

    static let endInteractiveUpdates: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let was = box.store.isHoldingEvents
            try box.run(args.L) { box.store.endInteractiveUpdates() }
            args.push(was)
            return 1
        }
    }
}
