import FlowCore
import FlowStorage

/// The tables of a PostgreSQL workspace: those of the SQLite file (docs/workspaces.md)
/// with a `flow_` prefix, plus `head` (the newest batch number) on each diagram: a write
/// locks its diagram's row (`SELECT ... FOR UPDATE`), so that the database orders the
/// batches of one diagram, one at a time.
enum PGSchema {
    /// The schema this version reads and writes (`flow_meta`, key `schema`). Schema 2 keeps
    /// each diagram's look (`flow_diagram.look`, `LookText`).
    static let version = 2
    /// Serialises the creation of the tables by sessions starting at once.
    static let lockKey = "1181505363"
    /// The channel each committed batch is announced on (payload: the diagram's id).
    static let channel = "flowscript"

    static let statements = [
        "CREATE TABLE IF NOT EXISTS flow_meta (key text PRIMARY KEY, value text NOT NULL)",
        """
        CREATE TABLE IF NOT EXISTS flow_diagram (
            id bigserial PRIMARY KEY, name text NOT NULL UNIQUE, created double precision NOT NULL,
            classes text NOT NULL DEFAULT '{}', head bigint NOT NULL DEFAULT 0, look text NOT NULL DEFAULT '{}')
        """,
        """
        CREATE TABLE IF NOT EXISTS flow_node (
            diagram bigint NOT NULL REFERENCES flow_diagram(id) ON DELETE CASCADE,
            id text NOT NULL, seq bigint NOT NULL, body text NOT NULL, PRIMARY KEY (diagram, id))
        """,
        """
        CREATE TABLE IF NOT EXISTS flow_edge (
            diagram bigint NOT NULL REFERENCES flow_diagram(id) ON DELETE CASCADE,
            id text NOT NULL, seq bigint NOT NULL, body text NOT NULL, PRIMARY KEY (diagram, id))
        """,
        """
        CREATE TABLE IF NOT EXISTS flow_batch (
            diagram bigint NOT NULL REFERENCES flow_diagram(id) ON DELETE CASCADE,
            n bigint NOT NULL, time double precision NOT NULL, name text NOT NULL, summary text NOT NULL,
            actions text NOT NULL, PRIMARY KEY (diagram, n))
        """,
        "INSERT INTO flow_meta VALUES ('schema', '\(version)') ON CONFLICT (key) DO NOTHING",
    ]

    /// What upgrades a database of schema 1 (its tables made by the statements of then,
    /// which `CREATE TABLE IF NOT EXISTS` kept): the look's column, then each diagram's look
    /// taken from the newest `load` in its history, where schema 1 kept it.
    static func upgradeFrom1(_ db: PGConnection) throws(FlowError) {
        try db.query("ALTER TABLE flow_diagram ADD COLUMN IF NOT EXISTS look text NOT NULL DEFAULT '{}'", [], "workspace")
        let rows = try db.query(
            "SELECT DISTINCT ON (diagram) diagram, actions FROM flow_batch WHERE actions LIKE $1 ORDER BY diagram, n DESC",
            [LookText.loadPattern], "workspace")
        for r in rows {
            guard let id = r[0], let text = r[1], let look = LookText.ofLastLoad(inBatch: text), look != "{}" else { continue }
            try db.query("UPDATE flow_diagram SET look = $1 WHERE id = $2", [look, id], "workspace")
        }
        try db.query("UPDATE flow_meta SET value = '2' WHERE key = 'schema'", [], "workspace")
    }

    /// The columns of the tables, `table.column type` (all NOT NULL), as `statements` make
    /// them. Reading relies on them: tables another program made under these names
    /// (CREATE TABLE IF NOT EXISTS keeps them) with other types or NULLs are refused.
    static let columns = [
        "flow_batch.diagram bigint", "flow_batch.n bigint", "flow_batch.time double precision", "flow_batch.name text",
        "flow_batch.summary text", "flow_batch.actions text",
        "flow_diagram.id bigint", "flow_diagram.name text", "flow_diagram.created double precision",
        "flow_diagram.classes text", "flow_diagram.head bigint", "flow_diagram.look text",
        "flow_edge.diagram bigint", "flow_edge.id text", "flow_edge.seq bigint", "flow_edge.body text",
        "flow_meta.key text", "flow_meta.value text",
        "flow_node.diagram bigint", "flow_node.id text", "flow_node.seq bigint", "flow_node.body text",
    ]

    /// The first column of the workspace's tables that is not as `columns` says, or nil.
    static func differences(_ db: PGConnection) throws(FlowError) -> String? {
        let rows = try db.query(
            """
            SELECT table_name || '.' || column_name || ' ' || data_type || (CASE WHEN is_nullable = 'YES' THEN ' NULL' ELSE '' END)
            FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name IN ('flow_batch', 'flow_diagram', 'flow_edge', 'flow_meta', 'flow_node')
            ORDER BY table_name, ordinal_position
            """, [], "workspace")
        let found = rows.map { $0[0] ?? "" }
        if let odd = found.first(where: { !columns.contains($0) }) { return "column \(odd)" }
        if let missing = columns.first(where: { !found.contains($0) }) { return "the missing column \(missing)" }
        return nil
    }

    /// Creates the tables when missing and checks the schema, in one transaction.
    static func prepare(_ db: PGConnection, display: String) throws(FlowError) {
        // CREATE TABLE IF NOT EXISTS notices ("already exists, skipping") are not news
        try db.query("SET client_min_messages = warning", [], "workspace")
        try db.query("BEGIN", [], "workspace")
        do throws(FlowError) {
            try db.query("SELECT pg_advisory_xact_lock(\(lockKey))", [], "workspace")
            for s in statements { try db.query(s, [], "workspace") }
            let v = try db.query("SELECT value FROM flow_meta WHERE key = 'schema'", [], "workspace").first?[0].flatMap { Int($0) } ?? 0
            guard v <= version else {
                throw FlowError(
                    .invalidDocument, operation: "workspace",
                    message: "'\(display)' was written by a newer FlowScript (workspace schema \(v); this version reads up to \(version))")
            }
            if v == 1 { try upgradeFrom1(db) }
            if let odd = try differences(db) {
                throw FlowError(.invalidDocument, operation: "workspace", message: "'\(display)' is not a workspace: \(odd) differs from a workspace's")
            }
            try db.query("COMMIT", [], "workspace")
        } catch {
            _ = try? db.query("ROLLBACK", [], "workspace")
            throw error
        }
        try db.query("LISTEN \(channel)", [], "workspace")
    }
}
