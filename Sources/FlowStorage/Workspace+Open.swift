import FlowCore
import Foundation
import GRDB

/// One change batch in a diagram's history (`Workspace.versions`).
public struct WorkspaceVersion: Equatable, Sendable {
    /// The batch's number: the diagram after it is version `number`.
    public var number: Int
    /// When it was written, in seconds since 1970.
    public var time: Double
    public var name: String
    public var summary: String

    public init(number: Int, time: Double, name: String, summary: String) {
        self.number = number
        self.time = time
        self.name = name
        self.summary = summary
    }
}

extension Workspace {
    /// Creates diagram `name` and binds `store` to it; what the store holds already is
    /// written as its first batch ("Create").
    public func create(_ name: String, into store: Store) throws(FlowError) {
        try Self.checkName(name, "create")
        let initial = Self.initialBatch(of: store)
        let created = Date().timeIntervalSince1970
        let id = try transaction("create") { db -> Int64 in
            if try Int64.fetchOne(db, sql: "SELECT id FROM diagram WHERE name = ?", arguments: [name]) != nil {
                throw FlowError(.invalidValue, operation: "create", message: "a diagram named '\(name)' exists")
            }
            try db.execute(sql: "INSERT INTO diagram (name, created) VALUES (?, ?)", arguments: [name, created])
            let id = db.lastInsertedRowID
            if let initial { try DiagramWriter.write(initial, number: 1, diagram: id, store: store, db) }
            return id
        }
        bind(store, DiagramWriter(workspace: self, diagram: id, created: created, name: name, applied: initial == nil ? 0 : 1))
    }

    /// Loads diagram `name` into `store` and binds the store to it.
    public func open(_ name: String, into store: Store) throws(FlowError) {
        if isBound(name) {
            throw FlowError(.invalidState, operation: "open", message: "diagram '\(name)' is already open (bound to a store)")
        }
        try read(name, into: store, "open")
    }

    /// Loads diagram `name` afresh into the store bound to it, from what the file holds now
    /// (after another process, or another Workspace of this one, wrote the diagram; `sync`
    /// applies their batches instead). The store's undo history starts empty, as after
    /// `open`. When the diagram cannot be read, the store is left as it was, still bound.
    public func reload(_ name: String) throws(FlowError) {
        guard let writer = bound[name], let store = writer.store else {
            throw FlowError(.invalidState, operation: "reload", message: "diagram '\(name)' is not open (bound to a store)")
        }
        let recorder = store.actionRecorder
        bound.removeValue(forKey: name)
        do {
            try read(name, into: store, "reload")
            writer.detach()
        } catch {
            store.actionRecorder = recorder
            bound[name] = writer
            throw error
        }
    }

    /// Reads diagram `name` from the file into `store` and binds the store to it (`open`
    /// and `reload`).
    private func read(_ name: String, into store: Store, _ operation: String) throws(FlowError) {
        let (id, doc, dense, next, created) = try snapshot(operation) { db in
            let id = try diagramID(db, name, operation)
            let file = FileValue(operation, diagram: name)
            let (nodes, nodesDense) = try Self.bodies("node", id, file, db)
            let (edges, edgesDense) = try Self.bodies("edge", id, file, db)
            // a file of schema 1 opened read-only has no look (`WorkspaceSchema`)
            let look = schema >= 2 ? "look" : "'{}'"
            let row = try Row.fetchOne(
                db, sql: "SELECT classes, created, (SELECT max(n) FROM batch WHERE diagram = ?), \(look) FROM diagram WHERE id = ?",
                arguments: [id, id])
            guard let row else { throw FlowError(.invalidValue, operation: operation, message: "no diagram named '\(name)' in the workspace") }
            let classes = try file.text(row[0], "style sheet")
            let created = try file.real(row[1], "creation time")
            let last = (row[2] as DatabaseValue).isNull ? 0 : try file.integer(row[2], "newest batch number")
            // A file from elsewhere may number its batches up to Int64.max: no next number.
            guard last < DiagramWriter.lastNumber else {
                throw FlowError(
                    .invalidDocument, operation: operation,
                    message: "diagram '\(name)' has batch number \(last): no number is left for another change")
            }
            let text = "{\"edges\":[\(edges)],\"nodes\":[\(nodes)],\"version\":1,\"viewport\":{\"offset\":[0,0],\"zoom\":1}}"
            var doc = try FlowDocument<JSONValue>.decode(text, operation: operation)
            doc.classes = try FlowDocument<JSONValue>.classes(json: JSONValue.parse(classes, operation: operation), operation: operation)
            doc.look = try LookText.look(try file.text(row[3], "look"), operation)
            return (id, doc, nodesDense && edgesDense, last + 1, created)
        }
        try load(doc, into: store)
        let writer = DiagramWriter(workspace: self, diagram: id, created: created, name: name, applied: next - 1)
        writer.store = store
        if !dense && !options.readOnly {
            // Rows whose order numbers have gaps (after removals): the store numbers them
            // afresh, and a batch says so, so that the history replays to the same order.
            // (A store of a read-only workspace writes nothing, so it needs no such batch.)
            if let e = writer.write(FlowBatch(name: "Reopen", actions: [.load(Self.content(of: store))])) { throw e.reported(as: operation) }
        }
        bind(store, writer)
    }

    /// Creates diagram `newName` as a copy of `name` (at `version`, else as it is now),
    /// with the history up to there, and binds `store` to it.
    public func fork(_ name: String, at version: Int?, as newName: String, into store: Store) throws(FlowError) {
        try Self.checkName(newName, "fork")
        var upTo = version ?? 0
        if version == nil {
            upTo = try database("fork") { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM batch WHERE diagram = ?", arguments: [try diagramID(db, name, "fork")]) ?? 0
            }
        }
        try store.replayHistory(try history(name, upTo: upTo, "fork"))
        let created = Date().timeIntervalSince1970
        let id = try transaction("fork") { db -> Int64 in
            let old = try diagramID(db, name, "fork")
            if try Int64.fetchOne(db, sql: "SELECT id FROM diagram WHERE name = ?", arguments: [newName]) != nil {
                throw FlowError(.invalidValue, operation: "fork", message: "a diagram named '\(newName)' exists")
            }
            try db.execute(
                sql: "INSERT INTO diagram (name, created, classes, look) VALUES (?, ?, ?, ?)",
                arguments: [
                    newName, created, FlowDocument<JSONValue>.classesJSON(store.classStyles).serialized(pretty: false),
                    LookText.text(store.diagramLook),
                ])
            let id = db.lastInsertedRowID
            try db.execute(
                sql: "INSERT INTO batch SELECT ?, n, time, name, summary, actions FROM batch WHERE diagram = ? AND n <= ?",
                arguments: [id, old, upTo])
            for n in store.nodes {
                try DiagramWriter.insert("node", n.id, store.sequenceNumber(ofNode: n.id) ?? 0, FlowDocument.nodeText(n), id, db)
            }
            for e in store.edges {
                try DiagramWriter.insert("edge", e.id, store.sequenceNumber(ofEdge: e.id) ?? 0, FlowDocument<JSONValue>.edgeText(e), id, db)
            }
            return id
        }
        store.actionRecorder = nil
        bind(store, DiagramWriter(workspace: self, diagram: id, created: created, name: newName, applied: upTo))
    }

    /// The history of diagram `name`: its change batches, oldest first.
    public func versions(_ name: String) throws(FlowError) -> [WorkspaceVersion] {
        try database("versions") { db in
            let id = try diagramID(db, name, "versions")
            let file = FileValue("versions", diagram: name)
            return try Row.fetchAll(db, sql: "SELECT n, time, name, summary FROM batch WHERE diagram = ? ORDER BY n", arguments: [id])
                .map { r throws(FlowError) in
                    WorkspaceVersion(
                        number: try file.integer(r[0], "batch number"), time: try file.real(r[1], "batch time"),
                        name: try file.text(r[2], "batch name"), summary: try file.text(r[3], "batch summary"))
                }
        }
    }

    /// Batches 1 through `version` of diagram `name`, decoded.
    public func history(_ name: String, upTo version: Int, _ operation: String) throws(FlowError) -> [FlowBatch<JSONValue>] {
        let texts = try snapshot(operation) { db in
            let id = try diagramID(db, name, operation)
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM batch WHERE diagram = ?", arguments: [id]) ?? 0
            guard version >= 0 && version <= count else {
                throw FlowError(.invalidValue, operation: operation, message: "diagram '\(name)' has versions 0 to \(count) (got \(version))")
            }
            let file = FileValue(operation, diagram: name)
            let rows = try Row.fetchAll(db, sql: "SELECT n, actions FROM batch WHERE diagram = ? AND n <= ? ORDER BY n", arguments: [id, version])
            // batches 1, 2, 3, ... up to `version`, as FlowScript numbers them
            var texts: [String] = []
            for (i, r) in rows.enumerated() {
                guard case .int64(let n) = (r[0] as DatabaseValue).storage, n == i + 1 else {
                    throw file.damaged("it has batch number \(FileValue.show(r[0])) where \(i + 1) belongs (batches are numbered 1, 2, 3, …)")
                }
                texts.append(try file.text(r[1], "batch \(n)"))
            }
            if texts.count < version { throw file.damaged("it has \(count) batches, but none numbered \(texts.count + 1)") }
            return texts
        }
        var batches: [FlowBatch<JSONValue>] = []
        for t in texts { batches.append(try FlowBatch(json: JSONValue.parse(t, operation: operation), operation: operation)) }
        return batches
    }

    // MARK: Helpers

    /// The bodies of a diagram's nodes (or edges) in order, joined by commas, and whether
    /// their order numbers are 0, 1, 2, ... without gaps.
    private static func bodies(_ table: String, _ id: Int64, _ file: FileValue, _ db: Database) throws -> (String, Bool) {
        var text = ""
        var count = 0, dense = true
        let rows = try Row.fetchCursor(db, sql: "SELECT seq, body FROM \(table) WHERE diagram = ? ORDER BY seq", arguments: [id])
        while let row = try rows.next() {
            if count > 0 { text += "," }
            let seq = try file.integer(row[0], "\(table) order number")
            if seq != count { dense = false }
            text += try file.text(row[1], table)
            count += 1
        }
        return (text, dense)
    }

    /// Loads `doc` into `store` with no recorder, leaving an empty history.
    private func load(_ doc: FlowDocument<JSONValue>, into store: Store) throws(FlowError) {
        store.actionRecorder = nil
        try store.load(doc)
        store.clearHistory()
    }

    /// Everything a store holds, as a document (every node, not only persistent ones; the
    /// selection flags are not part of a document's text), with its style sheet and look.
    public static func content(of store: Store) -> FlowDocument<JSONValue> {
        FlowDocument(
            nodes: store.nodes, edges: store.edges,
            viewport: store.viewport, classes: store.classStyles, look: store.diagramLook)
    }

    /// The first batch of a diagram created from `store` ("Create", a `load` of what it
    /// holds), or nil when the store holds nothing (no node, edge, class or look).
    public static func initialBatch(of store: Store) -> FlowBatch<JSONValue>? {
        if store.nodeCount + store.edgeCount == 0 && store.classStyles.isEmpty && store.diagramLook.isEmpty { return nil }
        return FlowBatch(name: "Create", actions: [.load(content(of: store))])
    }

    private func bind(_ store: Store, _ writer: DiagramWriter) {
        writer.store = store
        let recorder = FlowActionRecorder<JSONValue>(keepsJournal: true) { [weak writer] batch in
            guard let writer else {
                return FlowError(.invalidState, operation: "", message: "the store is no longer bound to its workspace; the change was undone")
            }
            return writer.write(batch)
        }
        store.actionRecorder = recorder
        bound[writer.name] = writer
    }

    /// Unbinds the store of diagram `name` (its later changes stay in memory only).
    public func unbind(_ name: String) {
        bound.removeValue(forKey: name)?.detach()
    }

    /// The name of the diagram `store` is bound to, if any.
    public func diagramName(of store: Store) -> String? {
        bound.first { $0.value.store === store }?.key
    }
}
