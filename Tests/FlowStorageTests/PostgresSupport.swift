import FlowCore
import Foundation
import Testing
@testable import FlowPostgres
import FlowStorage

/// The throwaway cluster scripts/test starts (scripts/pg-cluster): its URL, or nil when
/// the tests run without one (the PostgreSQL tests are skipped then).
let postgresURL = ProcessInfo.processInfo.environment["FLOW_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
let noPostgres = "FLOW_TEST_POSTGRES_URL is not set: start a cluster with scripts/pg-cluster (scripts/test does)"

/// The URL of a fresh, empty schema of the test cluster: each test's workspace is its own.
func freshPostgresURL() throws -> String {
    let base = try #require(postgresURL, Comment(rawValue: noPostgres))
    let schema = "t\(UInt64.random(in: 1...UInt64.max))"
    let admin = try PostgresWorkspace(url: base)
    try admin.query("CREATE SCHEMA \(schema)", [], "test")
    admin.close()
    return base + (base.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
}

/// The two kinds of workspace the shared tests run against.
enum Backend: String, CaseIterable, CustomTestStringConvertible {
    case sqlite, postgres
    var testDescription: String { rawValue }

    /// A new, empty workspace and what removes it.
    func make() throws -> (any DiagramWorkspace, () -> Void) {
        switch self {
        case .sqlite:
            let path = temporaryPath()
            return (try Workspace(path: path), { cleanup(path) })
        case .postgres:
            let url = try freshPostgresURL()
            return (try PostgresWorkspace(url: url), {})
        }
    }

    /// Another workspace object on the same place as `ws` (another session).
    func again(_ ws: any DiagramWorkspace, url: String? = nil) throws -> any DiagramWorkspace {
        switch self {
        case .sqlite: return try Workspace(path: ws.location)
        case .postgres: return try PostgresWorkspace(url: (ws as! PostgresWorkspace).url.connectionString)
        }
    }

    /// The file always; PostgreSQL when the tests have a cluster.
    static var testable: [Backend] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }
}
