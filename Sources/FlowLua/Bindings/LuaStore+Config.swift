import CLua
import CLuaShims
import FlowCore

// lua-api §1: configuration (`flow.newStore(config)`, `store:configure{}`, `store.configuration`).

enum LuaConfig {
    static let keys: Set<String> = [
        "defaultEdgePathType", "snapToGrid", "gridSize", "minZoom", "maxZoom", "panEnabled",
        "zoomEnabled", "selectionEnabled", "multiSelectionEnabled", "undo", "handleHitRadius",
        "connectionRadius", "edgeHitTolerance", "edgeStyle", "backgroundStyle", "autoHandles", "classes",
    ]

    /// Applies the fields of `t` to `config` (and the history switch to `undo`); returns the
    /// style sheet when `classes` is given. Unknown keys raise; nothing is applied when a
    /// field is invalid. Errors name `op` (`configure`, or `newStore` for the table of
    /// `flow.newStore`).
    @discardableResult
    static func apply(_ t: LuaTable, to config: inout FlowConfiguration, undo: inout Bool, op: String) throws -> [String: FlowClass]? {
        try t.rejectUnknownKeys(keys)
        var c = config
        if let v = try t.optionalEnumValue("defaultEdgePathType", EdgePathType.self, in: op) { c.defaultEdgePathType = v }
        if let v = try t.optionalBoolean("snapToGrid") { c.snapToGrid = v }
        if let v = try t.optionalNumber("gridSize") { c.gridSize = try positive(v, "gridSize", op) }
        let minZoom = try t.optionalNumber("minZoom"), maxZoom = try t.optionalNumber("maxZoom")
        if let v = minZoom { c.minZoom = try finite(v, "minZoom", op) }
        if let v = maxZoom { c.maxZoom = try finite(v, "maxZoom", op) }
        if minZoom != nil, let v = maxZoom { c.maxZoom = v }  // after minZoom moved up
        if let v = try t.optionalBoolean("panEnabled") { c.panEnabled = v }
        if let v = try t.optionalBoolean("zoomEnabled") { c.zoomEnabled = v }
        if let v = try t.optionalBoolean("selectionEnabled") { c.selectionEnabled = v }
        if let v = try t.optionalBoolean("multiSelectionEnabled") { c.multiSelectionEnabled = v }
        if let v = try t.optionalNumber("handleHitRadius") { c.handleHitRadius = try notNegative(v, "handleHitRadius", op) }
        if let v = try t.optionalNumber("connectionRadius") { c.connectionRadius = try notNegative(v, "connectionRadius", op) }
        if let v = try t.optionalNumber("edgeHitTolerance") { c.edgeHitTolerance = try notNegative(v, "edgeHitTolerance", op) }
        if let v = try t.optionalBoolean("autoHandles") { c.autoHandles = v }
        try t.optionalTable("edgeStyle") { s in
            try s.rejectUnknownKeys([
                "strokeColor", "selectedStrokeColor", "lineWidth", "selectedLineWidth", "dashPattern",
                "animatedDashPattern",
            ])
            if let v = try s.optionalString("strokeColor") { c.edgeStyle.strokeColor = v }
            if let v = try s.optionalString("selectedStrokeColor") { c.edgeStyle.selectedStrokeColor = v }
            if let v = try s.optionalNumber("lineWidth") { c.edgeStyle.lineWidth = try notNegative(v, "edgeStyle.lineWidth", op) }
            if let v = try s.optionalNumber("selectedLineWidth") {
                c.edgeStyle.selectedLineWidth = try notNegative(v, "edgeStyle.selectedLineWidth", op)
            }
            if let v = try numbers(s, "dashPattern", op) { c.edgeStyle.dashPattern = v }
            if let v = try numbers(s, "animatedDashPattern", op) { c.edgeStyle.animatedDashPattern = v }
        }
        try t.optionalTable("backgroundStyle") { s in
            try s.rejectUnknownKeys(["pattern", "color", "spacing", "lineWidth", "dotRadius"])
            if let v = try s.optionalEnumValue("pattern", BackgroundPattern.self, in: op) { c.backgroundStyle.pattern = v }
            if let v = try s.optionalString("color") { c.backgroundStyle.color = v }
            if let v = try s.optionalNumber("spacing") { c.backgroundStyle.spacing = try positive(v, "backgroundStyle.spacing", op) }
            if let v = try s.optionalNumber("lineWidth") { c.backgroundStyle.lineWidth = try notNegative(v, "backgroundStyle.lineWidth", op) }
            if let v = try s.optionalNumber("dotRadius") { c.backgroundStyle.dotRadius = try notNegative(v, "backgroundStyle.dotRadius", op) }
        }
        if let v = try t.optionalBoolean("undo") { undo = v }
        let classes = try t.optionalTable("classes") { try LuaStyles.sheet($0, op: op) }
        if let classes {
            for name in classes.keys.sorted() { try FlowClass.validateName(name, op, "classes") }
        }
        config = c
        return classes
    }

    static func finite(_ v: Double, _ name: String, _ op: String) throws -> Double {
        guard v.isFinite else { throw FlowError.invalidValue(op, "\(name) must be a finite number") }
        return v
    }

    static func positive(_ v: Double, _ name: String, _ op: String) throws -> Double {
        guard v.isFinite, v > 0 else { throw FlowError.invalidValue(op, "\(name) must be a positive number") }
        return v
    }

    static func notNegative(_ v: Double, _ name: String, _ op: String) throws -> Double {
        guard v.isFinite, v >= 0 else {
            throw FlowError.invalidValue(op, "\(name) must be a finite number that is not negative")
        }
        return v
    }

    /// An array of numbers that are finite and not negative.
    static func numbers(_ t: LuaTable, _ key: String, _ op: String) throws -> [Double]? {
        try LuaStyles.numbers(t, key) { v, path in try notNegative(v, path, op) }
    }

    static func push(_ args: LuaArgs, _ c: FlowConfiguration, undo: Bool, classes: [String: FlowClass]) {
        args.pushTable(fields: 18)
        args.push(c.defaultEdgePathType.rawValue); args.setField("defaultEdgePathType")
        args.push(c.snapToGrid); args.setField("snapToGrid")
        args.push(c.gridSize); args.setField("gridSize")
        args.push(c.minZoom); args.setField("minZoom")
        args.push(c.maxZoom); args.setField("maxZoom")
        args.push(c.panEnabled); args.setField("panEnabled")
        args.push(c.zoomEnabled); args.setField("zoomEnabled")
        args.push(c.selectionEnabled); args.setField("selectionEnabled")
        args.push(c.multiSelectionEnabled); args.setField("multiSelectionEnabled")
        args.push(undo); args.setField("undo")
        args.push(c.handleHitRadius); args.setField("handleHitRadius")
        args.push(c.connectionRadius); args.setField("connectionRadius")
        args.push(c.edgeHitTolerance); args.setField("edgeHitTolerance")
        args.push(c.autoHandles); args.setField("autoHandles")
        let e = c.edgeStyle
        args.pushTable(fields: 6)
        args.push(e.strokeColor); args.setField("strokeColor")
        args.push(e.selectedStrokeColor); args.setField("selectedStrokeColor")
        args.push(e.lineWidth); args.setField("lineWidth")
        args.push(e.selectedLineWidth); args.setField("selectedLineWidth")
        pushNumbers(args, e.dashPattern); args.setField("dashPattern")
        pushNumbers(args, e.animatedDashPattern); args.setField("animatedDashPattern")
        args.setField("edgeStyle")
        let b = c.backgroundStyle
        args.pushTable(fields: 5)
        args.push(b.pattern.rawValue); args.setField("pattern")
        args.push(b.color); args.setField("color")
        args.push(b.spacing); args.setField("spacing")
        args.push(b.lineWidth); args.setField("lineWidth")
        args.push(b.dotRadius); args.setField("dotRadius")
        args.setField("backgroundStyle")
        LuaStyles.push(LuaStack(args.L), sheet: classes)
        args.setField("classes")
    }

    static func pushNumbers(_ args: LuaArgs, _ v: [Double]) {
        args.pushTable(array: Int32(v.count))
        for (i, x) in v.enumerated() {
            args.push(x)
            args.setIndex(i + 1)
        }
    }
}

extension FlowStoreBinding {
    static var configMethods: [LuaMethod] { [LuaMethod("configure", configure)] }
    static var configGetters: [LuaMethod] { [LuaMethod("configuration", configuration)] }

    /// Returns whether anything changed.
    static let configure: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let t = try args.table(2)
            var c = box.store.configuration
            var undo = box.store.isUndoEnabled
            let classes = try LuaConfig.apply(t, to: &c, undo: &undo, op: "configure")
            var changed = c != box.store.configuration || undo != box.store.isUndoEnabled
            if undo != box.store.isUndoEnabled && box.store.isInOperation {
                // D23: turning undo off clears the history, which no rollback could restore
                throw FlowError.invalidState("configure", "undo cannot be turned on or off inside a transaction or a callback")
            }
            if let classes {
                // checked first: a sheet that raises leaves the rest unapplied too
                changed = try box.run(args.L) { try box.store.setClassStyles(classes) } || changed
            }
            if c != box.store.configuration { box.store.configuration = c }
            if undo != box.store.isUndoEnabled { box.store.isUndoEnabled = undo }
            args.push(changed)
            return 1
        }
    }

    static let configuration: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try args.object(1, storeClass)
            LuaConfig.push(args, box.store.configuration, undo: box.store.isUndoEnabled, classes: box.store.classStyles)
            return 1
        }
    }
}
