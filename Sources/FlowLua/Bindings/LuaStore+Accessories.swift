import CLua
import CLuaShims
import FlowCore

// lua-api §9: accessory placement.

extension FlowStoreBinding {
    static var accessoryMethods: [LuaMethod] {
        [LuaMethod("accessoryPosition", accessoryPosition), LuaMethod("accessories", accessories)]
    }

    static let accessoryPosition: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let op = "accessoryPosition"
            let t = try args.table(2)
            try t.rejectUnknownKeys(["node", "edge", "size", "canvasSize", "placement", "spacing", "margin"])
            let node = try t.optionalID("node"), edge = try t.optionalID("edge")
            let anchor: AccessoryAnchor
            switch (node, edge) {
            case (let n?, nil): anchor = .node(n)
            case (nil, let e?): anchor = .edge(e)
            default: throw t.error("exactly one of 'node' and 'edge' is required")
            }
            let size = try t.size("size"), canvas = try t.size("canvasSize")
            let placement = try t.optionalEnumValue("placement", AccessoryPlacement.self, in: op)
            let spacing = try t.optionalNumber("spacing", default: 8), margin = try t.optionalNumber("margin", default: 8)
            let r = try box.run(args.L) {
                try box.store.interaction.accessoryPosition(
                    for: anchor, size: size, canvasSize: canvas, placement: placement, spacing: spacing, margin: margin)
            }
            args.pushTable(fields: 3)
            args.push(r.center.x); args.setField("x")
            args.push(r.center.y); args.setField("y")
            args.push(r.placement.rawValue); args.setField("placement")
            return 1
        }
    }

    static let accessories: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let t = try args.table(2)
            try t.rejectUnknownKeys(["size", "canvasSize"])
            let size = try t.size("size"), canvas = try t.size("canvasSize")
            let list = try box.run(args.L) { try box.store.interaction.accessories(size: size, canvasSize: canvas) }
            args.pushTable(array: Int32(list.count))
            for (i, a) in list.enumerated() {
                args.pushTable(fields: 5)
                switch a.anchor {
                case .node(let id): args.push("node"); args.setField("kind"); args.push(id); args.setField("id")
                case .edge(let id): args.push("edge"); args.setField("kind"); args.push(id); args.setField("id")
                }
                args.push(a.center.x); args.setField("x")
                args.push(a.center.y); args.setField("y")
                args.push(a.placement.rawValue); args.setField("placement")
                args.setIndex(i + 1)
            }
            return 1
        }
    }
}
