import FlowCore
import GRDB

/// The data steps of upgrading a workspace file (`WorkspaceSchema.upgrade`), inside its
/// transaction.
enum WorkspaceMigration {
    /// Schema 2: each diagram's look (`diagram.look`, new) is the one of the newest `load`
    /// in its history, where schema 1 kept it; '{}' when there is none (or it does not read).
    static func recoverLooks(_ db: Database) throws {
        let rows = try Row.fetchCursor(
            db, sql: "SELECT diagram, actions FROM batch WHERE actions LIKE ? ORDER BY diagram, n DESC",
            arguments: [LookText.loadPattern])
        var looks: [Int64: String] = [:]
        while let row = try rows.next() {
            guard case .int64(let diagram) = (row[0] as DatabaseValue).storage, looks[diagram] == nil,
                let text = String.fromDatabaseValue(row[1]), let look = LookText.ofLastLoad(inBatch: text)
            else { continue }
            looks[diagram] = look
        }
        for (diagram, look) in looks where look != "{}" {
            try db.execute(sql: "UPDATE diagram SET look = ? WHERE id = ?", arguments: [look, diagram])
        }
    }
}
