import FlowCore

/// The tables of a PostgreSQL workspace: those of the SQLite file (docs/workspaces.md)
/// with a `flow_` prefix, plus `head` (the newest batch number) on each diagram: a write
/// locks its diagram's row (`SELECT ... FOR UPDATE`), so that the database orders the
/// batches of one diagram, one at a time.
enum PGSchema {
    /// The schema this version reads and writes (`flow_meta`, key `schema`).
    static let version = 1
    /// Serialises the creation of the tables by sessions starting at once.
    static let lockKey = "1181505363"
    /// The channel each committed batch is announced on (payload: the diagram's id).
    static let channel = "flowscript"

    static let statements = [
        "CREATE TABLE IF NOT EXISTS flow_meta (key text PRIMARY KEY, value text NOT NULL)",
        """
        CREATE TABLE IF NOT EXISTS flow_diagram (
            id bigserial PRIMARY KEY, name text NOT NULL UNIQUE, created double precision NOT NULL,
            classes text NOT NULL DEFAULT '{}', head bigint NOT NULL DEFAULT 0)
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
        "INSERT INTO flow_meta VALUES ('schema', '1') ON CONFLICT (key) DO NOTHING",
    ]

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
            try db.query("COMMIT", [], "workspace")
        } catch {
            _ = try? db.query("ROLLBACK", [], "workspace")
            throw error
        }
        try db.query("LISTEN \(channel)", [], "workspace")
    }
}
