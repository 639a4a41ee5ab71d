import Testing

@testable import FlowLua

/// Node and Edge handles: userdata without a Swift object or a finaliser, whose user values
/// are the Store userdata and the id (see LuaHandleClass).
@Suite struct HandleTests {
    @Test func handleOutlivesItsStoresClose() {
        let h = StoreHost()
        h.eval("""
            do
              local s <close> = flow.newStore()
              n = s:addNode{id='a', x=1, y=2}
              s:addNode{id='b'}
              e = s:connect('a', 'b')
              n2 = s:node('a')
            end
            """)
        #expect(h.errorOf("return n.x") == "attempt to use a closed Store")
        #expect(h.errorOf("return n.id") == "attempt to use a closed Store")
        #expect(h.errorOf("return e.label") == "attempt to use a closed Store")
        for call in ["n:move(1, 2)", "n:move('x')", "n:resize(1, 2)", "n:update{x=1}", "n:remove()", "n:edges()",
                     "n:table()", "e:update{label='x'}", "e:remove()", "e:geometry()", "e:table()"] {
            #expect(h.errorOf(call) == "attempt to use a closed Store", "\(call)")
        }
        #expect(h.eval("return n:exists(), e:exists(), tostring(n), tostring(e)") == "false\tfalse\tNode a (removed)\tEdge e1 (removed)")
        #expect(h.eval("return n == n2, rawequal(n, n2), flow.type(n), flow.type(e)") == "true\ttrue\tNode\tEdge")
        // still a Node: type errors, strict fields and read-only hints as before
        #expect(h.errorOf("return n.nope") == "Node has no field 'nope'")
        #expect(h.errorOf("n.x = 1") == "field 'x' is read-only (use node:move)")
        #expect(h.errorOf("return n.move(e, 1, 2)") == "bad argument #1 to 'move' (Node expected, got Edge)")
    }

    @Test func handleOutlivesItsStoresGC() {
        let h = StoreHost()
        // __gc called by hand: the store userdata stays (the handle keeps it), closed
        #expect(h.eval("""
            local s = flow.newStore()
            local n = s:addNode{id='a'}
            getmetatable(s).__gc(s)
            collectgarbage() collectgarbage()
            return n:exists(), tostring(n), select(2, pcall(function() return n.x end))
            """) == "false\tNode a (removed)\tchunk:5: attempt to use a closed Store")
    }

    /// A finaliser that runs after the store's `__gc`, in the same collection, resurrects a
    /// handle: the handle reaches the store only through its userdata, whose object pointer
    /// is nil by then, so it raises instead of touching a released store.
    @Test func handleResurrectedAfterTheStoresFinaliser() {
        let h = StoreHost()
        h.eval("""
            log = {}
            do
              -- made first, so finalised last (finalisers run in reverse order of marking)
              local keeper = setmetatable({}, {__gc = function(k)
                saved, savedEdge = k.n, k.e
                log[#log + 1] = select(2, pcall(function() return k.n.x end))
                log[#log + 1] = select(2, pcall(function() return k.e.label end))
                log[#log + 1] = select(2, pcall(function() return k.n:move(1, 2) end))
                log[#log + 1] = select(2, pcall(function() return k.n:edges() end))
                log[#log + 1] = tostring(k.n) .. ', ' .. tostring(k.e) .. ', ' .. tostring(k.n:exists())
                log[#log + 1] = tostring(k.n == k.n2) .. ', ' .. tostring(rawequal(k.n, k.n2))
              end})
              local s = flow.newStore()
              keeper.n = s:addNode{id='a'}
              keeper.n2 = s:node('a')
              s:addNode{id='b'}
              keeper.e = s:connect('a', 'b')
            end
            collectgarbage() collectgarbage()
            """)
        #expect(h.eval("return #log") == "6")
        #expect(h.eval("return log[1]").hasSuffix("attempt to use a closed Store"))
        #expect(h.eval("return log[2]").hasSuffix("attempt to use a closed Store"))
        #expect(h.eval("return log[3]").hasSuffix("attempt to use a closed Store"))
        #expect(h.eval("return log[4]").hasSuffix("attempt to use a closed Store"))
        #expect(h.eval("return log[5]") == "Node a (removed), Edge e1 (removed), false")
        #expect(h.eval("return log[6]") == "true, true")
        // and later, outside any finaliser
        #expect(h.errorOf("return saved.y") == "attempt to use a closed Store")
        #expect(h.eval("collectgarbage() collectgarbage() return tostring(saved), savedEdge:exists()") == "Node a (removed)\tfalse")
        #expect(h.errors.isEmpty)
    }

    /// A finaliser that runs before the store's: the store is still open, the handle works,
    /// and its cache entry is gone (a resurrected value leaves weak tables), so the store
    /// makes a fresh handle, equal to it by `__eq`.
    @Test func handleResurrectedBeforeTheStoresFinaliser() {
        let h = StoreHost()
        h.eval("""
            log = {}
            do
              local s = flow.newStore()
              local keeper = setmetatable({s = s}, {__gc = function(k)
                saved = k.n
                local fresh = k.s:node('a')
                log[#log + 1] = k.n.x
                log[#log + 1] = tostring(fresh == k.n) .. ', ' .. tostring(k.n == fresh) .. ', ' .. tostring(rawequal(fresh, k.n))
                log[#log + 1] = tostring(k.n ~= k.s:node('b'))
                log[#log + 1] = tostring(k.n:move(7, 8)) .. ', ' .. tostring(fresh.x)
                local t = {[k.n] = 1}
                log[#log + 1] = tostring(t[fresh])  -- different userdata: different keys
              end})
              keeper.n = s:addNode{id='a', x=5}
              s:addNode{id='b'}
            end
            collectgarbage() collectgarbage()
            """)
        #expect(h.eval("return table.concat(log, ' | ')") == "5 | true, true, false | true | true, 7 | nil")
        #expect(h.errorOf("return saved.x") == "attempt to use a closed Store")
        #expect(h.errors.isEmpty)
    }

    @Test func handlesAsTableKeysAcrossCollections() {
        let h = StoreHost()
        #expect(h.eval("""
            local s = flow.newStore()
            for i = 1, 50 do s:addNode{id = 'n' .. i, x = i * 1000} end
            s:addNode{id = 'm', x = -1000}
            for i = 1, 50 do s:connect('n' .. i, 'm', {id = 'e' .. i}) end
            local t = {}
            for _, n in ipairs(s:nodes()) do t[n] = n.x end
            for _, e in ipairs(s:edges()) do t[e] = e.sourceNodeID end
            collectgarbage() collectgarbage()
            local hits = 0
            for i = 1, 50 do
              if t[s:node('n' .. i)] == i * 1000 then hits = hits + 1 end
              if t[s:edge('e' .. i)] == 'n' .. i then hits = hits + 1 end
              if t[s:nodesInRect(i * 1000 + 1, 1, 1, 1)[1]] == i * 1000 then hits = hits + 1 end
            end
            local count = 0
            for _ in pairs(t) do count = count + 1 end
            return hits, count, t[s:node('m')]
            """) == "150\t101\t-1000")
        // a weak-keyed table lets go of handles nobody else keeps
        #expect(h.eval("""
            local s = flow.newStore()
            s:addNode{id = 'a'}
            local weak = setmetatable({}, {__mode = 'k'})
            weak[s:node('a')] = true
            collectgarbage() collectgarbage()
            return next(weak) == nil, s:node('a'):exists()
            """) == "true\ttrue")
    }

    @Test func removedNodeHandleWorksAgainAfterUndo() {
        let h = StoreHost()
        h.eval("s = flow.newStore() a = s:addNode{id='a', x=1, y=2} s:addNode{id='b'} e = s:connect('a', 'b')")
        #expect(h.eval("return a:remove(), a:exists(), e:exists(), tostring(a), tostring(e)") == "true\tfalse\tfalse\tNode a (removed)\tEdge e1 (removed)")
        #expect(h.errorOf("return a.x") == "node 'a' no longer exists")
        #expect(h.errorOf("return e.label") == "edge 'e1' no longer exists")
        #expect(h.errorOf("a:move(1, 2)") == "node 'a' no longer exists")
        #expect(h.errorOf("a:move('x')") == "node 'a' no longer exists")
        #expect(h.eval("collectgarbage() collectgarbage() return s:undo(), a:exists(), e:exists(), a.x, a.y, e.sourceNodeID") == "true\ttrue\ttrue\t1\t2\ta")
        #expect(h.eval("return rawequal(s:node('a'), a), rawequal(s:edge('e1'), e), a:move(3, 4), s:node('a').x") == "true\ttrue\ttrue\t3")
        #expect(h.eval("return tostring(a), tostring(e)") == "Node a (3, 4, 150x60)\tEdge e1 (a.source -> b.target)")
    }

    @Test func idsAsTheyWereGiven() {
        let h = StoreHost()
        h.eval("s = flow.newStore() s:addNode{id=7} s:connect(7, 7, {id=8})")
        // a number id is its string form; invalid UTF-8 is refused (D24)
        #expect(h.eval("return s:node(7).id, math.type(s:node(7).id) == nil, rawequal(s:node(7), s:node('7'))") == "7\ttrue\ttrue")
        #expect(h.errorOf("s:addNode{id='\\xff'}") == "bad argument #1 to 'addNode' (field 'id': id is not valid UTF-8)")
        #expect(h.eval("return s:edge(8).id, rawequal(s:edge(8), s:edge('8')), s:edge(8).sourceNodeID") == "8\ttrue\t7")
        #expect(h.errorOf("s:node({})") == "bad argument #1 to 'node' (string expected, got table)")
        #expect(h.errorOf("s:edge()") == "bad argument #1 to 'edge' (string expected, got no value)")
        // the canonically equivalent spellings name one node and give its one handle, whose
        // id is the node's (whichever spelling asked first)
        h.eval("s:addNode{id='\\u{E9}'}")
        #expect(h.eval("local n = s:node('e\\u{301}') return n.id == '\\u{E9}', n:exists(), rawequal(n, s:node('\\u{E9}'))") == "true\ttrue\ttrue")
        h.eval("collectgarbage() collectgarbage()")
        #expect(h.eval("local n = s:node('e\\u{301}') return n.id == '\\u{E9}', tostring(n) == tostring(s:node('\\u{E9}'))") == "true\ttrue")
    }

    /// The add's own callback closes the store: the returned handle says so (it used to
    /// index the released cache).
    @Test func storeClosedByACallbackOfTheCallMakingTheHandle() {
        let h = StoreHost()
        #expect(h.eval("""
            local s = flow.newStore()
            s.onNodesChange = function() getmetatable(s).__close(s) end
            local n = s:addNode{id = 'a'}
            return tostring(n), n:exists(), select(2, pcall(function() return n.x end))
            """) == "Node a (removed)\tfalse\tchunk:4: attempt to use a closed Store")
        #expect(h.eval("""
            local s = flow.newStore()
            s:addNode{id = 'a'} s:addNode{id = 'b'}
            s.onEdgesChange = function() getmetatable(s).__close(s) end
            local e = s:connect('a', 'b')
            return tostring(e), e:exists()
            """) == "Edge e1 (removed)\tfalse")
        // addEdge and moveNode with their arguments read in C, closed by a change callback
        // and by a flow.observe observer (they hold the box while Lua may run)
        #expect(h.eval("""
            local s = flow.newStore()
            s:addNode{id = 'a'} s:addNode{id = 'b'}
            s.onEdgesChange = function() getmetatable(s).__close(s) end
            local e = s:addEdge{id = 'x', sourceNodeID = 'a', targetNodeID = 'b'}
            return tostring(e), e:exists()
            """) == "Edge x (removed)\tfalse")
        #expect(h.eval("""
            local s = flow.newStore()
            s:addNode{id = 'a'}
            s.onNodesChange = function() getmetatable(s).__close(s) end
            return s:moveNode('a', 5, 5), pcall(s.moveNode, s, 'a', 6, 6)
            """) == "true\tfalse\tattempt to use a closed Store")
        #expect(h.eval("""
            local s = flow.newStore()
            s:addNode{id = 'a'} s:addNode{id = 'b'}
            local o = flow.observe(function() getmetatable(s).__close(s) end)
            local e = s:addEdge{id = 'x', sourceNodeID = 'a', targetNodeID = 'b'}
            o:stop()
            return tostring(e)
            """) == "Edge x (removed)")
    }

    /// User values replaced with the debug library: the handle reads as closed, never
    /// crashes.
    @Test func tamperedUserValues() {
        let h = StoreHost()
        h.eval("s = flow.newStore() s:addNode{id='a'} s:addNode{id='b'}")
        // (kept in globals: the tampered handles stay the cached ones)
        #expect(h.eval("na = s:node('a') debug.setuservalue(na, {}, 1) return na:exists(), tostring(na)") == "false\tNode a (removed)")
        #expect(h.errorOf("return s:node('a').x") == "attempt to use a closed Store")
        #expect(h.eval("nb = s:node('b') debug.setuservalue(nb, 5, 2) return nb:exists(), tostring(nb)") == "false\tNode  (removed)")
        #expect(h.errorOf("return s:node('b'):move(1, 2)") == "attempt to use a closed Store")
        #expect(h.eval("return na == nb, rawequal(s:node('a'), na)") == "false\ttrue")
        // a userdata of another type given the Node metatable
        #expect(h.eval("""
            local other = flow.newStore()
            local mt = getmetatable(other)
            debug.setmetatable(other, getmetatable(s:node('a')))
            local r = {pcall(function() return other.x end)}
            local t = tostring(other)
            debug.setmetatable(other, mt)
            return r[2], t
            """) == "chunk:4: attempt to use a closed Store\tNode  (removed)")
        // a handle given a Store's metatable is no Store (its block holds no object)
        #expect(h.eval("""
            local fake = s:addNode{id='c'}
            local mt = getmetatable(fake)
            debug.setmetatable(fake, getmetatable(s))
            local victim = s:node('a')
            debug.setuservalue(victim, fake, 1)
            local _, e1 = pcall(s.addNode, fake, {})
            local _, e2 = pcall(function() return victim.x end)
            debug.setmetatable(fake, mt)
            return e1, e2
            """) == "bad argument #1 to 'addNode' (Store expected, got Store)\tchunk:7: attempt to use a closed Store")
    }

    /// A million handles made and dropped: they are plain Lua objects (no Swift object, no
    /// finaliser), so the collector keeps memory flat on its own.
    @Test func aMillionHandlesKeepMemoryFlat() {
        let h = StoreHost()
        let r = h.eval("""
            local s = flow.newStore()
            for i = 1, 200 do s:addNode{id = 'n' .. i} end
            for i = 1, 50 do s:connect('n' .. i, 'n' .. (i + 1)) end
            local function round()
              -- 200 new node handles, 50 new edge handles; the last round's are garbage
              local ns, es = s:nodes(), s:edges()
              return #ns + #es
            end
            local made = 0
            for _ = 1, 20 do made = made + round() end
            collectgarbage() collectgarbage()
            local before = collectgarbage('count')
            local peak = before
            for r = 1, 4000 do
              made = made + round()
              if r % 10 == 0 then
                collectgarbage()  -- every handle of the rounds before is unreachable: made anew
                peak = math.max(peak, collectgarbage('count'))
              end
            end
            for i = 1, 10000 do local n = s:node('n' .. (i % 200 + 1)) end
            collectgarbage() collectgarbage()
            local after = collectgarbage('count')
            return made, math.floor(after - before), math.floor(peak - before)
            """)
        let parts = r.split(separator: "\t").compactMap { Int($0) }
        #expect(parts.count == 3, "\(r)")
        guard parts.count == 3 else { return }
        #expect(parts[0] >= 1_000_000)
        // kilobytes: nothing accumulates across a million handles
        #expect(parts[1] < 64, "grew by \(parts[1]) KB")
        #expect(parts[2] < 512, "peak \(parts[2]) KB above the start")
    }
}
