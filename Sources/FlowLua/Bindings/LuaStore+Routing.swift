import CLua
import FlowCore

// `store:route()`: orthogonal edges routed afresh (docs/routing.md).

extension FlowStoreBinding {
    static var routingMethods: [LuaMethod] {
        [LuaMethod("route", route)]
    }

    /// Routes every orthogonal edge afresh; returns how many got new points.
    static let route: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let changed = try box.run(args.L) { try box.store.routeEdges() }
            args.push(changed)
            return 1
        }
    }
}
