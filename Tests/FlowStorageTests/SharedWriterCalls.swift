import FlowCore
import FlowStorage
import TestSupport
import Testing

/// What became of one random call of a writer sharing a diagram with others.
enum SharedCallResult {
    /// Its batch was written.
    case accepted
    /// The workspace refused it (a conflict; the error is named after the call: no operation).
    case refused
    /// The store refused it (no such node, ...).
    case invalid
}

/// One random call of writer `i` in `round` on its store `s` (add, move, connect, remove,
/// against what the store holds, which may be behind the others'); a refused call must
/// leave the store as it was.
func sharedRandomCall(_ s: FlowStore<JSONValue>, writer i: Int, round: Int, _ rng: inout SplitMix64) throws -> SharedCallResult {
    let before = try s.export()
    let ids = s.nodes.map(\.id)
    func pick() -> String { ids.isEmpty ? "none" : rng.pick(ids) }
    do throws(FlowError) {
        switch rng.below(6) {
        case 0, 1: try s.addNode(node("w\(i)-\(round)", Double(rng.below(300)), Double(rng.below(300))))
        case 2, 3: try s.moveNode(pick(), to: Point(Double(rng.below(300)), Double(rng.below(300))))
        case 4: try s.addEdge(FlowEdge(id: "e\(i)-\(round)", sourceNodeID: pick(), targetNodeID: pick()))
        default: try s.removeNode(pick())
        }
        return .accepted
    } catch {
        #expect(try s.export() == before)
        return error.operation.isEmpty ? .refused : .invalid
    }
}

/// `rounds` rounds in which each writer makes a random call and, now and then, syncs;
/// then every writer syncs. Returns how many calls were accepted and refused.
func sharedRandomRounds(_ all: [(any DiagramWorkspace, FlowStore<JSONValue>)], rounds: Int, seed: UInt64) throws -> (accepted: Int, refused: Int) {
    var rng = SplitMix64(seed: seed)
    var accepted = 0, refused = 0
    for round in 0..<rounds {
        for (i, (w, s)) in all.enumerated() {
            switch try sharedRandomCall(s, writer: i, round: round, &rng) {
            case .accepted: accepted += 1
            case .refused: refused += 1
            case .invalid: break
            }
            if rng.chance(30) { _ = try w.sync() }
        }
    }
    for (w, _) in all { _ = try w.sync() }
    return (accepted, refused)
}
