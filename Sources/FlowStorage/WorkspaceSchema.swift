import FlowCore
import GRDB

/// The tables of a workspace. Nodes, edges and the history belong to their diagram and go
/// with it (foreign keys, ON DELETE CASCADE). They are clustered by their keys (WITHOUT
/// ROWID): a batch writes one B-tree per table it touches, and no index besides (opening
/// sorts a diagram's rows by `seq`).
///
/// A new file is made as the first schema's tables and then every migration, exactly as an
/// old file is upgraded, so that the two have the same schema text (which `differences`
/// compares).
enum WorkspaceSchema {
    /// 'FlWS': marks the file as a FlowScript workspace (`PRAGMA application_id`).
    static let applicationID: Int32 = 0x466C_5753
    /// The schema this version reads and writes (`PRAGMA user_version`).
    static var version: Int { 1 + migrations.count }

    /// The tables of schema 1, as FlowScript wrote them (never to change: files hold it).
    static let tables = """
        CREATE TABLE diagram (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            created REAL NOT NULL,
            classes TEXT NOT NULL DEFAULT '{}'
        );
        CREATE TABLE node (
            diagram INTEGER NOT NULL REFERENCES diagram(id) ON DELETE CASCADE,
            id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            body TEXT NOT NULL,
            PRIMARY KEY (diagram, id)
        ) WITHOUT ROWID;
        CREATE TABLE edge (
            diagram INTEGER NOT NULL REFERENCES diagram(id) ON DELETE CASCADE,
            id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            body TEXT NOT NULL,
            PRIMARY KEY (diagram, id)
        ) WITHOUT ROWID;
        CREATE TABLE batch (
            diagram INTEGER NOT NULL REFERENCES diagram(id) ON DELETE CASCADE,
            n INTEGER NOT NULL,
            time REAL NOT NULL,
            name TEXT NOT NULL,
            summary TEXT NOT NULL,
            actions TEXT NOT NULL,
            PRIMARY KEY (diagram, n)
        ) WITHOUT ROWID;
        """

    /// What turns schema n into n + 1 (`migrations[n - 1]`): 2 keeps the diagram's look
    /// (`DiagramLook`: title, rank sets, spacing, direction, font) in `diagram.look`.
    static let migrations = [
        "ALTER TABLE diagram ADD COLUMN look TEXT NOT NULL DEFAULT '{}'"
    ]

    /// Makes an empty database a workspace, upgrades one of an older schema, or checks that
    /// a database is a workspace this version can read. Returns the file's schema: this
    /// version's, or an older one when the file was opened `readOnly` (not upgraded; the
    /// reader leaves out what it lacks).
    static func prepare(_ db: Database, path: String, readOnly: Bool) throws -> Int {
        let app = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        let user = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        let tableCount = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
        if app == 0 && user == 0 && tableCount == 0 && !readOnly {
            try db.inTransaction(.immediate) {
                try db.execute(sql: tables)
                for m in migrations { try db.execute(sql: m) }
                try db.execute(sql: "PRAGMA application_id = \(applicationID)")
                try db.execute(sql: "PRAGMA user_version = \(version)")
                return .commit
            }
            return version
        }
        guard app == applicationID else {
            throw FlowError(.invalidDocument, operation: "workspace", message: "'\(path)' is not a workspace (an SQLite database of another application)")
        }
        guard user <= version else {
            throw FlowError(
                .invalidDocument, operation: "workspace",
                message: "'\(path)' was written by a newer FlowScript (workspace schema \(user); this version reads up to \(version))")
        }
        guard user >= 1 else {
            throw FlowError(.invalidDocument, operation: "workspace", message: "'\(path)' is not a workspace (its schema number is \(user))")
        }
        if user < version && !readOnly {
            try upgrade(db, path: path)
            return version
        }
        if let odd = try differences(db, schema: user) {
            throw FlowError(.invalidDocument, operation: "workspace", message: "'\(path)' is not a workspace: \(odd) differs from a workspace's")
        }
        return user
    }

    /// Upgrades the file to this version's schema in one immediate transaction (another
    /// process may upgrade it first: the number is read again inside it), after checking
    /// that it is exactly a workspace of its schema.
    private static func upgrade(_ db: Database, path: String) throws {
        try db.inTransaction(.immediate) {
            let user = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
            if let odd = try differences(db, schema: user) {
                throw FlowError(.invalidDocument, operation: "workspace", message: "'\(path)' is not a workspace: \(odd) differs from a workspace's")
            }
            for n in user..<version {
                try db.execute(sql: migrations[n - 1])
                if n == 1 { try WorkspaceMigration.recoverLooks(db) }
            }
            try db.execute(sql: "PRAGMA user_version = \(version)")
            return .commit
        }
    }

    /// The first object of the file's schema (table, index, trigger, view) that is not
    /// exactly one of a workspace of schema `schema`, or nil. Reading relies on the tables'
    /// constraints (NOT NULL, keys), and a trigger would run another program's SQL on every
    /// write.
    static func differences(_ db: Database, schema: Int) throws -> String? {
        guard let all = expected, schema >= 1, schema <= all.count else {
            throw FlowError(.invalidState, operation: "workspace", message: "could not make a scratch database to compare the schema with")
        }
        let expected = all[schema - 1]
        let found = try objects(db)
        func show(_ object: [String?]) -> String { "\(object[0] ?? "object") '\(object[1] ?? "")'" }
        if let odd = found.first(where: { !expected.contains($0) }) { return show(odd) }
        if let missing = expected.first(where: { !found.contains($0) }) { return "the missing " + show(missing) }
        return nil
    }

    /// The objects of a schema: type, name and SQL text of each, in order.
    private static func objects(_ db: Database) throws -> [[String?]] {
        try Row.fetchAll(db, sql: "SELECT type, name, sql FROM sqlite_master ORDER BY type, name").map { row in
            (0..<3).map { String.fromDatabaseValue(row[$0]) }
        }
    }

    /// The objects of each schema (index 0: schema 1), read once from a scratch database in
    /// memory that `tables` and the migrations make in turn (nil when it could not be
    /// made). Its connection is kept (`RetiredConnections`), not released: releasing it
    /// would leave work on another thread.
    private static let expected: [[[String?]]]? = {
        var configuration = Configuration()
        let released = RetiredConnections.watch(&configuration)
        guard let scratch = try? DatabaseQueue(configuration: configuration) else { return nil }
        defer {
            try? scratch.close()
            RetiredConnections.retire(scratch, released)
        }
        return try? scratch.inDatabase { db in
            try db.execute(sql: tables)
            var all = [try objects(db)]
            for m in migrations {
                try db.execute(sql: m)
                all.append(try objects(db))
            }
            return all
        }
    }()
}
