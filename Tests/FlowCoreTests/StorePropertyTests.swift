import TestSupport
import Testing
@testable import FlowCore

/// The document content (flags cleared), in store order.
struct DocumentState: Equatable {
    var nodes: [FlowNode<JSONValue>]
    var edges: [FlowEdge]
    init(_ s: Store) {
        nodes = s.nodes.map { var n = $0; n.isSelected = false; n.isHovered = false; n.isDropTarget = false; return n }
        edges = s.edges.map { var e = $0; e.isSelected = false; e.isDropTarget = false; return e }
    }
}

@Suite("Property: random operation sequences") struct StorePropertyTests {
    static let ids = ["a", "b", "c", "d", "e", "f", "n1", "n2"]

    static func randomOperation(_ s: Store, _ rng: inout SplitMix64) throws(FlowError) {
        let existing = s.nodes.map(\.id), existingEdges = s.edges.map(\.id)
        func pick() -> String {
            if !existing.isEmpty && Int.random(in: 0..<5, using: &rng) > 0 { return existing.randomElement(using: &rng)! }
            return ids.randomElement(using: &rng)!
        }
        func pickEdge() -> String {
            if !existingEdges.isEmpty && Int.random(in: 0..<5, using: &rng) > 0 { return existingEdges.randomElement(using: &rng)! }
            return ["e1", "e2", "e3", "x", "e4"].randomElement(using: &rng)!
        }
        func coord() -> Double { Double(Int.random(in: -20...40, using: &rng)) * 5 }
        switch Int.random(in: 0..<19, using: &rng) {
        case 0, 1:
            let id = Int.random(in: 0..<4, using: &rng) == 0 ? ids.randomElement(using: &rng)! : s.nextNodeID()
            let containers = s.nodes.filter(\.acceptsChildren).map(\.id)
            let parent: String? = Int.random(in: 0..<3, using: &rng) == 0 ? (containers.randomElement(using: &rng) ?? pick()) : nil
            try s.addNode(
                FlowNode(
                    id: id, position: Point(coord(), coord()), size: Size(40, 30), data: .string(id),
                    parentID: parent, acceptsChildren: Bool.random(using: &rng),
                    zIndex: Int.random(in: -1...1, using: &rng)))
        case 2: try s.removeNode(pick())
        case 3: try s.moveNode(pick(), to: Point(coord(), coord()))
        case 4:
            let v = Int.random(in: 0..<4, using: &rng)
            let p = pick()
            try s.updateNode(pick()) { (n: inout FlowNode<JSONValue>) throws(FlowError) in
                switch v {
                case 0: n.zIndex += 1
                case 1: n.acceptsChildren.toggle()
                case 2: n.parentID = n.parentID == nil ? p : nil
                default: n.data = .number(Double(n.zIndex))
                }
            }
        case 5: try s.updateNodeSize(pick(), to: Size(coord() + 100, 20))
        case 6, 7:
            let handles: (String?, String?) = Bool.random(using: &rng) ? ("source", "target") : (nil, nil)
            try s.addEdge(
                FlowEdge(
                    id: Int.random(in: 0..<4, using: &rng) == 0 ? pickEdge() : s.nextEdgeID(), sourceNodeID: pick(),
                    sourceHandleID: handles.0, targetNodeID: pick(), targetHandleID: handles.1,
                    parentID: Int.random(in: 0..<4, using: &rng) == 0 ? pick() : nil))
        case 8: try s.removeEdge(pickEdge())
        case 9:
            let label = "L\(Int.random(in: 0..<3, using: &rng))"
            try s.updateEdge(pickEdge()) { (e: inout FlowEdge) throws(FlowError) in e.label = label }
        case 10: try s.setParent(pick(), to: Bool.random(using: &rng) ? pick() : nil)
        case 11: try s.setEdgeParent(pickEdge(), to: Bool.random(using: &rng) ? pick() : nil)
        case 12: try s.selectNode(pick(), exclusive: Bool.random(using: &rng))
        case 13: try s.selectEdge(pickEdge(), exclusive: Bool.random(using: &rng))
        case 14: try s.groupSelection(data: .null, padding: 10)
        case 15: try s.ungroupNode(pick())
        case 16: s.deleteSelection()
        case 17:
            let n = Int.random(in: 1...3, using: &rng)
            try s.transaction { () throws(FlowError) in
                for _ in 0..<n { try randomOperation(s, &rng) }
            }
        default:
            if Bool.random(using: &rng) { try s.undo() } else { try s.redo() }
        }
    }

    @Test(arguments: 0..<4)
    func invariantsHoldAndHistoryRestoresExactly(batch: Int) throws {
        var totalFailures = 0
        var tally: [String: Int] = [:]
        // Failed calls test atomicity; successful ones test history. Both must be common.
        defer {
            #expect(totalFailures < 250 * 50 * 7 / 10, "too few random calls succeed")
            #expect(totalFailures > 250 * 50 / 10, "too few random calls fail")
            #expect(tally.count >= 10, "failures should come from many kinds of calls")
        }
        for seed in (batch * 250)..<((batch + 1) * 250) {
            var rng = SplitMix64(seed: UInt64(seed))
            let s = Store()
            s.checksInvariants = true
            let initial = DocumentState(s)
            let initialText = try s.export()
            var failures = 0
            for _ in 0..<50 {
                let before = StoreState(s)
                let beforeUndo = (s.canUndo, s.canRedo)
                do {
                    try Self.randomOperation(s, &rng)
                } catch {
                    tally[error.code.rawValue + " " + error.operation, default: 0] += 1
                    failures += 1
                    totalFailures += 1
                    #expect(StoreState(s) == before, "seed \(seed): a failed call changed the store")
                    #expect(beforeUndo == (s.canUndo, s.canRedo))
                }
                #expect(s.checkInvariants().isEmpty, "seed \(seed)")
            }
            while try s.redo() {}  // the end of history, so redo-all can come back to it
            let final = DocumentState(s)
            let finalText = try s.export()
            var undone = 0
            while try s.undo() { undone += 1 }
            #expect(DocumentState(s) == initial, "seed \(seed): undo-all did not restore the start")
            #expect(try s.export() == initialText, "seed \(seed): undo-all changed the exported bytes")
            while try s.redo() {}
            #expect(DocumentState(s) == final, "seed \(seed): redo-all did not restore the end")
            #expect(try s.export() == finalText, "seed \(seed): redo-all changed the exported bytes")
            let reloaded = Store()
            try reloaded.load(json: finalText)
            #expect(try reloaded.export() == finalText, "seed \(seed): load(export) is not exact")
            #expect(s.checkInvariants().isEmpty)
        }
    }
}
