import Testing

@testable import FlowLua

@Suite struct StoreNodeTests {
    @Test func addNodeDefaultsAndHandles() {
        let h = StoreHost()
        h.eval("s = flow.newStore()")
        #expect(h.eval("local n = s:addNode{id='a', x=50, y=100, width=120, height=50} return tostring(n)") == "Node a (50, 100, 120x50)")
        #expect(h.eval("local n = s:addNode{} return n.id, n.x, n.y, n.width, n.height, n.zIndex, n.isDraggable, n.acceptsChildren, n.data") == "n1\t0\t0\t150\t60\t0\ttrue\tfalse\tnil")
        #expect(h.eval("local n = s:addNode{id=7, position={x=1, y=2}, size={width=3, height=4}, data={k={1,2}}} return n.id, n.x, n.size.width, n.data.k[2]") == "7\t1\t3\t2")
        #expect(h.eval("local hs = s:node('a').handles return #hs, hs[1].id, hs[1].type, hs[1].position, hs[2].id, hs[2].type, hs[2].position") == "2\ttarget\ttarget\ttop\tsource\tsource\tbottom")
        #expect(h.eval("""
            local n = s:addNode{id='h', handles={{id='in', type='target', position='left', connectionTargetArea={kind='node'}},
              {id='out', type='source', position='right', connectionStartArea={kind='point', radius=9}}}}
            local hs = n.handles
            return hs[1].connectionTargetArea.kind, hs[2].connectionStartArea.radius, hs[2].position
            """) == "node\t9\tright")
        #expect(h.eval("return s.nodeCount, tostring(s)") == "4\tStore (4 nodes, 0 edges)")
        #expect(h.eval("return s:nextNodeID()") == "n2")
    }

    @Test func addNodeErrors() {
        let h = StoreHost()
        h.eval("s = flow.newStore() s:addNode{id='a'}")
        #expect(h.errorOf("s:addNode{id='a'}") == "addNode: node 'a' already exists")
        #expect(h.errorOf("s:addNode{id='b', x='q'}") == "bad argument #1 to 'addNode' (field 'x': number expected, got string)")
        #expect(h.errorOf("s:addNode{id='b', widht=3}") == "bad argument #1 to 'addNode' (unknown field 'widht'; did you mean 'width'?)")
        #expect(h.errorOf("s:addNode{id='b', x=1, position={x=1, y=2}}") == "bad argument #1 to 'addNode' (fields 'x'/'y' and 'position' cannot be combined)")
        #expect(h.errorOf("s:addNode{id='b', width=1, size={width=1, height=2}}") == "bad argument #1 to 'addNode' (fields 'width'/'height' and 'size' cannot be combined)")
        #expect(h.errorOf("s:addNode{id='b', handles={{id='x', type='sink'}}}") == "addNode: invalid handle type 'sink' (expected one of: source, target)")
        #expect(h.errorOf("s:addNode{id='b', data=function() end}").hasPrefix("bad argument #1 to 'addNode' (field 'data': "))
        #expect(h.errorOf("s:addNode{id='b', parentID='a'}") == "addNode: node 'a' does not accept children")
        #expect(h.errorOf("s:addNode(5)") == "bad argument #1 to 'addNode' (table expected, got number)")
        #expect(h.errorOf("s.addNode({}, {})") == "calling 'addNode' on bad self (Store expected, got table)" || h.errorOf("s.addNode({}, {})").contains("Store expected, got table"))
        #expect(h.eval("return s.nodeCount") == "1")
    }

    /// The batch adds of every store of a state share one scratch buffer (BatchScratch):
    /// a script holding many stores does not hold a buffer each outside a sandbox's cap.
    @Test func batchAddsShareTheStatesScratchMemory() {
        let h = StoreHost()
        #expect(h.host.context.attachments[BatchScratch.attachmentKey] == nil)
        h.eval("s = flow.newStore() s:addNodes{{id='a'}, {id='b'}}")
        let first = h.host.context.attachments[BatchScratch.attachmentKey]
        #expect(first is BatchScratch)
        h.eval("t = flow.newStore() t:addNodes{{id='c'}} t:addEdges{{sourceNodeID='c', targetNodeID='c'}}")
        #expect(h.host.context.attachments[BatchScratch.attachmentKey] === first)
        #expect(h.eval("return s.nodeCount, t.nodeCount, t.edgeCount") == "2\t1\t1")
    }

    @Test func moveResizeRemove() {
        let h = StoreHost()
        h.eval("s = flow.newStore() a = s:addNode{id='a', x=1, y=2}")
        #expect(h.eval("return s:moveNode('a', 10, 20), a.x, a.y") == "true\t10\t20")
        #expect(h.eval("return s:moveNode('a', {x=10, y=20})") == "false")
        #expect(h.errorOf("s:moveNode('a', 'q', 2)") == "bad argument #2 to 'moveNode' (number expected, got string)")
        #expect(h.errorOf("s:moveNode('x', 1, 2)") == "moveNode: no node with id 'x'")
        #expect(h.eval("return s:updateNodeSize('a', 5, 6), a.width, a.height, a:resize{width=5, height=6}") == "true\t5\t6\tfalse")
        #expect(h.eval("return a:move(0.1 + 0.2, 1), tostring(a)") == "true\tNode a (0.3, 1, 5x6)")
        #expect(h.eval("return a:remove(), a:exists(), s.nodeCount") == "true\tfalse\t0")
        #expect(h.rawErrorOf("return a.x") == "chunk:1: node 'a' no longer exists")
        #expect(h.errorOf("a:move(1, 2)") == "node 'a' no longer exists")
        #expect(h.errorOf("s:removeNode('a')") == "removeNode: no node with id 'a'")
    }

    @Test func updateNodePatchAndFunction() {
        let h = StoreHost()
        h.eval("s = flow.newStore() g = s:addNode{id='g', acceptsChildren=true} a = s:addNode{id='a', data={v=1}}")
        #expect(h.eval("return s:updateNode('a', {x=5, zIndex=2, parentID='g'}), a.x, a.y, a.zIndex, a.parentID") == "true\t5\t0\t2\tg")
        #expect(h.eval("return s:updateNode('a', {parentID=flow.null, data=flow.null}), a.parentID, a.data") == "true\tnil\tnil")
        #expect(h.eval("return s:updateNode('a', {x=5})") == "false")
        #expect(h.errorOf("s:updateNode('a', {id='b'})") == "updateNode: the id of node 'a' cannot change")
        #expect(h.errorOf("s:updateNode('a', {label='b'})") == "bad argument #2 to 'updateNode' (unknown field 'label'; a node's label goes in its data: data = {label = ...})")
        #expect(h.errorOf("s:updateNode('a', {x=1, position={x=1, y=1}})") == "bad argument #2 to 'updateNode' (fields 'x'/'y' and 'position' cannot be combined)")
        // in place
        #expect(h.eval("return s:updateNode('a', function(n) n.y = 7; n.data = {w=2} end), a.y, a.data.w, a.x") == "true\t7\t2\t5")
        // a replacement: missing fields take addNode defaults
        #expect(h.eval("return a:update(function(n) return {y=1} end), a.x, a.y, a.width, a.zIndex") == "true\t0\t1\t150\t0")
        #expect(h.errorOf("a:update(function(n) n.x = 'q' end)") == "updateNode: field 'x': number expected, got string")
        #expect(h.errorOf("a:update(function(n) error('boom') end)").hasSuffix("boom"))
        #expect(h.errorOf("a:update(function(n) return 5 end)") == "updateNode: the update function must return a table or nil (got number)")
        #expect(h.errorOf("a:update(5)") == "bad argument #1 to 'update' (function or table expected, got number)")
        #expect(h.eval("return a.y") == "1")
    }

    @Test func handleIdentityAndFields() {
        let h = StoreHost()
        h.eval("s = flow.newStore() a = s:addNode{id='a', x=50, y=100, width=120, height=50}")
        #expect(h.eval("return s:node('a') == a, s:nodes()[1] == a, rawequal(s:node('a'), a), s:node('zz')") == "true\ttrue\ttrue\tnil")
        #expect(h.eval("local f = a.frame return f.x, f.y, f.width, f.height") == "50\t100\t120\t50")
        #expect(h.eval("return a.isSelected, a.isHovered, a.isDropTarget") == "false\tfalse\tfalse")
        #expect(h.rawErrorOf("a.width = 3") == "chunk:1: field 'width' is read-only (use node:resize)")
        #expect(h.errorOf("a.data = 3") == "field 'data' is read-only (use node:update)")
        #expect(h.errorOf("return a.nope") == "Node has no field 'nope'")
        #expect(h.eval("local t = a:table() return t.id, t.x, t.width, t.isSelected, #t.handles, getmetatable(t)") == "a\t50\t120\tfalse\t2\tnil")
        // a handle keeps its store alive
        #expect(h.eval("""
            local n = flow.newStore():addNode{id='z'}
            collectgarbage() collectgarbage()
            return n:exists(), n.id, n.x
            """) == "true\tz\t0")
        // handles collected and recreated stay equal to the store's view
        #expect(h.eval("""
            local id = tostring(s:node('a'))
            collectgarbage() collectgarbage()
            return s:node('a') == a, a.x
            """) == "true\t50")
    }

    @Test func closeAndGC() {
        let h = StoreHost()
        #expect(h.eval("""
            local n
            do
              local s <close> = flow.newStore()
              n = s:addNode{id='a'}
            end
            return n:exists(), pcall(function() return n.x end)
            """) == "false\tfalse\tchunk:6: attempt to use a closed Store")
        #expect(h.errorOf("local s = flow.newStore() getmetatable(s).__close(s) s:addNode{}") == "attempt to use a closed Store")
        #expect(h.eval("local s = flow.newStore() getmetatable(s).__close(s) return tostring(s)") == "Store (closed)")
    }
}
