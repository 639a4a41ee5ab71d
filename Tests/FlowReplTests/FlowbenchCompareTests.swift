import Foundation
import Testing

/// flowbench's `--json-out` and `--compare` (the built flowbench, next to flowrepl), on the
/// smallest area there is: memory at 100 nodes. Only the shape of the output is checked;
/// the numbers are measurements.
@Suite struct FlowbenchCompareTests {
    static var binary: String {
        URL(fileURLWithPath: ReplProcess.binary).deletingLastPathComponent().appendingPathComponent("flowbench").path
    }

    static func run(_ arguments: [String]) throws -> ReplProcess.Output {
        try ReplProcess.run(arguments, executable: binary)
    }

    @Test func savedRunIsComparedWithToday() throws {
        let dir = ReplProcess.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let saved = dir.appendingPathComponent("run.jsonl").path
        let first = try Self.run(["--only", "memory", "--sizes", "100", "--json", "--json-out", saved])
        #expect(first.status == 0, "\(first)")
        let lines = try String(contentsOfFile: saved, encoding: .utf8).split(separator: "\n")
        #expect(lines.map(String.init) == first.stdout.split(separator: "\n").map(String.init))
        #expect(lines.count >= 3 && lines.allSatisfy { $0.hasPrefix("{\"name\":\"memory.") })

        // a saved table around the JSON lines is skipped
        try ("== a saved table\n" + lines.joined(separator: "\n") + "\n").write(
            toFile: saved, atomically: true, encoding: .utf8)
        let second = try Self.run(["--only", "memory", "--sizes", "100", "--compare", saved])
        #expect(second.status == 0, "\(second)")
        let table = second.stdout.components(separatedBy: "== Compared with the saved run")
        #expect(table.count == 2)
        let rows = table.last!.split(separator: "\n")
        #expect(rows.contains { $0.hasPrefix("memory.swift.history_off") && $0.contains("100") })
        #expect(rows.contains { $0.contains("\(lines.count) compared; 0 only in today's run, 0 only in the saved one") })
    }

    @Test func unreadableOrForeignFilesAreRefused() throws {
        let dir = ReplProcess.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = try Self.run(["--compare", dir.appendingPathComponent("none").path])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("flowbench: cannot read '"))
        let foreign = dir.appendingPathComponent("foreign.jsonl").path
        try "{\"x\": 1}\n".write(toFile: foreign, atomically: true, encoding: .utf8)
        let bad = try Self.run(["--compare", foreign])
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("flowbench: --compare '\(foreign)': line 1 is not a flowbench metric\n"))
        let empty = dir.appendingPathComponent("empty.jsonl").path
        try "no metrics here\n".write(toFile: empty, atomically: true, encoding: .utf8)
        #expect(try Self.run(["--compare", empty]).stderr.contains("no metrics in the file"))
    }
}
