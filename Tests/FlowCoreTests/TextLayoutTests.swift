import Testing

@testable import FlowCore

/// The deterministic text metrics and the line breaking both the store and the renderer use.
@Suite struct TextLayoutTests {
    @Test func widthsScaleWithTheFont() {
        #expect(TextMetrics.width(of: "abc") == 21)
        #expect(TextMetrics.width(of: "日本") == 24)
        #expect(TextMetrics.width(of: "abc", font: TextFont(size: 24)) == 42)
        #expect(abs(TextMetrics.width(of: "ab", font: TextFont(size: 12, bold: true)) - 15.4) < 1e-9)
    }

    @Test func explicitLineBreaksAreKept() {
        #expect(TextMetrics.paragraphs("line one\nline two") == ["line one", "line two"])
        #expect(TextMetrics.paragraphs("a\r\nb\rc\n") == ["a", "b", "c", ""])
        #expect(TextMetrics.paragraphs("tab\there") == ["tab here"])
        let l = TextLayout.wrapped("line one\nline two", maxWidth: 500)
        #expect(l.lines == ["line one", "line two"])
        #expect(l.width == 56)
        #expect(l.height == 30)
    }

    @Test func wrappingAtSpaces() {
        // 7 px a character: 70 px hold 10 characters
        let l = TextLayout.wrapped("Appoint incident commander", maxWidth: 70)
        #expect(l.lines == ["Appoint", "incident", "commander"])
        #expect(TextLayout.wrapped("one two three", maxWidth: 63).lines == ["one two", "three"])
        // spaces at a break are dropped, never carried to the next line
        #expect(TextLayout.wrapped("ab    cd", maxWidth: 28).lines == ["ab", "cd"])
        // a line that fills the width exactly breaks at the space after it
        #expect(TextLayout.wrapped("abcd efg", maxWidth: 28).lines == ["abcd", "efg"])
    }

    @Test func longWordsBreakBetweenCharacters() {
        #expect(TextLayout.wrapped("abcdefghij", maxWidth: 28).lines == ["abcd", "efgh", "ij"])
        // a character wider than the line still takes a line of its own
        #expect(TextLayout.wrapped("日本", maxWidth: 10).lines == ["日", "本"])
    }

    @Test func cjkBreaksAnywhere() {
        // 12 px a wide character: 36 px hold three
        #expect(TextLayout.wrapped("東京都渋谷区神南", maxWidth: 36).lines == ["東京都", "渋谷区", "神南"])
        // next to a wide character a line may break, in Latin words only at spaces
        #expect(TextLayout.wrapped("abc東京", maxWidth: 40).lines == ["abc東", "京"])
    }

    @Test func cuttingToALineLimit() {
        let l = TextLayout.fitted("one two three four", maxWidth: 63, maxLines: 2)!
        #expect(l.lines == ["one two", "three…"])
        #expect(l.isTruncated)
        // "…" added when it fits, else the line is shortened for it
        #expect(TextLayout.fitted("abcdefgh ij", maxWidth: 56, maxLines: 1)!.lines == ["abcdefg…"])
        #expect(TextLayout.fitted("fits", maxWidth: 100, maxLines: 1)!.isTruncated == false)
        #expect(TextLayout.fitted("", maxWidth: 100, maxLines: 1) == nil)
        #expect(TextLayout.fitted("abc", maxWidth: 100, maxLines: 0) == nil)
        #expect(TextLayout.fitted("abc", maxWidth: 5, maxLines: 1) == nil)
    }

    @Test func titlesFitTheShape() throws {
        let f = Rect(0, 0, 150, 60)
        // a rounded node holds three lines of 134 px
        let l = try #require(
            TitleLayout.layout("Appoint incident commander", font: .standard, shape: .rounded, frame: f, isContainer: false))
        #expect(l.lines == ["Appoint incident", "commander"])
        // a diamond is narrower the more lines it holds: one line of 96.5 px, two of 59 px
        let d = try #require(
            TitleLayout.layout("Ship order?", font: .standard, shape: .diamond, frame: f, isContainer: false))
        #expect(d.lines == ["Ship order?"])
        let d2 = try #require(
            TitleLayout.layout("Approve order?", font: .standard, shape: .diamond, frame: f, isContainer: false))
        #expect(d2.lines == ["Approve", "order?"])
        let cut = try #require(
            TitleLayout.layout(
                "a rather long question for a diamond", font: .standard, shape: .diamond, frame: f, isContainer: false))
        #expect(cut.isTruncated)
        // nodes lower than the font show no title
        #expect(TitleLayout.layout("x", font: .standard, shape: .rounded, frame: Rect(0, 0, 100, 11), isContainer: false) == nil)
    }

    @Test(arguments: NodeShape.allCases)
    func fittingSizesShowTheWholeTitle(_ shape: NodeShape) throws {
        let round = shape == .circle || shape == .doublecircle
        for title in [
            "Start", "Appoint incident commander", "line one\nline two\nline three\nline four",
            "データベースのバックアップを取得する", "Supercalifragilisticexpialidocious-and-then-some",
        ] {
            for container in [false, true] {
                let size = TitleLayout.fittingSize(
                    title, font: .standard, shape: shape, isContainer: container, wrapWidth: 200,
                    minimum: Size(150, 60))
                #expect(size.width == size.width.rounded() && size.height == size.height.rounded())
                if round && !container { #expect(size.width == size.height) }
                #expect(size.height >= 60 && size.width >= (round ? 60 : 150))
                let l = try #require(
                    TitleLayout.layout(
                        title, font: .standard, shape: shape, frame: Rect(origin: .zero, size: size),
                        isContainer: container))
                #expect(!l.isTruncated, "\(shape) \(title) in \(size)")
            }
        }
        // a short title keeps the minimum
        let small = TitleLayout.fittingSize(
            "Start", font: .standard, shape: shape, isContainer: false, wrapWidth: 200, minimum: Size(150, 60))
        #expect(small == (round ? Size(60, 60) : Size(150, 60)))
    }
}
