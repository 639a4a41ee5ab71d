import FlowCore
import GRDB

/// Turns what SQLite (through GRDB) reports into the `FlowError` a script sees, for the
/// workspace function `operation`.
enum WorkspaceError {
    static func from(_ error: any Error, _ operation: String, path: String) -> FlowError {
        if let e = error as? FlowError { return e }
        guard let db = error as? DatabaseError else {
            return FlowError(.io, operation: operation, message: "\(error)")
        }
        let detail = db.message ?? "SQLite error \(db.resultCode.rawValue)"
        switch db.resultCode {
        case .SQLITE_NOTADB:
            return FlowError(.invalidDocument, operation: operation, message: "'\(path)' is not a workspace (not an SQLite database)")
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return FlowError(.io, operation: operation, message: "the workspace '\(path)' is locked by another connection; nothing was written")
        case .SQLITE_READONLY:
            return FlowError(.io, operation: operation, message: "the workspace '\(path)' is read-only; nothing was written")
        case .SQLITE_FULL:
            return FlowError(.io, operation: operation, message: "the disk (or the workspace's size limit) is full; nothing was written")
        case .SQLITE_CANTOPEN:
            return FlowError(.io, operation: operation, message: "cannot open the workspace '\(path)' (\(detail))")
        default:
            return FlowError(.io, operation: operation, message: "workspace '\(path)': \(detail)")
        }
    }
}
