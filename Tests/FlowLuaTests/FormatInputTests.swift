import Testing

@testable import FlowLua

/// Issue #43 through the binding: `flow.decode`, `flow.open` and `store:load` refuse
/// invalid UTF-8, take `maximumEdges`, keep an exported zoom, and a DOT string of many
/// `+` pieces fails cleanly, in the sandbox too.
@Suite struct FormatInputTests {
    @Test func invalidUTF8IsRefusedNotMerged() {
        let t = StoreHost()
        // two ids that differ only in their invalid bytes used to become one node (U+FFFD)
        let doc = #"'{"version":1,"nodes":[{"id":"a\xff","position":[0,0],"size":[1,1]},{"id":"a\xfe","position":[0,0],"size":[1,1]}],"edges":[],"viewport":{"offset":[0,0],"zoom":1}}'"#
        #expect(t.eval("return flow.decode(\(doc))") == "nil\tdecode: the text is not valid UTF-8 (invalid byte at offset 30)")
        #expect(t.eval("return flow.decode('digraph { \"a\\xff\" -> b }', {format = 'dot'})") == "nil\tdecode: the text is not valid UTF-8 (invalid byte at offset 12)")
        #expect(t.eval("local s = flow.newStore() s:addNode{id = 'k'} local ok, e = s:load(\(doc)) return ok, e, s.nodeCount") == "nil\tload: the text is not valid UTF-8 (invalid byte at offset 30)\t1")
        #expect(t.eval("""
            local path = os.tmpname() .. '.mmd'
            local f = io.open(path, 'wb') f:write('flowchart LR\\n\\xc3 --> b\\n') f:close()
            local s, e = flow.open(path) os.remove(path)
            return s, (e:gsub('/.*%.mmd', 'x.mmd'))
            """) == "nil\topen: x.mmd is not valid UTF-8 (invalid byte at offset 13)")
    }

    @Test func maximumEdgesBoundsWhatTextMakes() {
        let t = StoreHost()
        #expect(t.eval("local s, e = flow.decode('digraph { {a b} -> {c d} }', {format = 'dot', maximumEdges = 3}) return s, e")
            == "nil\tdecode: DOT: line 1, column 17: this statement would make 4 edges, and the graph already has 0: more than the limit of 3 edges (maximumEdges)")
        #expect(t.eval("local s = flow.decode('flowchart LR\\na & b --> c & d', {format = 'mermaid', maximumEdges = 4}) return s.edgeCount") == "4")
        #expect(t.eval("local s = flow.newStore() local ok, e = s:load('graph { {a b} -- {c d} }', {format = 'dot', maximumEdges = 2}) return ok, e:match('limit of 2 edges') ~= nil")
            == "nil\ttrue")
        #expect(t.errorOf("flow.decode('digraph {}', {format = 'dot', maximumEdges = -1})").contains("maximumEdges"))
    }

    @Test func anExportedZoomDecodesAsItWasSaved() {
        let t = StoreHost()
        #expect(t.eval("""
            local s = flow.newStore{maxZoom = 10}
            s:setViewport{x = 0, y = 0, zoom = 8}
            local text = s:export()
            local d = flow.decode(text)
            return d.viewport.zoom, d:export() == text
            """) == "8\ttrue")
    }

    @Test func manyConcatenatedPiecesFailCleanlyInTheSandbox() {
        let s = SandboxTests.Sandboxed(SandboxLimits(memory: 64 << 20, instructions: 0, seconds: 60, patternSteps: 1e7))
        let r = s.run("""
            local text = 'digraph { "' .. string.rep('x', 5000, '" + "') .. '" }'
            local d, e = flow.decode(text, {format = 'dot'}) assert(d, e)
            local long = 'digraph { "' .. string.rep('x', 70000, '" + "') .. '" }'
            return #d:nodes()[1].id, select(2, flow.decode(long, {format = 'dot'}))
            """)
        #expect(r.results == ["5000", "decode: DOT: line 1, column 11: string longer than 65536 bytes"], "\(r)")
    }
}
