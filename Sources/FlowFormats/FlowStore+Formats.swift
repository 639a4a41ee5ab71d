import FlowCore
import FlowLayout

extension FlowStore where Data == JSONValue {
    /// Replaces the whole store with a diagram given as text in `format`, like `load(json:)`:
    /// bad text throws and changes nothing; the history is cleared. A DOT or Mermaid graph
    /// whose nodes do not all have positions is laid out (layered, in the direction the text
    /// names) before it replaces the content. Returns the warnings: what the reader did not
    /// map, then the repairs `load` made.
    @discardableResult
    public func load(_ text: String, format: DiagramFormat, operation: String = "load") throws(FlowError) -> [String] {
        let imported: FormatImport
        switch format {
        case .json: return try load(json: text)
        case .dot: imported = try DOTReader.read(text, operation: operation)
        case .mermaid: imported = try MermaidReader.read(text, operation: operation)
        }
        var document = imported.document
        var warnings = imported.warnings
        if imported.needsLayout {
            let scratch = FlowStore<JSONValue>(configuration: configuration)
            warnings += try scratch.load(document)
            var request = LayoutRequest()
            request.options.direction = imported.direction
            _ = try scratch.layout(request)
            document = scratch.document()
            document.classes = imported.document.classes
        }
        warnings += try load(document)
        return warnings
    }

    /// The diagram as text in `format` (`json`: `export()`).
    public func text(_ format: DiagramFormat) throws(FlowError) -> String {
        switch format {
        case .json: return try export()
        case .dot: return DOTWriter.write(document())
        case .mermaid: return MermaidWriter.write(document())
        }
    }
}
