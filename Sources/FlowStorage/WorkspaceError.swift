import FlowCore
import GRDB

/// Turns what SQLite (through GRDB) reports into the `FlowError` a script sees, for the
/// workspace function `operation`.
public enum WorkspaceError {
    /// What the store's call throws when the workspace refused its change batch: the
    /// error without the workspace's operation, so that it is reported as the call the
    /// script made (`addNode: ...`, `moveNode: ...`; FlowLua names an error of no operation
    /// after the function called), saying that the change was undone.
    public static func refused(_ error: FlowError) -> FlowError {
        FlowError(error.code, operation: "", message: "\(error.message) (the change was undone)")
    }


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
