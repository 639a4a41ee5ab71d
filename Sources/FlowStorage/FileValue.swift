import FlowCore
import GRDB

/// The values a workspace reads from its file, checked. SQLite keeps any value in any
/// column (the tables are not STRICT), so a file another program wrote or damaged may hold
/// text where a number belongs, a number past 2^63 (a REAL), or bytes that are not UTF-8.
/// GRDB's typed row subscripts trap on those; these readers throw a `FlowError` of the
/// workspace function `operation` naming the diagram and the value instead
/// (`diagram 'd' is damaged: its batch number 'x' is not an integer`).
struct FileValue {
    let operation: String
    let diagram: String

    init(_ operation: String, diagram: String) {
        self.operation = operation
        self.diagram = diagram
    }

    func damaged(_ what: String) -> FlowError {
        FlowError(.invalidDocument, operation: operation, message: "diagram '\(diagram)' is damaged: \(what)")
    }

    /// An integer (a batch or order number): only an INTEGER value is one.
    func integer(_ value: DatabaseValue, _ what: String) throws(FlowError) -> Int {
        guard case .int64(let i) = value.storage else {
            throw damaged("its \(what) \(Self.show(value)) is not an integer")
        }
        return Int(i)
    }

    /// A number (a time).
    func real(_ value: DatabaseValue, _ what: String) throws(FlowError) -> Double {
        switch value.storage {
        case .int64(let i): return Double(i)
        case .double(let d): return d
        default: throw damaged("its \(what) \(Self.show(value)) is not a number")
        }
    }

    /// A text (JSON, a name): TEXT, or a BLOB of UTF-8 (SQLite converts between the two).
    func text(_ value: DatabaseValue, _ what: String) throws(FlowError) -> String {
        if let s = String.fromDatabaseValue(value) { return s }
        throw damaged("its \(what) \(Self.show(value)) is not text")
    }

    /// A value as an error message shows it (texts cut at 40 characters).
    static func show(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: return "NULL"
        case .int64(let i): return "\(i)"
        case .double(let d): return "\(d)"
        case .string(let s): return s.count > 40 ? "'\(s.prefix(40))…'" : "'\(s)'"
        case .blob(let b): return "(\(b.count) bytes)"
        }
    }
}
