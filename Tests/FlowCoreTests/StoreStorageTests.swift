import TestSupport
import Testing
@testable import FlowCore

// The slot-based storage seen through the store: the deferred node index against brute
// force, node references, events queued only while someone listens, and the quiet fast
// paths of moveNode/addNode against the general path. (StorageTests.swift has the data
// structures on their own and the seeded generator `SplitMix64`.)

/// Brute-force answers to the spatial queries, computed from `store.nodes`/`store.edges`
/// alone, and compared with the store's indexed answers.
enum SpatialOracle {
    /// The exact union of the node frames as `nodeBounds()` gives it.
    static func bounds(_ nodes: [FlowNode<JSONValue>]) -> Rect {
        guard !nodes.isEmpty else { return .zero }
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for n in nodes {
            x0 = min(x0, n.frame.minX)
            y0 = min(y0, n.frame.minY)
            x1 = max(x1, n.frame.maxX)
            y1 = max(y1, n.frame.maxY)
        }
        return Rect(x0, y0, x1 - x0, y1 - y0)
    }

    /// The front-most node containing `p`: highest zIndex, then latest in store order.
    static func hitNode(_ nodes: [FlowNode<JSONValue>], _ p: Point) -> String? {
        var best: (z: Int, i: Int, id: String)?
        for (i, n) in nodes.enumerated() where n.frame.contains(p) {
            if best == nil || n.zIndex > best!.z || (n.zIndex == best!.z && i > best!.i) { best = (n.zIndex, i, n.id) }
        }
        return best?.id
    }

    /// Points worth probing: inside nodes, on their corners (half-open containment), on
    /// edge paths, and anywhere.
    static func point(_ s: Store, _ rng: inout SplitMix64) -> Point {
        let nodes = s.nodes, edges = s.edges
        switch rng.below(5) {
        case 0, 1:
            guard !nodes.isEmpty else { break }
            let f = rng.pick(nodes).frame
            return rng.chance(50) ? Point(f.midX, f.midY) : Point(f.minX, rng.chance(50) ? f.minY : f.maxY)
        case 2, 3:
            guard !edges.isEmpty, let g = s.edgeGeometry(of: rng.pick(edges)) else { break }
            return Point(g.labelPosition.x + rng.uniform(-6, 6), g.labelPosition.y + rng.uniform(-6, 6))
        default: break
        }
        return Point(rng.uniform(-2_500, 4_500), rng.uniform(-2_500, 4_500))
    }

    static func rect(_ s: Store, _ rng: inout SplitMix64) -> Rect {
        let p = point(s, &rng)
        // Sometimes with a negative size (standardized by the store).
        return Rect(p.x, p.y, rng.uniform(-400, 900), rng.uniform(-400, 900))
    }

    /// Compares every query with brute force for `rounds` random probes (queries in a
    /// random order, so each kind is sometimes the first after the changes); selectInRect
    /// is included when `select` (it changes the selection, never the history).
    static func problem(_ s: Store, _ rng: inout SplitMix64, rounds: Int, select: Bool = true) -> String? {
        let nodes = s.nodes, edges = s.edges
        let paths = edges.map { s.edgeGeometry(of: $0) }
        let t = s.configuration.edgeHitTolerance
        for round in 0..<rounds {
            for kind in rng.shuffled([0, 1, 2, 3, 4]) {
                switch kind {
                case 0:
                    let want = bounds(nodes), got = s.nodeBounds()
                    if got != want { return "round \(round): nodeBounds \(got), expected \(want)" }
                case 1:
                    let p = point(s, &rng)
                    let want = hitNode(nodes, p), got = s.hitTestNode(at: p)?.id
                    if got != want { return "round \(round): hitTestNode(\(p)) \(got ?? "nil"), expected \(want ?? "nil")" }
                case 2:
                    let p = point(s, &rng)
                    let want = Array(zip(edges, paths)).last { $0.1.map { $0.path.distance(to: p) < t } ?? false }?.0.id
                    let got = s.hitTestEdge(at: p)?.id
                    if got != want { return "round \(round): hitTestEdge(\(p)) \(got ?? "nil"), expected \(want ?? "nil")" }
                case 3:
                    let r = rect(s, &rng)
                    let want = nodes.filter { $0.frame.intersects(r.standardized) }.map(\.id)
                    let got = s.nodesInRect(r).map(\.id)
                    if got != want { return "round \(round): nodesInRect(\(r)) \(got), expected \(want)" }
                default:
                    guard select else { continue }
                    let r = rect(s, &rng).standardized
                    let wantNodes = nodes.filter { $0.frame.intersects(r) }.map(\.id)
                    let wantEdges = zip(edges, paths).filter { $0.1?.isInSelectionRect(r) ?? false }.map(\.0.id)
                    do {
                        try s.selectInRect(r)
                    } catch {
                        return "selectInRect(\(r)) threw \(error)"
                    }
                    if s.selectedNodeIDs != wantNodes || s.selectedEdgeIDs != wantEdges {
                        return "round \(round): selectInRect(\(r)) took \(s.selectedNodeIDs) \(s.selectedEdgeIDs), expected \(wantNodes) \(wantEdges)"
                    }
                }
            }
        }
        return nil
    }
}

/// A store of 40 scattered nodes, a group with a nested container and a grandchild, and
/// 30 edges of every path type, with an empty history.
func scatteredStore(_ rng: inout SplitMix64) throws -> Store {
    let s = Store()
    for i in 0..<40 {
        try s.addNode(
            node("n\(i)", rng.uniform(-1_500, 1_500), rng.uniform(-1_500, 1_500), rng.uniform(20, 300), rng.uniform(20, 200),
                 z: rng.below(3) - 1))
    }
    try s.addNode(node("g", 2_000, 2_000, 800, 600, container: true))
    try s.addNode(node("c0", 2_050, 2_050, 200, 150, parent: "g", container: true))
    try s.addNode(node("gc", 2_060, 2_060, 50, 50, parent: "c0"))
    try s.addNode(node("c1", 2_400, 2_300, parent: "g"))
    let ids = s.nodes.map(\.id)
    let types = EdgePathType.allCases
    for i in 0..<30 {
        let a = rng.pick(ids)
        var b = rng.pick(ids)
        if b == a { b = ids[(ids.firstIndex(of: a)! + 1) % ids.count] }
        var e = edge("e\(i)", a, b)
        e.pathType = types[i % types.count]
        if rng.chance(50) {
            e.sourceHandleID = "source"
            e.targetHandleID = "target"
        }
        try s.addEdge(e)
    }
    s.clearHistory()
    return s
}

// MARK: - Deferred node index

@Suite("Storage: deferred node index") struct DeferredNodeIndexTests {
    static let movable = (0..<40).map { "n\($0)" } + ["g", "c0", "gc", "c1"]

    static func randomMove(_ s: Store, _ rng: inout SplitMix64) throws {
        let id = rng.pick(Self.movable)
        let p = rng.chance(20)
            ? Point(rng.uniform(-2_000, 4_000), rng.uniform(-2_000, 4_000))  // anywhere
            : s.node(id)!.position + Point(rng.uniform(-150, 150), rng.uniform(-150, 150))  // nearby
        if rng.chance(30), let ref = s.nodeRef(id) {
            try s.moveNode(ref, to: p)
        } else {
            try s.moveNode(id, to: p)
        }
    }

    @Test(arguments: [UInt64(1), 2])
    func queriesAfterManyUnqueriedMovesMatchBruteForce(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let s = try scatteredStore(&rng)
        for round in 0..<3 {
            for _ in 0..<300 { try Self.randomMove(s, &rng) }
            #expect(s.dirtyNodes.count > 10, "the moves are pending in the index")
            let p = SpatialOracle.problem(s, &rng, rounds: 40)
            #expect(p == nil, "round \(round)")
            #expect(s.dirtyNodes.isEmpty && s.staleEdges.isEmpty)
        }
        #expect(s.checkInvariants().isEmpty)
    }

    @Test(arguments: [UInt64(3), 4])
    func undoAndRedoInterleavedWithMovesAndQueries(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let s = try scatteredStore(&rng)
        let initialText = try s.export()
        var queries = 0
        for step in 0..<700 {
            let r = rng.below(100)
            if r < 55 {
                try Self.randomMove(s, &rng)
            } else if r < 70 {
                try s.undo()
            } else if r < 80 {
                try s.redo()
            } else if r < 85 {
                let id = rng.pick(Self.movable)
                try s.updateNodeSize(id, to: Size(rng.uniform(10, 300), rng.uniform(10, 300)))
            } else {
                queries += 1
                if let p = SpatialOracle.problem(s, &rng, rounds: 2) {
                    Issue.record("step \(step): \(p)")
                    return
                }
            }
        }
        #expect(queries > 50)
        while try s.undo() {}
        #expect(try s.export() == initialText)
        #expect(SpatialOracle.problem(s, &rng, rounds: 20) == nil)
        while try s.redo() {}
        #expect(SpatialOracle.problem(s, &rng, rounds: 20) == nil)
    }

    @Test func removingAMovedNodeThatWasNeverQueried() throws {
        let s = Store()
        try s.addNode(node("a", 0, 0))
        try s.addNode(node("b", 500, 0))
        try s.addEdge(edge("e", "a", "b"))
        s.clearHistory()
        // Added nodes wait for the first query to be indexed; this one indexes them.
        #expect(s.dirtyNodes.count == 2 && s.spatial.count == 0)
        _ = s.nodeBounds()
        #expect(s.dirtyNodes.isEmpty && s.spatial.count == 2)
        let slotA = s.nodeRef("a")!.ref.slot
        try s.moveNode("a", to: Point(1_000, 1_000))
        #expect(s.dirtyNodes == [slotA])
        try s.removeNode("a")  // the index still holds a at (0, 0)
        #expect(s.checkInvariants().isEmpty)
        #expect(s.hitTestNode(at: Point(1_010, 1_010)) == nil)
        #expect(s.hitTestNode(at: Point(10, 10)) == nil)
        #expect(s.nodesInRect(Rect(-10, -10, 2_000, 2_000)).map(\.id) == ["b"])
        #expect(s.nodeBounds() == Rect(500, 0, 150, 60))
        #expect(s.hitTestEdge(at: Point(300, 30), tolerance: 1_000) == nil && s.edgeSpatial.count == 0)
        // A new node takes the freed slot; nothing of a is left behind in it.
        try s.addNode(node("c", 5_000, 5_000))
        #expect(s.nodeRef("c")!.ref.slot == slotA)
        #expect(s.hitTestNode(at: Point(5_010, 5_010))?.id == "c")
        #expect(s.hitTestNode(at: Point(1_010, 1_010)) == nil && s.hitTestNode(at: Point(10, 10)) == nil)
        #expect(s.nodeBounds() == Rect(500, 0, 4_650, 5_060))
        try s.undo()  // c
        try s.undo()  // the removal: a comes back where it was moved, with e
        #expect(s.node("a")?.position == Point(1_000, 1_000))
        #expect(s.hitTestNode(at: Point(1_010, 1_010))?.id == "a")
        #expect(s.hitTestNode(at: Point(10, 10)) == nil)
        let g = try s.edgeGeometry("e")
        #expect(s.hitTestEdge(at: g.labelPosition)?.id == "e")
        try s.undo()  // the move
        #expect(s.hitTestNode(at: Point(10, 10))?.id == "a" && s.hitTestNode(at: Point(1_010, 1_010)) == nil)
        #expect(s.hitTestEdge(at: try s.edgeGeometry("e").labelPosition)?.id == "e")
        try s.redo()
        try s.redo()
        #expect(s.node("a") == nil && s.nodeBounds() == Rect(500, 0, 150, 60))
        #expect(s.checkInvariants().isEmpty)
    }

    @Test func removingMovedNodesInsideATransactionThenUndo() throws {
        let s = Store()
        for i in 0..<5 { try s.addNode(node("n\(i)", Double(i) * 200, 0)) }
        try s.addEdge(edge("e1", "n0", "n1"))
        try s.addEdge(edge("e2", "n1", "n2"))
        s.clearHistory()
        let before = try s.export()
        try s.transaction {
            try s.moveNode("n1", to: Point(0, 900))
            try s.moveNode("n2", to: Point(300, 900))
            try s.removeNode("n1")
            try s.moveNode("n3", to: Point(-500, -500))
        }
        var rng = SplitMix64(seed: 8)
        #expect(s.nodes.map(\.id) == ["n0", "n2", "n3", "n4"] && s.edges.isEmpty)
        #expect(SpatialOracle.problem(s, &rng, rounds: 10) == nil)
        try s.undo()
        #expect(try s.export() == before)
        #expect(SpatialOracle.problem(s, &rng, rounds: 10) == nil)
        try s.redo()
        #expect(s.node("n3")?.position == Point(-500, -500) && s.node("n1") == nil)
        #expect(SpatialOracle.problem(s, &rng, rounds: 10) == nil)
    }

    @Test func movingAGroupMovesEveryDescendantByTheSameDelta() throws {
        let s = Store()
        try s.addNode(node("g", 0, 0, 600, 400, container: true))
        try s.addNode(node("c0", 50, 50, 200, 150, parent: "g", container: true))
        try s.addNode(node("gc", 60, 60, 50, 50, parent: "c0"))
        try s.addNode(node("c1", 300, 200, parent: "g"))
        try s.addNode(node("o", 1_000, 0))
        s.clearHistory()
        let before = s.nodes
        #expect(try s.moveNode("g", to: Point(100.5, -50.25)))
        let d = Point(100.5, -50.25)
        for n in before {
            let want = n.id == "o" ? n.position : n.position + d
            #expect(s.node(n.id)?.position == want, "\(n.id)")
        }
        #expect(s.log.undoLog.count == 1 && s.undoActionName == "Move")
        // Found where they went, not where they were.
        #expect(s.hitTestNode(at: Point(60 + 100.5 + 1, 60 - 50.25 + 1))?.id == "gc")
        #expect(s.hitTestNode(at: Point(61, 59)) == nil)
        #expect(s.nodesInRect(Rect(300 + 100.5, 200 - 50.25, 1, 1)).map(\.id) == ["g", "c1"])
        #expect(s.nodeBounds() == Rect(100.5, -50.25, 1_000 + 150 - 100.5, 400))
        // Moving a child moves it (and its own children) only.
        try s.moveNode(s.nodeRef("c0")!, to: Point(0, 0))
        #expect(s.node("gc")?.position == Point(10, 10) && s.node("g")?.position == d)
        try s.undo()
        try s.undo()
        #expect(s.nodes == before)
        var rng = SplitMix64(seed: 4)
        #expect(SpatialOracle.problem(s, &rng, rounds: 10) == nil)
    }

    /// An edge indexed while one of its nodes had a pending move, and that node then moved
    /// back to the frame the index holds: the next query finds no change for the node, so
    /// nothing marks the edge stale, and it keeps path bounds computed for the other place.
    @Test
    func edgeIndexedDuringAPendingMoveIsRefreshedWhenTheNodeMovesBack() throws {
        let s = Store()
        s.checksInvariants = false  // the violation would trap at the next mutation
        try s.addNode(node("a", 0, 0))
        try s.addNode(node("b", 0, 400))
        try s.moveNode("a", to: Point(3_000, 6_000))  // pending: the index still has a at (0, 0)
        var e = edge("e", "a", "b")
        e.pathType = .straight
        try s.addEdge(e)  // e's bounds are computed with a at (3000, 6000)
        try s.moveNode("a", to: Point(0, 0))  // back to the indexed frame
        let p = try s.edgeGeometry("e").labelPosition  // (75, 230): on the straight path
        #expect(s.hitTestEdge(at: p)?.id == "e")
        #expect(s.checkInvariants().isEmpty)
        try s.selectInRect(Rect(p.x - 2, p.y - 2, 4, 4))
        #expect(s.selectedEdgeIDs == ["e"])

        // The same with a resize instead of a move, and the default (bezier) path.
        let t = Store()
        t.checksInvariants = false
        try t.addNode(node("a", 0, 0))
        try t.addNode(node("b", 0, 400))
        try t.updateNodeSize("a", to: Size(6_000, 6_000))
        try t.addEdge(edge("e", "a", "b"))
        try t.updateNodeSize("a", to: Size(150, 60))
        #expect(t.hitTestEdge(at: try t.edgeGeometry("e").labelPosition)?.id == "e")
        #expect(t.checkInvariants().isEmpty)
    }
}

// MARK: - NodeRef

@Suite("Storage: NodeRef") struct NodeRefTests {
    static let longID = "a-node-with-a-long-identifier-ü-日本"

    static func ref(_ s: Store, utf8 id: String) -> NodeRef? {
        Array(id.utf8).withUnsafeBytes { s.nodeRef(utf8: $0) }
    }

    @Test func refsOfPresentAndAbsentIDs() throws {
        let s = Store()
        for (i, id) in ["a", Self.longID, "😀", "b"].enumerated() { try s.addNode(node(id, Double(i) * 200, 0)) }
        for id in ["a", Self.longID, "😀", "b"] {
            let r = try #require(s.nodeRef(id))
            #expect(r.id == id)
            #expect(Self.ref(s, utf8: id) == r)
            #expect(s.isValid(r) && s.node(r)?.id == id)
        }
        for id in ["", "c", "A", Self.longID + "x", String(Self.longID.dropLast()), "😀😀"] {
            #expect(s.nodeRef(id) == nil, "\(id.debugDescription)")
            #expect(Self.ref(s, utf8: id) == nil, "\(id.debugDescription) (bytes)")
        }
        #expect(Store().nodeRef("a") == nil && Self.ref(Store(), utf8: "a") == nil)
        // Calls through a reference.
        let r = try #require(s.nodeRef(Self.longID))
        #expect(try s.moveNode(r, to: Point(7, 8)))
        #expect(s.node(Self.longID)?.position == Point(7, 8) && s.node(r)?.position == Point(7, 8))
        #expect(try s.moveNode(r, to: Point(7, 8)) == false)
        #expect(s.undoActionName == "Move" && s.log.undoLog.count == 5)
        #expect(throws: FlowError.invalidValue("moveNode", "position must be finite numbers")) {
            try s.moveNode(r, to: Point(.nan, 0))
        }
        try s.undo()
        #expect(s.node(r)?.position == Point(200, 0))
        #expect(s.hitTestNode(at: Point(210, 10))?.id == Self.longID)
    }

    @Test func refIsStaleAfterRemovalAndStaysStaleAfterUndo() throws {
        let s = Store()
        try s.addNode(node("a", 0, 0))
        try s.addNode(node("b", 300, 0))
        let old = try #require(s.nodeRef("a"))
        try s.removeNode("a")
        #expect(!s.isValid(old) && s.node(old) == nil)
        #expect(throws: FlowError.unknownNode("moveNode", "a")) { try s.moveNode(old, to: Point(1, 1)) }
        do {
            try s.moveNode(old, to: Point(1, 1))
        } catch {
            #expect(error.code == .unknownNode && error.description == "moveNode: no node with id 'a'")
        }
        // Undo brings a back in its old slot: the old reference stays stale (documented).
        try s.undo()
        #expect(s.node("a") != nil)
        #expect(!s.isValid(old) && s.node(old) == nil)
        #expect(throws: FlowError.unknownNode("moveNode", "a")) { try s.moveNode(old, to: Point(1, 1)) }
        #expect(s.node("a")?.position == .zero)
        let fresh = try #require(s.nodeRef("a"))
        #expect(fresh != old && fresh.ref.slot == old.ref.slot && fresh.ref.generation > old.ref.generation)
        #expect(s.isValid(fresh))
        #expect(try s.moveNode(fresh, to: Point(1, 1)))
        #expect(s.node("a")?.position == Point(1, 1))
        // Another node in the freed slot is not reachable through a stale reference.
        let refB = try #require(s.nodeRef("b"))
        try s.removeNode("b")
        try s.addNode(node("c", 900, 900))
        #expect(s.nodeRef("c")?.ref.slot == refB.ref.slot)
        #expect(!s.isValid(refB) && s.node(refB) == nil)
        #expect(throws: FlowError.unknownNode("moveNode", "b")) { try s.moveNode(refB, to: .zero) }
        #expect(s.node("c")?.position == Point(900, 900))
    }

    /// `load` replaces every node, so references taken before it must all be stale.
    @Test
    func refsTakenBeforeLoadAreStale() throws {
        let s = Store()
        try s.addNode(node("a", 0, 0))
        let old = try #require(s.nodeRef("a"))
        let other = Store()
        try other.addNode(node("b", 500, 500))
        try s.load(json: try other.export())
        #expect(s.nodes.map(\.id) == ["b"])
        #expect(!s.isValid(old))
        #expect(s.node(old) == nil)
        #expect(throws: FlowError.unknownNode("moveNode", "a")) { try s.moveNode(old, to: Point(1, 1)) }
        #expect(s.node("b")?.position == Point(500, 500))
        // load cleared the history, so there is nothing to undo (with the bug: a "Move" step
        // naming 'a', whose undo leaves 'b' where the stale reference moved it).
        #expect(try s.undo() == false)
        #expect(s.node("b")?.position == Point(500, 500))
    }
}

// MARK: - Ids compare the same everywhere

@Suite("Storage: id equality") struct IDEqualityTests {
    /// The table finds ids by their UTF-8 bytes, while the selection, the document loader and
    /// the previous dictionary-based table compare them as Swift strings (canonical
    /// equivalence). "é" as one scalar and as "e" + combining accent are one id for the
    /// latter and two for the former.
    @Test
    func canonicallyEquivalentIDsAreOneID() throws {
        let s = Store()
        s.checksInvariants = false  // the violation would trap
        let composed = "\u{E9}", decomposed = "e\u{301}"
        #expect(composed == decomposed)
        try s.addNode(node(composed))
        #expect(s.node(decomposed) != nil)
        #expect(throws: FlowError.duplicateNode("addNode", decomposed)) { try s.addNode(node(decomposed, 300, 0)) }
        try s.selectNode(composed)
        #expect(s.checkInvariants().isEmpty)
        let text = try s.export()
        let t = Store()
        #expect(try t.load(json: text).isEmpty)
        #expect(t.nodeCount == s.nodeCount)
    }
}

// MARK: - Events only while listening

@Suite("Storage: events only while listening") struct ListeningTests {
    static func noPending(_ s: Store) -> Bool {
        s.log.pendingNodeChanges.isEmpty && s.log.pendingEdgeChanges.isEmpty && s.log.replacedNodes.isEmpty && s.log.replacedEdges.isEmpty
    }

    @Test func aStoreWithoutListenersQueuesNoEvents() throws {
        let s = Store()
        #expect(!s.recordsNodeEvents && !s.recordsEdgeEvents)
        try s.addNode(node("a"))
        try s.addNode(node("b", 300, 0))
        try s.addNode(node("g", 0, 500, 400, 300, container: true))
        try s.addNode(node("c", 10, 510, parent: "g"))
        #expect(Self.noPending(s))
        try s.addEdge(edge("e", "a", "b"))
        try s.moveNode("a", to: Point(5, 5))
        try s.moveNode("g", to: Point(5, 505))
        try s.updateNode("b") { $0.zIndex = 3 }
        try s.updateNodeSize("b", to: Size(10, 10))
        try s.selectNode("a")
        try s.selectEdge("e", exclusive: false)
        #expect(Self.noPending(s))
        try s.transaction {
            try s.moveNode("b", to: Point(1, 1))
            try s.removeNode("a")
            #expect(Self.noPending(s), "inside a transaction")
        }
        s.beginInteractiveUpdates()
        try s.moveNode("b", to: Point(2, 2))
        #expect(Self.noPending(s), "while holding events")
        s.endInteractiveUpdates()
        try s.undo()
        try s.redo()
        try s.undo()
        #expect(Self.noPending(s))
        #expect(s.node("a") == nil && s.node("b")?.position == Point(1, 1))
    }

    @Test func anEdgeListenerAloneQueuesNoNodeEvents() throws {
        let s = Store()
        var edgeBatches: [[EdgeChange]] = []
        s.onEdgesChange = { edgeBatches.append($0) }
        #expect(!s.recordsNodeEvents && s.recordsEdgeEvents)
        try s.addNode(node("a"))
        try s.addNode(node("b", 300, 0))
        try s.transaction {
            try s.moveNode("a", to: Point(5, 5))
            try s.addEdge(edge("e", "a", "b"))
            #expect(s.log.pendingNodeChanges.isEmpty && s.log.pendingEdgeChanges.count == 1)
        }
        #expect(edgeBatches.map { $0.map(EventLog.describe) } == [["add(e)"]])
    }

    @Test func listenerSetInsideATransactionReceivesOnlyTheChangesMadeAfterIt() throws {
        let s = Store()
        try s.addNode(node("a"))
        try s.addNode(node("b", 300, 0))
        var batches: [String] = []
        try s.transaction {
            try s.moveNode("a", to: Point(1, 1))
            try s.addNode(node("x", 900, 0))
            s.onNodesChange = { c in batches.append(c.map(EventLog.describe).joined(separator: ", ")) }
            try s.moveNode("b", to: Point(2, 2))
            try s.removeNode("x")
        }
        #expect(batches == ["position(b (2, 2)), remove(x)"])
        // The same while interactive updates hold the events.
        s.onNodesChange = nil
        batches = []
        s.beginInteractiveUpdates()
        try s.moveNode("a", to: Point(3, 3))
        s.onNodesChange = { c in batches.append(c.map(EventLog.describe).joined(separator: ", ")) }
        try s.moveNode("b", to: Point(4, 4))
        #expect(batches.isEmpty)
        s.endInteractiveUpdates()
        #expect(batches == ["position(b (4, 4))"])
        // An observer added inside a transaction (as the only listener) likewise.
        s.onNodesChange = nil
        var observed: [String] = []
        try s.transaction {
            try s.moveNode("a", to: Point(5, 5))
            s.addObserver(nodes: { c in observed.append(c.map(EventLog.describe).joined(separator: ", ")) }, edges: { _ in })
            try s.moveNode("b", to: Point(6, 6))
        }
        #expect(observed == ["position(b (6, 6))"])
        #expect(batches == ["position(b (4, 4))"])
    }

    @Test func removingTheListenerStopsDelivery() throws {
        let s = Store()
        try s.addNode(node("a"))
        try s.addNode(node("b", 300, 0))
        let log = EventLog(s)
        try s.moveNode("a", to: Point(1, 1))
        try s.addEdge(edge("e", "a", "b"))
        #expect(log.take() == ["N[position(a (1, 1))]", "E[add(e)]"])
        s.onNodesChange = nil
        s.onEdgesChange = nil
        try s.moveNode("a", to: Point(2, 2))
        try s.removeEdge("e")
        #expect(Self.noPending(s) && log.take().isEmpty)
        // Removed in the middle of a transaction: nothing is delivered at its end, and
        // nothing is left queued for a later listener.
        let log2 = EventLog(s)
        try s.transaction {
            try s.moveNode("a", to: Point(3, 3))
            s.onNodesChange = nil
            s.onEdgesChange = nil
            try s.moveNode("b", to: Point(4, 4))
        }
        #expect(log2.take().isEmpty && Self.noPending(s))
        let log3 = EventLog(s)
        try s.moveNode("b", to: Point(5, 5))
        #expect(log3.take() == ["N[position(b (5, 5))]"])
    }

    @Test func removingObserversStopsDelivery() throws {
        let s = Store()
        try s.addNode(node("a"))
        try s.addNode(node("b", 300, 0))
        var nodeBatches = 0, edgeBatches = 0
        var previous: [String] = []
        let t1 = s.addObserver(nodes: { _ in nodeBatches += 1 }, edges: { _ in edgeBatches += 1 })
        let t2 = s.addObserver(
            nodes: { _, prev in previous.append(contentsOf: prev.values.map { "\($0.id)@\($0.zIndex)" }) },
            edges: { _, _ in })
        #expect(s.recordsNodeEvents && s.recordsEdgeEvents && t1 != t2)
        try s.moveNode("a", to: Point(1, 1))
        try s.addEdge(edge("e", "a", "b"))
        try s.updateNode("b") { $0.zIndex = 4 }
        #expect(nodeBatches == 2 && edgeBatches == 1 && previous == ["b@0"])
        s.removeObserver(t1)
        try s.moveNode("a", to: Point(2, 2))
        #expect(nodeBatches == 2)
        s.removeObserver(t2)
        #expect(!s.recordsNodeEvents && !s.recordsEdgeEvents)
        try s.updateNode("b") { $0.zIndex = 5 }
        try s.moveNode("a", to: Point(3, 3))
        try s.removeEdge("e")
        #expect(Self.noPending(s))
        #expect(nodeBatches == 2 && edgeBatches == 1 && previous == ["b@0"])
        s.removeObserver(t2)  // twice: no effect
        s.removeObserver(999)
        #expect(s.listeners.observers.isEmpty)
    }
}

// MARK: - Quiet fast paths against the general path

@Suite("Storage: quiet fast paths") struct QuietPathTests {
    typealias Op = (Store) throws -> String

    /// One random operation, chosen from the state of `s` and applicable to any store with
    /// the same content; it returns its result as text.
    static func randomOp(_ s: Store, _ rng: inout SplitMix64, depth: Int = 0) -> (String, Op) {
        let ids = s.nodes.map(\.id)
        let edgeIDs = s.edges.map(\.id)
        func pickNode() -> String { ids.isEmpty || rng.chance(8) ? rng.pick(["zz", "n1", "q"]) : rng.pick(ids) }
        func coord() -> Double { Double(rng.below(160) - 60) * 12.5 }
        switch rng.below(100) {
        case 0..<40:
            let id = pickNode()
            let same = rng.chance(10)
            let p = Point(coord(), coord())
            let viaRef = rng.chance(30)
            return ("move \(id)", { s in
                let target = same ? (s.node(id)?.position ?? p) : p
                if viaRef, let r = s.nodeRef(id) { return "\(try s.moveNode(r, to: target))" }
                return "\(try s.moveNode(id, to: target))"
            })
        case 40..<55:
            let id = rng.chance(80) ? s.nextNodeID() : pickNode()
            let containers = s.nodes.filter(\.acceptsChildren).map(\.id)
            let parent = rng.chance(30) && !containers.isEmpty ? rng.pick(containers) : nil
            let n = node(id, coord(), coord(), 100, 50, parent: parent, container: rng.chance(30), z: rng.below(3))
            return ("add \(id)", { s in try s.addNode(n).id })
        case 55..<62:
            let id = pickNode()
            return ("remove \(id)", { s in try s.removeNode(id); return "" })
        case 62..<69:
            let id = pickNode()
            let z = rng.below(3)
            return ("update \(id)", { s in "\(try s.updateNode(id) { $0.zIndex = z })" })
        case 69..<72:
            let id = pickNode()
            let w = Double(rng.below(4) + 1) * 50
            return ("resize \(id)", { s in "\(try s.updateNodeSize(id, to: Size(w, 40)))" })
        case 72..<78:
            let a = pickNode(), b = pickNode()
            let id = rng.chance(85) ? s.nextEdgeID() : (edgeIDs.first ?? "e1")
            return ("edge \(a)-\(b)", { s in try s.addEdge(edge(id, a, b)).id })
        case 78..<82 where depth == 0:
            let inner = (0..<(rng.below(3) + 1)).map { _ in randomOp(s, &rng, depth: 1) }
            let fail = rng.chance(25)
            return ("transaction \(inner.map(\.0))", { s in
                try s.transaction {
                    var out: [String] = []
                    for (_, op) in inner { out.append(try op(s)) }
                    if fail { throw FlowError.invalidState("test", "rolled back") }
                    return out.joined(separator: ",")
                }
            })
        case 82..<84:
            let snap = rng.chance(50)
            return ("snap \(snap)", { s in
                s.configuration.snapToGrid = snap
                s.configuration.gridSize = 25
                return ""
            })
        case 84..<85:
            let on = rng.chance(70)
            return ("undo enabled \(on)", { s in s.isUndoEnabled = on; return "" })
        case 85..<94 where depth == 0:
            return ("undo", { s in "\(try s.undo())" })
        default:
            if depth > 0 { return ("move", { s in "\(try s.moveNode(ids.first ?? "zz", to: Point(1, 2)))" }) }
            return ("redo", { s in "\(try s.redo())" })
        }
    }

    static func run(_ op: Op, on s: Store) -> String {
        do { return try op(s) } catch { return "error: \(error)" }
    }

    /// Everything observable that the two paths must agree on.
    static func picture(_ s: Store) throws -> String {
        let state = StoreState(s)
        return try s.export() + "\n\(state.nodes)\n\(state.selectedNodes) \(state.selectedEdges)"
            + "\nundo \(s.log.undoLog.count) \(s.undoActionName ?? "-") redo \(s.log.redoLog.count) \(s.redoActionName ?? "-")"
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func quietAndObservedStoresBehaveTheSame(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let quiet = Store(), general = Store()
        var delivered = 0
        general.addObserver(nodes: { _ in delivered += 1 }, edges: { _ in })
        #expect(quiet.isQuietTopLevel && !general.isQuietTopLevel)
        for step in 0..<400 {
            let (name, op) = Self.randomOp(quiet, &rng)
            let a = Self.run(op, on: quiet), b = Self.run(op, on: general)
            #expect(a == b, "step \(step) \(name): results differ")
            let pa = try Self.picture(quiet), pb = try Self.picture(general)
            if pa != pb {
                Issue.record("step \(step) \(name): the stores differ\n\(pa)\n---\n\(pb)")
                return
            }
            #expect(Self.noPending(quiet), "step \(step) \(name)")
        }
        #expect(delivered > 50 && quiet.nodeCount > 5)
        // The histories replay the same way to the start and back.
        quiet.isUndoEnabled = true
        general.isUndoEnabled = true
        for (name, op) in (0..<150).map({ _ in Self.randomOp(quiet, &rng, depth: 1) }) where !name.hasPrefix("undo") {
            _ = Self.run(op, on: quiet)
            _ = Self.run(op, on: general)
        }
        var steps = 0
        while quiet.canUndo {
            #expect(try quiet.undo() == general.undo())
            #expect(try Self.picture(quiet) == Self.picture(general), "undo \(steps)")
            steps += 1
        }
        #expect(!general.canUndo && steps > 50)
        while quiet.canRedo {
            #expect(try quiet.redo() == general.redo())
            #expect(try Self.picture(quiet) == Self.picture(general))
        }
        #expect(!general.canRedo)
        #expect(quiet.checkInvariants().isEmpty && general.checkInvariants().isEmpty)
    }

    static func noPending(_ s: Store) -> Bool { s.log.pendingNodeChanges.isEmpty && s.log.pendingEdgeChanges.isEmpty }

    /// The quiet moveNode/addNode write the same undo steps as the general path: one
    /// "Move"/"Add" step, none for a move to where the node is, none with undo off, and a
    /// new step clears the redo history.
    @Test func quietStepsAreTheGeneralSteps() throws {
        for observed in [false, true] {
            let s = Store()
            if observed { s.addObserver(nodes: { _ in }, edges: { _ in }) }
            try s.addNode(node("a"))
            try s.addNode(node("b", 300, 0))
            #expect(s.log.undoLog.count == 2 && s.undoActionName == "Add")
            #expect(try s.moveNode("a", to: Point(10, 10)))
            #expect(s.log.undoLog.count == 3 && s.undoActionName == "Move")
            #expect(try s.moveNode("a", to: Point(10, 10)) == false)
            #expect(s.log.undoLog.count == 3)
            try s.undo()
            #expect(s.canRedo && s.node("a")?.position == .zero)
            #expect(try s.moveNode("b", to: Point(1, 1)))
            #expect(!s.canRedo && s.log.undoLog.count == 3)
            s.configuration.snapToGrid = true
            s.configuration.gridSize = 10
            #expect(try s.moveNode("b", to: Point(14, 16)))
            #expect(s.node("b")?.position == Point(10, 20))
            #expect(try s.moveNode("b", to: Point(11, 19)) == false)  // snaps to where it is
            s.isUndoEnabled = false
            #expect(try s.moveNode("a", to: Point(50, 50)))
            try s.addNode(node("c", 600, 0))
            #expect(!s.canUndo && !s.canRedo)
            s.isUndoEnabled = true
            try s.addNode(node("d", 900, 0))
            try s.undo()
            #expect(s.node("d") == nil && s.node("c") != nil && s.redoActionName == "Add")
            #expect(s.checkInvariants().isEmpty, "observed \(observed)")
        }
    }
}
