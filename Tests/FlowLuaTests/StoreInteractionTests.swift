import Testing

@testable import FlowLua
@testable import FlowSession

@Suite struct StoreInteractionTests {
    @Test func selectionFocusHover() {
        let h = StoreHost()
        h.eval("s = flow.newStore() s:addNode{id='a'} s:addNode{id='b', x=300} s:connect('a', 'b')")
        #expect(h.eval("return s:selectNode('b'), s:selectNode('a', false), table.concat(s.selectedNodeIDs, ',')") == "true\ttrue\ta,b")
        #expect(h.eval("return s:deselectNode('a'), s:selectEdge('e1', false), s.selectedEdgeIDs[1], s:deselectEdge('e1'), s:clearSelection(), s:clearSelection()") == "true\ttrue\te1\ttrue\ttrue\tfalse")
        #expect(h.eval("return s:selectInRect(0, 0, 10, 10), table.concat(s.selectedNodeIDs, ',')") == "true\ta")
        #expect(h.eval("return s:focusNode('a'), s.focusedTarget.kind, s.focusedTarget.id, s:focusEdge('e1'), s.focusedTarget.kind, s:clearFocus(), s.focusedTarget") == "true\tnode\ta\ttrue\tedge\ttrue\tnil")
        #expect(h.eval("return s:setHoveredNode('b'), s.hoveredNodeID, s:node('b').isHovered, s:setHoveredNode(nil), s.hoveredNodeID") == "true\tb\ttrue\ttrue\tnil")
        #expect(h.errorOf("s:focusNode('zz')") == "focusNode: no node with id 'zz'")
        #expect(h.errorOf("s:setHoveredNode('zz')").hasSuffix("no node with id 'zz'"))
        #expect(h.eval("return s:deleteSelection(), s.nodeCount, s.edgeCount, s:deleteSelection()") == "true\t1\t0\tfalse")
        h.eval("s:configure{multiSelectionEnabled=false}")
        #expect(h.eval("return s:selectInRect(0, 0, 1000, 1000)") == "false")
    }

    @Test func viewportAndAnimation() {
        let h = StoreHost()
        h.eval("s = flow.newStore() s:addNode{id='a', x=0, y=0, width=100, height=100}")
        #expect(h.eval("local v = s.viewport return v.x, v.y, v.zoom") == "0\t0\t1")
        #expect(h.eval("return s:pan(10, 20), s.viewport.x, s.viewport.y") == "true\t10\t20")
        #expect(h.eval("return s:setViewport{x=0, y=0, zoom=100}, s.viewport.zoom") == "true\t4")
        #expect(h.eval("return s:zoom(0.5, 0, 0), s.viewport.zoom") == "true\t2")
        #expect(h.eval("local p = s:screenToCanvas(20, 40) local q = s:canvasToScreen{x=10, y=20} return p.x, p.y, q.x, q.y") == "10\t20\t20\t40")
        #expect(h.eval("local b = s:nodeBounds() return b.x, b.y, b.width, b.height") == "0\t0\t100\t100")
        #expect(h.eval("return s:fitToContent(400, 300, 50), s.viewport.zoom") == "true\t1")
        #expect(h.eval("s:setViewport{x=0, y=0, zoom=1} return s:hitTest(50, 50).kind, s:hitTest(50, 50).id, s:hitTest(500, 500)") == "node\ta\tnil")
        #expect(h.eval("local t = s:hitTest(50, 100) return t.kind, t.nodeID, t.handleID") == "handle\ta\tsource")
        #expect(h.eval("return #s:nodesInRect(0, 0, 5, 5), #s:nodesInRect{x=500, y=500, width=1, height=1}") == "1\t0")
        #expect(h.eval("return s:setViewport({x=100, y=0}, 'default'), s.isAnimating") == "true\ttrue")
        #expect(h.eval("local n = 0 while s:tick(1/60) do n = n + 1 end return s.viewport.x, s.isAnimating, n > 0") == "100\tfalse\ttrue")
        #expect(h.eval("return s:setNodePositions({a={x=50, y=50}}, {easeInOut={duration=0.1}}), s:node('a').x") == "true\t0")
        #expect(h.eval("while s:tick(1/60) do end return s:node('a').x, s.canUndo") == "50\ttrue")
        #expect(h.eval("return s:setNodePositions{a={x=5, y=5}}, s:node('a').x") == "true\t5")
        #expect(h.errorOf("s:setViewport({}, 'bouncy')") == "setViewport: invalid animation 'bouncy' (expected one of: default, smooth)")
        #expect(h.errorOf("s:tick(-1)").hasPrefix("tick:"))
        h.eval("s:configure{panEnabled=false, zoomEnabled=false}")
        #expect(h.eval("return s:pan(1, 1), s:zoom(2, 0, 0), s:scroll(1, 1), s:magnify(2, 0, 0)") == "false\tfalse\tfalse\tfalse")
        #expect(h.eval("local e = flow.newStore() return e:fitToContent(100, 100)") == "false")
    }

    @Test func pointerAndDoubleTaps() {
        let h = StoreHost()
        h.eval("""
            s = flow.newStore() s:addNode{id='a', x=0, y=0, width=100, height=100}
            taps = {}
            s.onNodeDoubleTap = function(id) taps[#taps + 1] = 'node ' .. id end
            s.onCanvasDoubleTap = function(p) taps[#taps + 1] = 'canvas ' .. p.x .. ',' .. p.y end
            """)
        #expect(h.eval("return s:tap(50, 50), s.selectedNodeIDs[1]") == "true\ta")
        #expect(h.eval("s:advanceClock(0.1) s:tap(50, 50) return taps[1], s.clock") == "node a\t0.1")
        #expect(h.eval("s:advanceClock(1) s:tap(500, 500) s:advanceClock(0.1) s:tap(500, 500) return taps[2]") == "canvas 500,500")
        #expect(h.eval("return s:pointerDown(50, 50), s:pointerMove(70, 60), s:pointerUp(70, 60), s:node('a').x, s:node('a').y") == "true\ttrue\ttrue\t20\t10")
        #expect(h.eval("return s:undo(), s:node('a').x") == "true\t0")
        #expect(h.eval("s:pointerDown(50, 50) s:pointerMove(90, 90) return s:pointerCancel(), s:node('a').x, s:pointerUp(1, 1)") == "true\t0\tfalse")
        #expect(h.eval("s:pointerDown(500, 500, {shift=true}) s:pointerMove(10, 10) s:pointerUp(10, 10) return s.selectedNodeIDs[1]") == "a")
        #expect(h.eval("return s:hover(50, 50), s.hoveredNodeID, s:scroll(5, 5), s.viewport.x, s:magnify(2, 0, 0), s.viewport.zoom") == "true\ta\ttrue\t5\ttrue\t2")
        #expect(h.errorOf("s:tap(1, 1, {alt=true})") == "bad argument #3 to 'tap' (unknown field 'alt')")
    }

    @Test func dropTargets() {
        let h = StoreHost()
        h.eval("""
            s = flow.newStore() s:addNode{id='a', x=0, y=0, width=100, height=100}
            payload = {kind='file'}
            seen = {}
            """)
        #expect(h.eval("return s:dragOver(50, 50, payload), s.dropTargetNodeID") == "false\tnil")
        h.eval("s.onDrop = function(phase, e) seen[#seen + 1] = phase .. ' ' .. (e and (e.target.kind .. ' ' .. tostring(e.target.id) .. ' ' .. tostring(e.payload == payload)) or 'nil') return true end")
        #expect(h.eval("return s:dragOver(50, 50, payload), s.dropTargetNodeID, s:node('a').isDropTarget") == "true\ta\ttrue")
        #expect(h.eval("return s:drop(50, 50, payload), s.dropTargetNodeID") == "true\tnil")
        #expect(h.eval("s:dragExit() s:dragOver(500, 500, payload) return table.concat(seen, '|')") == "updated node a true|performed node a true|exited nil|updated canvas nil true")
        #expect(h.eval("return s:setDropTargetNode('a'), s.dropTargetNodeID, s:setDropTargetNode(nil)") == "true\ta\ttrue")
        #expect(h.errorOf("s:setDropTargetEdge('zz')").hasSuffix("no edge with id 'zz'"))
        #expect(h.eval("return s:setDropTargetEdge(nil), s.dropTargetEdgeID") == "false\tnil")
    }

    @Test func accessories() {
        let h = StoreHost()
        h.eval("s = flow.newStore() s:addNode{id='a', x=100, y=100, width=100, height=50}")
        #expect(h.eval("local p = s:accessoryPosition{node='a', size={width=20, height=10}, canvasSize={width=800, height=600}} return p.x, p.y, p.placement") == "150\t87\ttop")
        #expect(h.eval("s.nodeAccessoryPlacement = function(n) return n.id == 'a' and 'bottom' end local p = s:accessoryPosition{node='a', size={width=20, height=10}, canvasSize={width=800, height=600}} return p.placement") == "bottom")
        #expect(h.eval("local p = s:accessoryPosition{node='a', placement='leading', size={width=20, height=10}, canvasSize={width=800, height=600}} return p.placement") == "leading")
        h.eval("s.nodeAccessoryPlacement = function(n) return 'sideways' end")
        #expect(h.eval("return s:accessoryPosition{node='a', size={width=20, height=10}, canvasSize={width=800, height=600}}.placement") == "top")
        #expect(h.errors.last?.contains("invalid placement 'sideways'") == true)
        #expect(h.eval("return #s:accessories{size={width=1, height=1}, canvasSize={width=800, height=600}}") == "0")
        #expect(h.eval("s:selectNode('a') local a = s:accessories{size={width=1, height=1}, canvasSize={width=800, height=600}}[1] return a.kind, a.id, a.placement") == "node\ta\ttop")
        #expect(h.errorOf("s:accessoryPosition{size={width=1, height=1}, canvasSize={width=1, height=1}}") == "bad argument #1 to 'accessoryPosition' (exactly one of 'node' and 'edge' is required)")
    }

    @Test func undoRedoAndConfig() {
        let h = StoreHost()
        h.eval("s = flow.newStore()")
        #expect(h.eval("return s.canUndo, s:undo(), s:addNode{id='a'}.id, s.canUndo, s:undo(), s.nodeCount, s.canRedo, s:redo(), s.nodeCount") == "false\tfalse\ta\ttrue\ttrue\t0\ttrue\ttrue\t1")
        #expect(h.eval("local c = s.configuration return c.defaultEdgePathType, c.gridSize, c.minZoom, c.maxZoom, c.undo, c.edgeStyle.strokeColor, c.edgeStyle.animatedDashPattern[1], c.backgroundStyle.pattern") == "bezier\t20\t0.1\t4\ttrue\t#808080\t5\tnone")
        #expect(h.eval("return s:configure{undo=false}, s.canUndo, s.configuration.undo") == "true\tfalse\tfalse")
        #expect(h.errorOf("s:configure{snapToGird=true}") == "bad argument #1 to 'configure' (unknown field 'snapToGird'; did you mean 'snapToGrid'?)")
        #expect(h.errorOf("s:configure{edgeStyle={width=1}}") == "bad argument #1 to 'configure' (field 'edgeStyle': unknown field 'edgeStyle.width')")
        #expect(h.errorOf("s:configure{backgroundStyle={pattern='stripes'}}") == "configure: invalid background pattern 'stripes' (expected one of: none, grid, dot)")
        #expect(h.eval("s:setViewport{x=3, y=4, zoom=3} s:configure{maxZoom=2} local v = s.viewport return v.zoom, v.x, s.configuration.maxZoom") == "2\t3\t2")
        #expect(h.eval("s:configure{minZoom=0} return s.configuration.minZoom") == "0.01")
        #expect(h.eval("local t = flow.newStore{snapToGrid=true, gridSize=10, undo=false} t:addNode{id='a'} t:moveNode('a', 14, 16) return t:node('a').x, t:node('a').y, t.canUndo") == "10\t20\tfalse")
        #expect(h.errorOf("flow.newStore{zoom=1}") == "bad argument #1 to 'newStore' (unknown field 'zoom'; did you mean 'zoomEnabled'?)")
    }

    @Test func documents() {
        let h = StoreHost()
        h.eval("s = flow.newStore() s:addNode{id='a', x=1, y=2, data={k='v'}} s:addNode{id='b'} s:connect('a', 'b', {label='L'})")
        #expect(h.eval("local j = s:export() return type(j), j:find('\"label\"') ~= nil") == "string\ttrue")
        #expect(h.eval("local t, w = flow.decode(s:export()) return tostring(t), #w, t:node('a').data.k, t:edge('e1').label") == "Store (2 nodes, 1 edge)\t0\tv\tL")
        #expect(h.eval("return flow.decode('nope')") .hasPrefix("nil\tdecode:"))
        #expect(h.eval("local t = flow.newStore() local ok, w = t:load(s:export()) return ok, #w, t.nodeCount, t.canUndo") == "true\t0\t2\tfalse")
        #expect(h.eval("local ok, msg = s:load('[1]') return ok, type(msg), s.nodeCount") == "nil\tstring\t2")
        #expect(h.eval("return flow.open('/nonexistent/x.json')").hasPrefix("nil\t/nonexistent/x.json: "))
        #expect(h.eval("""
            local path = os.tmpname()
            local f = io.open(path, 'w') f:write(s:export()) f:close()
            local t, w = flow.open(path)
            os.remove(path)
            return tostring(t), #w
            """) == "Store (2 nodes, 1 edge)\t0")
        #expect(h.eval("""
            local t, w = flow.decode('{"version":1,"nodes":[{"id":"a","position":[0,0],"size":[1,1],"data":null},{"id":"a","position":[0,0],"size":[1,1],"data":null}],"edges":[],"viewport":{"offset":[0,0],"zoom":1}}')
            return #w, w[1]
            """) == "1\tdropped duplicate node 'a'")
        #expect(h.eval("return tostring(flow.newStore()), flow.type(flow.newStore():addNode{}), flow.type({})") == "Store (0 nodes, 0 edges)\tNode\tnil")
    }

    @Test func sessionSetupAndCompletion() {
        let h = StoreHost()
        SessionGlobals.setUp(h.host)
        #expect(h.eval("store:addNode{id='alpha'} store:addNode{id='beta'} store:connect('alpha', 'beta') return tostring(store)") == "Store (2 nodes, 1 edge)")
        let cands = LuaCompletion.candidates(h.host.L, line: Array("store:node(\"a".utf8), wordStart: 12, cursor: 13)
        #expect(cands.contains { $0.contains("alpha") })
        let edges = LuaCompletion.candidates(h.host.L, line: Array("store:removeEdge(\"".utf8), wordStart: 18, cursor: 18)
        #expect(edges.contains { $0.contains("e1") })
    }
}
