import CLua
import FlowCore
import FlowLayout

// `store:layout(opts)`: automatic layout (docs/layout.md).

extension LayoutDirection: FlowEnum {
    public static var valueName: String { "direction" }
}

extension LayoutAlgorithm: FlowEnum {
    public static var valueName: String { "algorithm" }
}

extension LayoutEffort: FlowEnum {
    public static var valueName: String { "effort" }
}

extension FlowStoreBinding {
    static var layoutMethods: [LuaMethod] {
        [LuaMethod("layout", layout)]
    }

    /// Reads the layout options. Unknown keys raise; spacings must be finite and >= 0; ids
    /// in `nodes`, `pinned` and `group` must be strings (the store checks they exist);
    /// `stable` and `equalLayerSpacing` booleans. Nodes whose data says `pinned = true` are
    /// the store's to honour. Spacing not given is the document's (`LayoutOptions(diagram:)`).
    static func layoutRequest(_ t: LuaTable?, store: LuaFlowStore) throws -> LayoutRequest {
        let op = "layout"
        var r = LayoutRequest(diagram: store.diagramLook)
        guard let t else { return r }
        try t.rejectUnknownKeys([
            "algorithm", "direction", "nodeSpacing", "layerSpacing", "componentSpacing", "equalLayerSpacing",
            "effort", "nodes", "pinned", "group", "stable", "aspectRatio", "ranks",
        ])
        if let v = try t.optionalBoolean("stable") { r.options.stable = v }
        if let v = try t.optionalBoolean("equalLayerSpacing") { r.options.equalLayerSpacing = v }
        if let v = try t.optionalEnumValue("algorithm", LayoutAlgorithm.self, in: op) { r.algorithm = v }
        if let v = try t.optionalEnumValue("direction", LayoutDirection.self, in: op) { r.options.direction = v }
        if let v = try t.optionalEnumValue("effort", LayoutEffort.self, in: op) { r.options.effort = v }
        func spacing(_ key: String) throws -> Double? {
            guard let v = try t.optionalNumber(key) else { return nil }
            guard v.isFinite, v >= 0, v <= 1e6 else {
                throw FlowError.invalidValue(op, "\(key) must be a number from 0 to 1e6 (got \(v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)))")
            }
            return v
        }
        if let v = try spacing("nodeSpacing") {
            r.options.nodeSpacing = v
            r.options.edgeSpacing = v / 2
        }
        if let v = try spacing("layerSpacing") { r.options.layerSpacing = v }
        if let v = try spacing("componentSpacing") { r.options.componentSpacing = v }
        // checked with the rest of the request by the store (`LayoutPlan.checkAspectRatio`)
        if let v = try t.optionalNumber("aspectRatio") { r.options.aspectRatio = v }
        func ids(_ key: String) throws -> [String]? {
            try t.optionalTable(key) { list in
                var out: [String] = []
                try list.forEachElement { i in
                    guard lua_type(list.L, -1) == LUA_TSTRING else {
                        throw FlowError.invalidValue(op, "\(key)[\(i)] must be a node id (a string)")
                    }
                    out.append(LuaStack(list.L).string(at: -1) ?? "")
                }
                return out
            }
        }
        r.ranks = try rankSets(t)
        r.edgeRanks = try edgeRanks(t)
        r.nodes = try ids("nodes")
        if let p = try ids("pinned") { r.pinned.formUnion(p) }
        r.group = try t.optionalID("group")
        if r.group != nil && r.nodes != nil {
            throw FlowError.invalidValue(op, "give nodes or group, not both")
        }
        return r
    }

    /// `ranks = {same = {{ids…}, …}, min = {ids…}, max = …, source = …, sink = …}`: the rank
    /// constraints `RankSet` holds, `same` a list of sets, the others one list each. Ids
    /// must be strings (the store checks they exist).
    static func rankSets(_ t: LuaTable) throws -> [RankSet] {
        let op = "layout"
        func idList(_ list: LuaTable, _ path: String) throws -> [String] {
            var out: [String] = []
            try list.forEachElement { i in
                guard lua_type(list.L, -1) == LUA_TSTRING else {
                    throw FlowError.invalidValue(op, "\(path)[\(i)] must be a node id (a string)")
                }
                out.append(LuaStack(list.L).string(at: -1) ?? "")
            }
            return out
        }
        return try t.optionalTable("ranks") { ranks in
            try ranks.rejectUnknownKeys(Set(RankSet.Kind.allCases.map(\.rawValue) + ["minlen", "constraint", "weight"]))
            var sets: [RankSet] = []
            for kind in RankSet.Kind.allCases {
                try ranks.optionalTable(kind.rawValue) { list in
                    guard kind == .same else { return sets.append(RankSet(kind, try idList(list, "ranks.\(kind.rawValue)"))) }
                    try list.forEachTable { i, set in sets.append(RankSet(.same, try idList(set, "ranks.same[\(i)]"))) }
                }
            }
            return sets
        } ?? []
    }

    /// `ranks = {minlen = {[edge id] = n, …}, constraint = {[edge id] = false, …}, weight =
    /// {[edge id] = n, …}}`: how single edges take part in the layering (`EdgeRank`), one per
    /// edge, in the order of their ids. A length is an integer from 0 to
    /// `EdgeRank.maximumMinLength`, a weight one from 0 to `EdgeRank.maximumWeight`, a
    /// constraint a boolean (the store checks the ids exist).
    static func edgeRanks(_ t: LuaTable) throws -> [EdgeRank] {
        let op = "layout"
        var byEdge: [String: EdgeRank] = [:]
        func integers(_ ranks: LuaTable, _ key: String, upTo top: Int, _ set: (inout EdgeRank, Int) -> Void) throws {
            try ranks.optionalTable(key) { map in
                let (keys, other) = map.stringKeys()
                if other { throw FlowError.invalidValue(op, "ranks.\(key): keys must be edge ids (strings)") }
                for id in keys {
                    guard let n = try? map.optionalInteger(id), n >= 0, n <= top else {
                        throw FlowError.invalidValue(op, "ranks.\(key).\(id) must be an integer from 0 to \(top)")
                    }
                    set(&byEdge[id, default: EdgeRank(id)], Int(n))
                }
            }
        }
        try t.optionalTable("ranks") { ranks in
            try integers(ranks, "minlen", upTo: EdgeRank.maximumMinLength) { $0.minLength = $1 }
            try integers(ranks, "weight", upTo: EdgeRank.maximumWeight) { $0.weight = $1 }
            try ranks.optionalTable("constraint") { map in
                let (keys, other) = map.stringKeys()
                if other { throw FlowError.invalidValue(op, "ranks.constraint: keys must be edge ids (strings)") }
                for id in keys {
                    guard let b = try? map.optionalBoolean(id) else {
                        throw FlowError.invalidValue(op, "ranks.constraint.\(id) must be a boolean")
                    }
                    byEdge[id, default: EdgeRank(id)].constraint = b
                }
            }
        }
        return byEdge.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { byEdge[$0]! }
    }

    /// `store:layout(opts)` → `{crossings=, layers=, width=, height=, reversedEdges=, nodes=, edges=}`.
    static let layout: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let request = try layoutRequest(try args.optionalTable(2), store: box.store)
            let stats = try box.run(args.L) { try box.store.layout(request) }
            args.pushTable(fields: 7)
            args.push(stats.crossings); args.setField("crossings")
            args.push(stats.layers); args.setField("layers")
            args.push(stats.width); args.setField("width")
            args.push(stats.height); args.setField("height")
            args.push(stats.reversedEdges); args.setField("reversedEdges")
            args.push(stats.nodes); args.setField("nodes")
            args.push(stats.edges); args.setField("edges")
            return 1
        }
    }
}
