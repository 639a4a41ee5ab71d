import TestSupport
import Testing
@testable import FlowCore

@Suite("Hit testing") struct HitTestingTests {
    @Test func frontMostNodeWins() throws {
        let s = Store()
        try s.addNode(node("a", 0, 0, 100, 50, z: 0))
        try s.addNode(node("b", 50, 25, 100, 50, z: 1))
        #expect(s.hitTestNode(at: Point(75, 40))?.id == "b")
        try s.updateNode("b") { $0.zIndex = -1 }
        #expect(s.hitTestNode(at: Point(75, 40))?.id == "a")
        try s.updateNode("b") { $0.zIndex = 0 }
        #expect(s.hitTestNode(at: Point(75, 40))?.id == "b")  // later in store order
    }

    @Test func containsIsHalfOpen() throws {
        let s = Store()
        try s.addNode(node("a", 0, 0, 100, 50))
        #expect(s.hitTestNode(at: Point(100, 25)) == nil)
        #expect(s.hitTestNode(at: Point(0, 0))?.id == "a")
        #expect(s.hitTestNode(at: Point(99.999, 49.999))?.id == "a")
    }

    @Test func handleRadiusIsStrict() throws {
        let s = Store()
        try s.addNode(node("a", 0, 0, 100, 50))  // source handle at (50, 50)
        #expect(s.hitTestHandle(at: Point(50, 74.99))?.handleID == "source")
        #expect(s.hitTestHandle(at: Point(50, 75)) == nil)
    }

    @Test func customAreasAreHonoured() throws {
        let s = Store()
        let handles = [
            HandleDeclaration(id: "big", type: .source, position: .right, connectionStartArea: .point(radius: 60)),
            HandleDeclaration(id: "off", type: .target, position: .left, connectionStartArea: .disabled),
        ]
        try s.addNode(node("a", 0, 0, 100, 50, handles: handles))
        #expect(s.hitTestHandle(at: Point(150, 25))?.handleID == "big")  // 50 away, beyond 25
        #expect(s.hitTestHandle(at: Point(0, 25))?.handleID != "off")
        let border = [HandleDeclaration(id: "b", type: .source, position: .top, connectionStartArea: .nodeBorder(width: 6))]
        try s.addNode(node("c", 300, 0, 100, 50, handles: border))
        #expect(s.hitTestHandle(at: Point(395, 25))?.handleID == "b")
        #expect(s.hitTestHandle(at: Point(350, 25)) == nil)
        #expect(s.hitTestHandle(at: Point(404, 25))?.handleID == "b")
    }

    @Test func nearestHandleOfTheOppositeType() throws {
        let s = Store()
        try s.addNode(node("a", 0, 0, 100, 50))
        try s.addNode(node("b", 0, 100, 100, 50))  // target at (50, 100)
        let hit = s.findNearestHandle(at: Point(50, 70), excludingNodeID: "a", type: .target)
        #expect(hit?.nodeID == "b" && hit?.handleID == "target")
        #expect(s.findNearestHandle(at: Point(50, 60), excludingNodeID: "a", type: .target) == nil)  // 40 away
    }

    @Test func nodesInRectMatchesBruteForceOnRandomNodes() throws {
        let s = Store()
        s.checksInvariants = false
        var rng = SplitMix64(seed: 42)
        for i in 0..<10_000 {
            let w = Double.random(in: 1...400, using: &rng)
            let h = Double.random(in: 1...300, using: &rng)
            try s.addNode(node("n\(i)", Double.random(in: -20_000...20_000, using: &rng),
                               Double.random(in: -20_000...20_000, using: &rng), w, h,
                               z: Int.random(in: -2...2, using: &rng)))
        }
        for i in stride(from: 0, to: 10_000, by: 7) { try s.removeNode("n\(i)") }
        for i in stride(from: 1, to: 10_000, by: 11) where s.node("n\(i)") != nil {
            try s.moveNode("n\(i)", to: Point(Double(i), -Double(i)))
        }
        #expect(s.checkInvariants().isEmpty)
        let all = s.nodes
        for _ in 0..<200 {
            let r = Rect(Double.random(in: -21_000...21_000, using: &rng), Double.random(in: -21_000...21_000, using: &rng),
                         Double.random(in: 0...3000, using: &rng), Double.random(in: 0...3000, using: &rng))
            #expect(s.nodesInRect(r).map(\.id) == all.filter { $0.frame.intersects(r) }.map(\.id))
            let p = Point(Double.random(in: -20_000...20_000, using: &rng), Double.random(in: -20_000...20_000, using: &rng))
            let brute = all.filter { $0.frame.contains(p) }.max { a, b in s.isInFront(b, a) }
            #expect(s.hitTestNode(at: p)?.id == brute?.id)
        }
        var b = all[0].frame
        for n in all { b = b.union(n.frame) }
        let nb = s.nodeBounds()
        #expect(nb.minX == b.minX && nb.minY == b.minY)
        #expect(abs(nb.maxX - b.maxX) < 1e-9 && abs(nb.maxY - b.maxY) < 1e-9)
    }
    @Test func edgeHitTestMatchesBruteForceOnRandomEdges() throws {
        let s = Store()
        s.checksInvariants = false
        var rng = SplitMix64(seed: 7)
        for i in 0..<1_500 {
            try s.addNode(node("n\(i)", Double.random(in: 0...6_000, using: &rng), Double.random(in: 0...6_000, using: &rng),
                               Double.random(in: 20...200, using: &rng), Double.random(in: 20...120, using: &rng)))
        }
        let types = EdgePathType.allCases
        for i in 0..<1_200 {
            let a = Int.random(in: 0..<1_500, using: &rng), b = Int.random(in: 0..<1_500, using: &rng)
            var e = edge("e\(i)", "n\(a)", "n\(b == a ? (a + 1) % 1_500 : b)")
            e.pathType = types[i % types.count]
            try s.addEdge(e)
        }
        for i in stride(from: 0, to: 1_500, by: 13) { try s.moveNode("n\(i)", to: Point(Double(i * 4), Double(6_000 - i * 4))) }
        let edges = s.edges
        let paths = edges.map { s.edgeGeometry(of: $0)?.path }
        var hits = 0
        for k in 0..<500 {
            let p: Point
            if k % 2 == 0, let g = paths[k % paths.count] {
                // near the middle of a path's bounds, where most paths pass
                let r = g.bounds
                p = Point(r.midX + Double.random(in: -8...8, using: &rng), r.midY + Double.random(in: -8...8, using: &rng))
            } else {
                p = Point(Double.random(in: -100...6_300, using: &rng), Double.random(in: -100...6_300, using: &rng))
            }
            let t = s.configuration.edgeHitTolerance
            let brute = Array(zip(edges, paths)).last { $0.1.map { $0.distance(to: p) < t } ?? false }?.0
            #expect(s.hitTestEdge(at: p)?.id == brute?.id)
            if brute != nil { hits += 1 }
        }
        #expect(hits > 60)  // the sample really exercises hits, not only misses
    }
    @Test func edgeQueriesFollowMovedNodes() throws {
        let s = Store()
        try s.addNode(node("a", 0, 0, 100, 40))
        try s.addNode(node("b", 0, 300, 100, 40))
        try s.addEdge(FlowEdge(id: "e", sourceNodeID: "a", targetNodeID: "b", pathType: .straight))
        #expect(s.hitTestEdge(at: Point(50, 170))?.id == "e")
        try s.moveNode("b", to: Point(600, 0))  // the edge now runs from (50, 40) to (650, 0)
        #expect(s.checkInvariants().isEmpty)
        #expect(s.hitTestEdge(at: Point(50, 170)) == nil)
        #expect(s.hitTestEdge(at: Point(350, 20))?.id == "e")
        #expect(try s.selectInRect(Rect(340, 10, 20, 20)))
        #expect(s.selectedEdgeIDs == ["e"])
        try s.undo()  // the move (selection is not an undo step)
        #expect(s.edgeCount == 1 && s.node("b")?.position == Point(0, 300))
        #expect(s.hitTestEdge(at: Point(350, 20)) == nil)
        #expect(s.hitTestEdge(at: Point(50, 170))?.id == "e")
        #expect(s.checkInvariants().isEmpty)
    }
}

@Suite("Connections") struct ConnectionTests {
    func twoNodes() throws -> Store {
        let s = Store()
        try s.addNode(node("a", 0, 0, 100, 50))
        try s.addNode(node("b", 0, 200, 100, 50))
        return s
    }

    @Test func dragFromSourceAddsTheEdgeWithoutAHandler() throws {
        let s = try twoNodes()
        try s.interaction.beginConnection(nodeID: "a", handleID: "source")
        #expect(s.interaction.connectionDraft?.currentPoint == Point(50, 50))
        #expect(s.selectedNodeIDs == ["a"])
        #expect(throws: FlowError.self) { try s.interaction.beginConnection(nodeID: "b", handleID: "target") }
        let t = try s.interaction.updateConnection(to: Point(55, 190))
        #expect(t?.nodeID == "b" && t?.handleID == "target")
        #expect(try s.interaction.endConnection())
        #expect(s.edges.map { "\($0.id) \($0.sourceNodeID).\($0.sourceHandleID!)->\($0.targetNodeID).\($0.targetHandleID!)" } == ["e1 a.source->b.target"])
        #expect(s.interaction.connectionDraft == nil && s.interaction.activeInteraction == nil)
        try s.undo()
        #expect(s.edgeCount == 0)
    }

    @Test func dragFromTargetIsTurnedAround() throws {
        let s = try twoNodes()
        var got: ConnectionProposal?
        s.onConnect = { got = $0 }
        try s.interaction.beginConnection(nodeID: "b", handleID: "target")
        try s.interaction.updateConnection(to: Point(50, 60))
        #expect(try s.interaction.endConnection())
        #expect(got == ConnectionProposal(sourceNodeID: "a", sourceHandleID: "source", targetNodeID: "b", targetHandleID: "target"))
        #expect(s.edgeCount == 0)
    }

    @Test func selfLoopsAreRejectedByDefault() throws {
        let s = try twoNodes()
        var rejected: ConnectionProposal?
        s.onConnectionRejected = { rejected = $0 }
        try s.interaction.beginConnection(nodeID: "a", handleID: "source")
        #expect(try s.interaction.endConnection(targetNodeID: "a", targetHandleID: "target") == false)
        #expect(rejected?.targetNodeID == "a")
        s.connectionValidator = { _ in true }
        try s.interaction.beginConnection(nodeID: "a", handleID: "source")
        #expect(try s.interaction.endConnection(targetNodeID: "a", targetHandleID: "target"))
        #expect(s.edgeCount == 1)
    }

    @Test func releasingOverNothingCancelsWithoutCallbacks() throws {
        let s = try twoNodes()
        var calls = 0
        s.onConnect = { _ in calls += 1 }
        s.onConnectionRejected = { _ in calls += 1 }
        try s.interaction.beginConnection(nodeID: "a", handleID: "source")
        try s.interaction.updateConnection(to: Point(500, 500))
        #expect(try s.interaction.endConnection() == false)
        #expect(calls == 0 && s.interaction.connectionDraft == nil)
        #expect(throws: FlowError.self) { try s.interaction.endConnection() }
        #expect(throws: FlowError.self) { try s.interaction.updateConnection(to: .zero) }
        #expect(s.interaction.cancelConnection() == false)
    }

    @Test func removingTheSourceDropsTheDraft() throws {
        let s = try twoNodes()
        try s.interaction.beginConnection(nodeID: "a", handleID: "source")
        try s.interaction.updateConnection(to: Point(50, 195))
        try s.removeNode("b")
        #expect(s.interaction.connectionDraft?.targetNodeID == nil)
        try s.removeNode("a")
        #expect(s.interaction.connectionDraft == nil && s.interaction.activeInteraction == nil)
    }
}

@Suite("Edge hit testing and drop targets") struct EdgeHitTests {
    /// Two nodes joined by a straight edge along y = 25 from (100, 25) to (300, 25).
    func straight() throws -> Store {
        let s = Store()
        let right = [HandleDeclaration(id: "out", type: .source, position: .right)]
        let left = [HandleDeclaration(id: "in", type: .target, position: .left)]
        try s.addNode(node("a", 0, 0, 100, 50, handles: right))
        try s.addNode(node("b", 300, 0, 100, 50, handles: left))
        try s.addEdge(FlowEdge(id: "e", sourceNodeID: "a", sourceHandleID: "out", targetNodeID: "b", targetHandleID: "in", pathType: .straight))
        return s
    }

    @Test func toleranceIsStrict() throws {
        let s = try straight()
        #expect(s.hitTestEdge(at: Point(200, 29.9))?.id == "e")
        #expect(s.hitTestEdge(at: Point(200, 30.1)) == nil)
        #expect(s.hitTest(at: Point(200, 27)) == .edge("e"))
        #expect(s.hitTest(at: Point(50, 10)) == .node("a"))
        #expect(s.hitTest(at: Point(100, 30)) == .handle(nodeID: "a", handleID: "out", type: .source, position: .right))
        #expect(s.hitTest(at: Point(200, 200)) == nil)
    }

    @Test func lastAddedIsOnTopAndMovesFollowNodes() throws {
        let s = try straight()
        try s.addEdge(FlowEdge(id: "f", sourceNodeID: "a", sourceHandleID: "out", targetNodeID: "b", targetHandleID: "in", pathType: .straight))
        #expect(s.hitTestEdge(at: Point(200, 25))?.id == "f")
        try s.moveNode("b", to: Point(300, 400))
        #expect(s.hitTestEdge(at: Point(200, 25)) == nil)
        #expect(s.checkInvariants().isEmpty)
        try s.undo()
        #expect(s.hitTestEdge(at: Point(200, 25))?.id == "f")
    }

    @Test func edgeGeometryOfAStraightEdge() throws {
        let s = try straight()
        let g = try s.edgeGeometry("e")
        #expect(g.sourcePoint == Point(100, 25) && g.targetPoint == Point(300, 25))
        #expect(g.labelPosition == Point(200, 25))
        #expect(g.path.svgPathData == "M 100 25 L 300 25")
        #expect(throws: FlowError.unknownEdge("edgeGeometry", "x")) { try s.edgeGeometry("x") }
    }

    @Test func dropTargetFollowsTheAcceptResult() throws {
        let s = try straight()
        var seen: [DropEvent] = []
        #expect(try s.interaction.dragOver(at: Point(50, 25)) { seen.append($0); return true })
        #expect(s.dropTargetNodeID == "a" && s.hoveredNodeID == "a" && s.node("a")?.isDropTarget == true)
        #expect(try s.interaction.dragOver(at: Point(200, 25)) { seen.append($0); return true } )
        #expect(s.dropTargetNodeID == nil && s.dropTargetEdgeID == "e" && s.hoveredNodeID == nil)
        #expect(try s.interaction.dragOver(at: Point(200, 25)) { _ in false } == false)
        #expect(s.dropTargetEdgeID == nil)
        #expect(seen.map(\.target) == [.node("a"), .edge("e")])
        try s.interaction.dragOver(at: Point(50, 25)) { _ in true }
        #expect(try s.interaction.drop(at: Point(50, 25)) { $0.target == .node("a") })
        #expect(s.dropTargetNodeID == nil && s.hoveredNodeID == "a")
        var exited = false
        s.interaction.dragExit { exited = true }
        #expect(exited && s.hoveredNodeID == nil)
        try s.setDropTargetEdge("e")
        try s.removeEdge("e")
        #expect(s.dropTargetEdgeID == nil)
    }
}

@Suite("Handle hit testing at scale") struct HandleHitScaleTests {
    /// The reference: every node front to back, handles in declaration order, a candidate
    /// accepted only when strictly nearer than the best so far.
    func bruteForce(_ s: Store, _ frontToBack: [FlowNode<JSONValue>], _ p: Point) -> (String, String)? {
        var best: (String, String)?
        var bestD = Double.infinity
        for n in frontToBack {
            for h in n.handles {
                let a = h.connectionStartArea ?? .point(radius: s.configuration.handleHitRadius)
                if let d = a.hitDistance(p, handlePoint: h.position.point(in: n.frame), frame: n.frame), d < bestD {
                    bestD = d
                    best = (n.id, h.id)
                }
            }
        }
        return best
    }

    @Test func matchesAFrontToBackScanOnRandomNodes() throws {
        let s = Store()
        s.checksInvariants = false
        var rng = SplitMix64(seed: 7)
        let areas: [HandleHitArea?] = [nil, nil, .point(radius: 40), .node, .nodeBorder(width: 6), .disabled]
        for i in 0..<2_000 {
            var handles = HandleDeclaration.defaults
            if i % 3 == 0 {
                handles.append(HandleDeclaration(
                    id: "x", type: .source, position: [.left, .right, .center].randomElement(using: &rng)!,
                    connectionStartArea: areas.randomElement(using: &rng)!))
            }
            // Coordinates on a coarse lattice, so equal distances (ties) happen.
            try s.addNode(node("n\(i)", Double(Int.random(in: 0...60, using: &rng)) * 25,
                               Double(Int.random(in: 0...60, using: &rng)) * 25, 50, 50,
                               z: Int.random(in: -1...1, using: &rng), handles: handles))
        }
        let order = s.nodes.sorted(by: s.isInFront)
        for _ in 0..<300 {
            let p = Point(Double(Int.random(in: 0...600, using: &rng)) * 2.5, Double(Int.random(in: 0...600, using: &rng)) * 2.5)
            let fast = s.hitTestHandle(at: p).map { ($0.nodeID, $0.handleID) }
            let slow = bruteForce(s, order, p)
            #expect(fast?.0 == slow?.0 && fast?.1 == slow?.1, "at \(p)")
        }
    }
}
