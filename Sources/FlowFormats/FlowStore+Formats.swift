import FlowCore
import FlowLayout

extension FlowStore where Data == JSONValue {
    /// Replaces the whole store with a diagram given as text in `format`, like `load(json:)`:
    /// bad text throws and changes nothing; the history is cleared. A DOT or Mermaid graph
    /// whose nodes do not all have positions is laid out (layered, in the direction the text
    /// names) before it replaces the content. Returns the warnings: what the reader did not
    /// map, then the repairs `load` made.
    ///
    /// `limits` bounds what DOT and Mermaid text may make (docs/formats.md, "Limits").
    /// `keepingZoom` (for a new store, as `flow.decode` makes) widens the zoom limits of the
    /// configuration to the document's zoom, so an exported document reads back as it was
    /// saved; otherwise the zoom is clamped into the limits, as the calls clamp it.
    @discardableResult
    public func load(
        _ text: String, format: DiagramFormat, operation: String = "load",
        limits: FormatLimits = FormatLimits(), keepingZoom: Bool = false
    ) throws(FlowError) -> [String] {
        do throws(FlowError) {
            return try loadText(text, format: format, operation: operation, limits: limits, keepingZoom: keepingZoom)
        } catch where error.operation == "load" {
            // what the document holds is checked by `load(_:)`: the error names the caller's call
            throw error.reported(as: operation)
        }
    }

    private func loadText(
        _ text: String, format: DiagramFormat, operation: String, limits: FormatLimits, keepingZoom: Bool
    ) throws(FlowError) -> [String] {
        let imported: FormatImport
        // the store's own edge limit (a sandbox's) holds while a statement expands
        let limits = limits.keeping(self.limits)
        switch format {
        case .json:
            let document = try FlowDocument<JSONValue>.decode(text, operation: operation)
            if keepingZoom { widenZoomLimits(to: document.viewport.zoom) }
            return try load(document)
        case .dot: imported = try DOTReader.read(text, operation: operation, limits: limits)
        case .mermaid: imported = try MermaidReader.read(text, operation: operation, limits: limits)
        }
        var document = imported.document
        var warnings = imported.warnings
        if imported.needsLayout {
            let scratch = FlowStore<JSONValue>(configuration: configuration)
            // the layout's memory counts against this store's budget (a sandbox's cap)
            scratch.memoryBudget = memoryBudget
            // and its counts before the layout, not after
            scratch.limits = self.limits
            warnings += try scratch.load(document)
            try WorkLimit.check(operation)
            // laid out as a later `store:layout{}` lays out the document, with the reader's
            // spacing (a DOT file's, or Graphviz's defaults when it gives none)
            var look = document.look
            look.nodeSpacing = imported.nodeSpacing
            look.layerSpacing = imported.layerSpacing
            var request = LayoutRequest(options: LayoutOptions(diagram: look, direction: imported.direction))
            // the limit the readers held the text to (`BendPointFloor`)
            request.maximumBendPoints = limits.bendPoints
            _ = try scratch.layout(request)
            document = scratch.document()
            document.classes = imported.document.classes
            try WorkLimit.check(operation)
        }
        warnings += try load(document)
        return warnings
    }

    /// Makes `zoom` (when finite and positive) lie within the configuration's zoom limits.
    private func widenZoomLimits(to zoom: Double) {
        guard zoom.isFinite, zoom > 0 else { return }
        guard zoom < configuration.minZoom || zoom > configuration.maxZoom else { return }
        var c = configuration
        c.minZoom = min(c.minZoom, zoom)
        c.maxZoom = max(c.maxZoom, zoom)
        configuration = c
    }

    /// The diagram as text in `format` (`json`: `export()`). Past the current `WorkLimit`
    /// it throws `WorkLimit.stoppedError`: the JSON writer looks at the limit as it writes,
    /// the DOT and Mermaid writers (linear) before and after. A store the DOT or Mermaid
    /// reader could not read back (groups nested past its limit, a string or line longer
    /// than it takes) throws `invalidState` naming the limit.
    public func text(_ format: DiagramFormat) throws(FlowError) -> String {
        let operation = "encode"
        switch format {
        case .json: return try export()
        case .dot, .mermaid:
            let document = document()
            try WorkLimit.check(operation)
            // what the reader would refuse is refused here (WrittenTextLimits)
            try WrittenTextLimits.checkNesting(document, format, operation: operation)
            if format == .dot { try WrittenTextLimits.checkDOTIDs(document, operation: operation) }
            let text = format == .dot ? DOTWriter.write(document) : MermaidWriter.write(document)
            try WorkLimit.check(operation)
            if format == .dot {
                try WrittenTextLimits.checkDOTStrings(text, operation: operation)
            } else {
                try WrittenTextLimits.checkMermaidLines(text, operation: operation)
            }
            return text
        }
    }
}
