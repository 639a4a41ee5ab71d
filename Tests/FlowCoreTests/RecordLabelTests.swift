import Testing

@testable import FlowCore

/// Record labels: Graphviz's field syntax parsed, laid out and drawn from.
@Suite struct RecordLabelTests {
    @Test func fieldsPortsAndNesting() {
        let r = RecordLabel.parse("<f0> left|<f1> mid\\ dle|{ b |{c|<here> d|e}| f}")
        #expect(r.horizontal)
        #expect(r.children.count == 3)
        #expect(r.children[0].port == "f0")
        #expect(r.children[0].lines == ["left"])
        // an escaped space is kept, the spaces around a field's text are not
        #expect(r.children[1].lines == ["mid dle"])
        // braces flip the direction, twice back again
        let column = r.children[2]
        #expect(!column.horizontal)
        #expect(column.children.map(\.isGroup) == [false, true, false])
        #expect(column.children[1].horizontal)
        #expect(RecordLabel.field(named: "here", in: r)?.lines == ["d"])
        #expect(RecordLabel.field(named: "nope", in: r) == nil)
    }

    @Test func escapesAndLineBreaks() {
        let r = RecordLabel.parse("a\\|b\\{c\\}|two\\nlines\\l")
        #expect(r.children.map(\.lines) == [["a|b{c}"], ["two", "lines"]])
        // an unmatched brace does not end the record; a missing one is supplied
        #expect(RecordLabel.parse("a}|b").children.count == 2)
        #expect(RecordLabel.parse("{a|b").children.first?.children.count == 2)
    }

    @Test func layoutSharesTheRoomAndDrawsSeparators() {
        let font = TextFont.standard
        let r = RecordLabel.parse("a|bbbbbbbbbb|{c|d}")
        let natural = RecordLabel.naturalSize(r, font: font)
        let laid = RecordLabel.layout(r, in: Rect(10, 20, natural.width + 30, natural.height), font: font)
        // each field its natural width and a third of the 30 left over
        let a = laid.children[0].frame, b = laid.children[1].frame
        #expect(a.x == 10)
        #expect(abs(a.width - (RecordLabel.naturalSize(r.children[0], font: font).width + 10)) < 1e-9)
        #expect(abs(b.x - a.maxX) < 1e-9)
        #expect(laid.children[2].children[1].frame.maxY == 20 + natural.height)
        // two lines between the three fields, one across the column
        #expect(RecordLabel.separators(laid).count == 3)
        #expect(RecordLabel.leaves(laid).map(\.lines) == [["a"], ["bbbbbbbbbb"], ["c"], ["d"]])
    }

    @Test func handlesWithAnOffsetSitOverTheirPlace() {
        let f = Rect(0, 0, 200, 40)
        let h = HandleDeclaration(id: "p", type: .source, position: .bottom, offset: -0.25)
        #expect(h.point(on: .record, in: f) == Point(50, 40))
        let v = HandleDeclaration(id: "q", type: .target, position: .left, offset: 0.25)
        #expect(v.point(on: .rectangle, in: f) == Point(0, 30))
        #expect(HandleDeclaration(id: "c", type: .target, position: .top).point(on: .record, in: f) == Point(100, 0))
    }

    @Test func recordsSizeToTheirFields() {
        let size = TitleLayout.fittingSize(
            "a|b|c", font: .standard, shape: .record, isContainer: false, wrapWidth: 200, minimum: Size(54, 36))
        // three fields of one narrow character and padding, side by side
        #expect(size.width == (3 * (TextMetrics.width(of: "a") + 16)).rounded(.up))
        #expect(size.height == 36)
    }
}
