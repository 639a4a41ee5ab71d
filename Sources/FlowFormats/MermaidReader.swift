import FlowCore
import FlowLayout

public enum MermaidReader {
    public static func read(_ text: String, operation: String = "load") throws(FlowError) -> FormatImport {
        throw .invalidDocument(operation, "Mermaid: not supported yet")
    }
}

public enum MermaidWriter {
    public static func write(_ doc: FlowDocument<JSONValue>) -> String { "" }
}
