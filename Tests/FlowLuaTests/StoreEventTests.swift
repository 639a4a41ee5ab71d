import Testing

@testable import FlowLua

@Suite struct StoreEventTests {
    @Test func changeTablesAndBatches() {
        let h = StoreHost()
        h.eval("""
            s = flow.newStore()
            log = {}
            s.onNodesChange = function(cs)
              local parts = {}
              for _, c in ipairs(cs) do
                local extra = c.position and (c.position.x .. ',' .. c.position.y) or c.size and (c.size.width .. 'x' .. c.size.height)
                  or c.selected ~= nil and tostring(c.selected) or c.node and c.node.id or ''
                parts[#parts + 1] = c.type .. ':' .. c.id .. ':' .. extra
              end
              log[#log + 1] = 'N ' .. table.concat(parts, ' ')
            end
            s.onEdgesChange = function(cs)
              local parts = {}
              for _, c in ipairs(cs) do parts[#parts + 1] = c.type .. ':' .. c.id .. (c.edge and (':' .. c.edge.sourceNodeID) or '') end
              log[#log + 1] = 'E ' .. table.concat(parts, ' ')
            end
            function flush() local r = table.concat(log, ' | ') log = {} return r end
            """)
        #expect(h.eval("s:addNode{id='a'} s:addNode{id='b'} return flush()") == "N add:a:a | N add:b:b")
        #expect(h.eval("s:moveNode('a', 5, 6) s:updateNodeSize('a', 1, 2) return flush()") == "N position:a:5,6 | N dimensions:a:1x2")
        #expect(h.eval("s:connect('a', 'b') s:selectEdge('e1') return flush()") == "E add:e1:a | E select:e1")
        #expect(h.eval("s:moveNode('a', 5, 6) return flush()") == "")
        #expect(h.eval("s:transaction(function(st) st:moveNode('a', 1, 1) st:selectNode('b') st:removeEdge('e1') end) return flush()") == "N position:a:1,1 select:b:true | E remove:e1")
        #expect(h.eval("s:undo() return flush()") == "N select:b:false position:a:5,6 | E add:e1:a select:e1")
        #expect(h.eval("s:beginInteractiveUpdates() s:moveNode('a', 7, 7) s:moveNode('b', 8, 8) local mid = flush() s:endInteractiveUpdates() return mid .. '/' .. flush()") == "/N position:a:7,7 position:b:8,8")
        #expect(h.eval("s:updateNode('a', {zIndex=3}) return flush()") == "N replace:a:a")
        #expect(h.eval("s.onNodesChange = nil s:moveNode('a', 0, 0) return flush(), s.onNodesChange") == "\tnil")
    }

    @Test func callbackErrorsGoToTheSinkAndTheMutationStands() {
        let h = StoreHost()
        h.eval("s = flow.newStore() s.onNodesChange = function() error('bad callback') end")
        #expect(h.eval("local n = s:addNode{id='a'} return n.id, s.nodeCount") == "a\t1")
        #expect(h.errors.count == 1)
        #expect(h.errors.first?.contains("error in onNodesChange:") == true)
        #expect(h.errors.first?.contains("bad callback") == true)
        #expect(h.errors.first?.contains("stack traceback") == true)
        #expect(h.errorOf("s.onNodesChange = 5") == "bad value for field 'onNodesChange' (function expected, got number)")
        #expect(h.errorOf("s.nodeCount = 5") == "field 'nodeCount' is read-only")
        #expect(h.errorOf("s.onNodeChange = print") == "Store has no field 'onNodeChange' (did you mean 'onNodesChange'?)")
        #expect(h.errorOf("return s.nodecount") == "Store has no field 'nodecount' (did you mean 'nodeCount'?)")
    }

    @Test func reentrantMutationFromACallback() {
        let h = StoreHost()
        h.eval("""
            s = flow.newStore()
            s.onNodesChange = function(cs)
              for _, c in ipairs(cs) do
                if c.type == 'add' and not s:node(c.id .. '-shadow') and not c.id:find('shadow') then
                  s:addNode{id=c.id .. '-shadow', x=1, y=1}
                end
              end
            end
            """)
        #expect(h.eval("s:addNode{id='a'} return s.nodeCount, s:nodes()[2].id") == "2\ta-shadow")
        #expect(h.eval("s:undo() return s.nodeCount") == "1")
        #expect(h.errors.isEmpty)
    }

    @Test func transactionRollbackAndResults() {
        let h = StoreHost()
        h.eval("s = flow.newStore() s:addNode{id='a'} n = 0 s.onNodesChange = function() n = n + 1 end")
        #expect(h.eval("return s:transaction(function(st) st:addNode{id='b'} return 1, 'two' end)") == "1\ttwo")
        #expect(h.eval("return n, s.nodeCount, s:undo(), s.nodeCount") == "1\t2\ttrue\t1")
        #expect(h.eval("""
            local ok, e = pcall(s.transaction, s, function(st) st:addNode{id='c'} st:moveNode('a', 9, 9) error({code=7}) end)
            return ok, type(e), e.code, s.nodeCount, s:node('a').x, s:node('c')
            """) == "false\ttable\t7\t1\t0\tnil")
        #expect(h.errorOf("s:transaction(function(st) st:addNode{id='d'} st:moveNode('zz', 1, 1) end)") == "moveNode: no node with id 'zz'")
        #expect(h.eval("return s.nodeCount, n") == "1\t2")
        #expect(h.errorOf("s:transaction(5)") == "bad argument #1 to 'transaction' (function expected, got number)")
    }

    @Test func eventLines() {
        let h = StoreHost(events: true)
        h.eval("""
            s = flow.newStore()
            s:addNode{id='a', x=50, y=100, width=120, height=50}
            s:addNode{id='g', acceptsChildren=true}
            s:moveNode('a', 60, 100)
            s:updateNodeSize('a', 10, 20)
            s:updateNode('a', {zIndex=2, parentID='g'})
            s:selectNode('a')
            s:connect('a', 'g')
            s:updateEdge('e1', {label='Yes'})
            s:selectEdge('e1')
            s:updateNode('a', {data={k=0.1 + 0.2}, parentID=flow.null})
            s:removeNode('a')
            """)
        #expect(h.events == [
            "node+ a (50, 100) 120x50",
            "node+ g (0, 0) 150x60",
            "node~ a position (60, 100)",
            "node~ a size 10x20",
            "node~ a zIndex 2 parentID \"g\"",
            "node* a selected",
            "edge+ e1 a.source -> g.target",
            "edge~ e1 label \"Yes\"",
            "node* a deselected",
            "edge* e1 selected",
            "node~ a data {\"k\":0.30000000000000004} parentID nil",
            "node- a",
            "edge- e1",
        ])
    }

    @Test func connectionsAndValidator() {
        let h = StoreHost()
        h.eval("""
            s = flow.newStore()
            s:addNode{id='a', x=0, y=0} s:addNode{id='b', x=0, y=200}
            got = nil rejected = nil
            """)
        #expect(h.eval("s:beginConnection('a', 'source') local d = s.connectionDraft return d.sourceNodeID, d.sourceHandleType, d.currentPoint.x, d.currentPoint.y") == "a\tsource\t75\t60")
        #expect(h.eval("return s:updateConnection(75, 195), s.connectionDraft.targetNodeID") == "true\tb")
        #expect(h.eval("return s:endConnection(), s.edgeCount, s:edges()[1].targetHandleID, s.connectionDraft") == "true\t1\ttarget\tnil")
        #expect(h.errorOf("s:endConnection()").contains("endConnection"))
        h.eval("s.onConnect = function(p) got = p.sourceNodeID .. '->' .. p.targetNodeID end")
        #expect(h.eval("s:beginConnection('a', 'source') return s:endConnection('b', 'target'), got, s.edgeCount") == "true\ta->b\t1")
        h.eval("s.connectionValidator = function(p) return false end s.onConnectionRejected = function(p) rejected = p.targetNodeID end")
        #expect(h.eval("s:beginConnection('a', 'source') return s:endConnection('b', 'target'), rejected") == "false\tb")
        #expect(h.eval("s:beginConnection('a') return s:cancelConnection(), s:cancelConnection()") == "true\tfalse")
    }
}
