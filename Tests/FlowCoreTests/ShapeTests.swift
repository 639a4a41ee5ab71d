import Testing

@testable import FlowCore

/// Node shapes: outlines for hit testing, handles on the outline.
@Suite struct ShapeTests {
    let frame = Rect(0, 0, 100, 60)

    @Test func outlines() {
        // the frame's test is half-open for every shape
        for shape in NodeShape.allCases {
            #expect(!shape.contains(Point(100, 30), in: frame), "\(shape)")
            #expect(shape.contains(Point(50, 30), in: frame), "\(shape)")
        }
        // rounded and rectangle count their whole frame, corners included
        #expect(NodeShape.rounded.contains(Point(0, 0), in: frame))
        #expect(NodeShape.rectangle.contains(Point(99, 59), in: frame))
        // the corners of the bounding box are outside the other outlines
        // (a subroutine is a box; an asymmetric flag keeps its corners, its notch is outside)
        let boxes: [NodeShape] = [.rounded, .rectangle, .record, .mrecord, .plain, .msquare, .box3d, .component, .tab, .folder, .subroutine, .asymmetric]
        #expect(!NodeShape.asymmetric.contains(Point(5, 30), in: frame))
        #expect(NodeShape.asymmetric.contains(Point(5, 5), in: frame))
        for shape in NodeShape.allCases where !boxes.contains(shape) {
            let corners = [Point(1, 1), Point(99, 1), Point(1, 59), Point(99, 59)]
            #expect(corners.contains { !shape.contains($0, in: frame) }, "\(shape)")
        }
        #expect(NodeShape.diamond.contains(Point(25, 30), in: frame))
        #expect(!NodeShape.diamond.contains(Point(20, 10), in: frame))
        #expect(NodeShape.ellipse.contains(Point(50, 1), in: frame))
        #expect(!NodeShape.ellipse.contains(Point(10, 5), in: frame))
        // a circle is as wide as the frame is high, centred
        #expect(!NodeShape.circle.contains(Point(15, 30), in: frame))
        #expect(NodeShape.circle.contains(Point(25, 30), in: frame))
        // the wave of a document: lowest near the left, highest near the right
        #expect(NodeShape.document.contains(Point(20, 58), in: frame))
        #expect(!NodeShape.document.contains(Point(80, 56), in: frame))
        #expect(!NodeShape.note.contains(Point(99, 0), in: frame))
        #expect(!NodeShape.parallelogram.contains(Point(2, 2), in: frame))
        #expect(!NodeShape.cylinder.contains(Point(1, 1), in: frame))
        #expect(NodeShape.cylinder.contains(Point(50, 1), in: frame))
    }

    @Test func handlesSitOnTheOutline() {
        let f = Rect(0, 0, 100, 60)
        for shape in NodeShape.allCases {
            for side in [HandlePosition.top, .bottom, .left, .right] {
                let p = shape.handlePoint(side, in: f)
                // on the outline: inside when moved a little towards the centre, outside
                // when moved a little away from it
                let inward = Point(p.x - side.direction.x * 0.5, p.y - side.direction.y * 0.5)
                let outward = Point(p.x + side.direction.x * 0.5, p.y + side.direction.y * 0.5)
                #expect(shape.contains(inward, in: f), "\(shape) \(side)")
                #expect(!shape.contains(outward, in: f), "\(shape) \(side)")
            }
            #expect(shape.handlePoint(.center, in: f) == Point(50, 30))
        }
        let tall = Rect(0, 0, 60, 100)
        #expect(NodeShape.circle.handlePoint(.top, in: tall) == Point(30, 20))
        #expect(NodeShape.parallelogram.handlePoint(.left, in: f) == Point(9, 30))
        #expect(NodeShape.document.handlePoint(.bottom, in: f) == Point(50, 54))
    }

    @Test func hitTestingFollowsTheShape() throws {
        let store = Store()
        var d = node("d", 0, 0, 100, 60)
        d.shape = .diamond
        try store.addNode(d)
        // inside the bounding box, outside the diamond
        #expect(store.hitTestNode(at: Point(10, 8)) == nil)
        #expect(store.hitTest(at: Point(10, 8)) == nil)
        #expect(store.hitTestNode(at: Point(50, 30))?.id == "d")
        // a node behind the diamond's empty corner is hit through it
        try store.addNode(node("behind", -50, -50, 70, 70, z: -1))
        #expect(store.hitTestNode(at: Point(10, 8))?.id == "behind")
    }

    @Test func edgesAttachToTheOutline() throws {
        let store = Store()
        var a = node("a", 0, 0, 60, 100)
        a.shape = .circle
        try store.addNode(a)
        try store.addNode(node("b", 0, 300))
        try store.addEdge(FlowEdge(id: "e", sourceNodeID: "a", sourceHandleID: "source", targetNodeID: "b", targetHandleID: "target"))
        #expect(try store.edgeGeometry("e").sourcePoint == Point(30, 80))
        // a class that gives the shape moves the handle too
        try store.updateNode("a") { $0.shape = nil; $0.classes = ["round"] }
        #expect(try store.edgeGeometry("e").sourcePoint == Point(30, 100))
        try store.setClassStyles(["round": FlowClass(shape: .circle)])
        #expect(try store.edgeGeometry("e").sourcePoint == Point(30, 80))
        #expect(store.hitTestHandle(at: Point(30, 80))?.nodeID == "a")
        try store.undo()
        #expect(try store.edgeGeometry("e").sourcePoint == Point(30, 100))
    }
}
