-- Node and Edge handle identity (lua-api §2, §3): while a handle is alive, every handle the
-- store gives for its id is that very userdata, across removal, re-adding, a slot taken over
-- by another item, undo, redo, a rolled-back transaction, load and (for edges) the removal
-- of a node taking its edges along; and a handle never names an item with another id.
-- Also run under GC stress and valgrind by scripts/check-memory.
local flow = require "flow"

local function gone(h, id)
  local ok, err = pcall(function() return h.x end)
  return not ok and tostring(err):match("node '" .. id .. "' no longer exists$") ~= nil
    and tostring(h) == "Node " .. id .. " (removed)"
end

local function edgeGone(h, id)
  local ok, err = pcall(function() return h.sourceNodeID end)
  return not ok and tostring(err):match("edge '" .. id .. "' no longer exists$") ~= nil
    and tostring(h) == "Edge " .. id .. " (removed)" and not h:exists()
end

-- Sets the change callback `field` of store `st` to one that keeps, for each id added, the
-- handle `get` (a Store method) gives during the add; returns that table.
local function watchAdds(st, field, get)
  local seen = {}
  st[field] = function(changes)
    for _, c in ipairs(changes) do
      if c.type == "add" then seen[c.id] = get(st, c.id) end
    end
  end
  return seen
end

local s = flow.newStore()

-- removed, then another node takes the slot, then the id comes back
local a = s:addNode{id = "a", x = 1}
assert(s:removeNode("a") and not a:exists() and gone(a, "a"))
local b = s:addNode{id = "b", x = 2}
assert(b ~= a and rawequal(s:node("b"), b) and b.id == "b" and b.x == 2)
assert(gone(a, "a") and s:node("a") == nil)
assert(rawequal(s:addNode{id = "a", x = 3}, a) and a.x == 3 and a:exists())
assert(rawequal(s:nodes()[1], b) and rawequal(s:nodes()[2], a))

-- undo and redo of an add and of a removal
local c = s:addNode{id = "c"}
s:undo()
assert(not c:exists() and gone(c, "c"))
local d = s:addNode{id = "d"}  -- c's slot
assert(rawequal(s:node("d"), d) and d ~= c)
s:undo()
s:redo()  -- d again
assert(rawequal(s:node("d"), d))
s:removeNode("d")
s:undo()
assert(rawequal(s:node("d"), d) and d:exists())

-- a transaction that raises is rolled back: its nodes' handles are the ones from before
local ok = pcall(s.transaction, s, function(st)
  st:removeNode("a")
  st:addNode{id = "t"}
  st:addNode{id = "u"}
  error("no")
end)
assert(not ok and rawequal(s:node("a"), a) and s:node("t") == nil and s:node("u") == nil)

-- load: the ids in the loaded document keep their handles
local doc = s:export()
s:removeNode("b")
local e = s:addNode{id = "e"}
assert(s:load(doc))
assert(rawequal(s:node("a"), a) and rawequal(s:node("b"), b) and rawequal(s:node("d"), d))
assert(s:node("e") == nil and gone(e, "e"))

-- the store's table of handles grows as nodes are added: handles made before keep theirs
do
  local g = flow.newStore()
  local hs = {}
  for i = 1, 300 do hs[i] = g:addNode{id = "g" .. i} end
  for i = 1, 300, 7 do g:removeNode("g" .. i) end
  for i = 1, 300 do
    if (i - 1) % 7 == 0 then
      assert(g:node("g" .. i) == nil and rawequal(g:addNode{id = "g" .. i}, hs[i]))
    end
    assert(rawequal(g:node("g" .. i), hs[i]) and hs[i].id == "g" .. i)
  end
end

-- a change callback that asks for the new node's handle during the add gets the one the
-- add returns (the fast path and the general one, which reads `data`)
do
  local seen = watchAdds(s, "onNodesChange", s.node)
  local f = s:addNode{id = "cb1", x = 1}
  local g = s:addNode{id = "cb2", data = {k = 1}}
  s.onNodesChange = nil
  assert(seen.cb1 and rawequal(seen.cb1, f) and rawequal(s:node("cb1"), f))
  assert(seen.cb2 and rawequal(seen.cb2, g) and rawequal(s:node("cb2"), g))
  s:removeNode("cb1")
  s:removeNode("cb2")
end

-- handles of gone nodes are collected like any value; the store keeps none alive
do
  local weak = setmetatable({}, {__mode = "v"})
  weak[1] = s:addNode{id = "w"}
  s:removeNode("w")
  collectgarbage()
  collectgarbage()
  assert(weak[1] == nil)
  local w = s:addNode{id = "w"}
  assert(rawequal(s:node("w"), w))
end

-- Edges: removed, then another edge takes the slot, then the id comes back
do
  local g = flow.newStore()
  for _, id in ipairs{"p", "q", "r"} do g:addNode{id = id} end
  local x = g:addEdge{id = "x", sourceNodeID = "p", targetNodeID = "q"}
  assert(rawequal(g:edge("x"), x) and rawequal(g:edges()[1], x))
  assert(g:removeEdge("x") and edgeGone(x, "x"))
  local y = g:addEdge{id = "y", sourceNodeID = "q", targetNodeID = "r"}  -- x's slot
  assert(y ~= x and rawequal(g:edge("y"), y) and y.sourceNodeID == "q")
  assert(edgeGone(x, "x") and g:edge("x") == nil)
  assert(rawequal(g:connect("r", "p", {id = "x"}), x) and x.sourceNodeID == "r" and x:exists())
  assert(rawequal(g:edges()[1], y) and rawequal(g:edges()[2], x))

  -- undo and redo of an add and of a removal
  local z = g:addEdge{id = "z", sourceNodeID = "p", targetNodeID = "r"}
  g:undo()
  assert(edgeGone(z, "z"))
  local w = g:addEdge{id = "w", sourceNodeID = "p", targetNodeID = "r"}  -- z's slot
  assert(rawequal(g:edge("w"), w) and w ~= z)
  g:undo()
  g:redo()
  assert(rawequal(g:edge("w"), w))
  g:removeEdge("w")
  g:undo()
  assert(rawequal(g:edge("w"), w) and w:exists())

  -- removing a node drops its edges; undo brings them back with their handles
  g:removeNode("r")
  assert(edgeGone(x, "x") and edgeGone(y, "y") and edgeGone(w, "w"))
  local v = g:addEdge{id = "v", sourceNodeID = "p", targetNodeID = "q"}  -- one of their slots
  assert(rawequal(g:edge("v"), v))
  g:undo()
  g:undo()
  assert(rawequal(g:edge("x"), x) and rawequal(g:edge("y"), y) and rawequal(g:edge("w"), w))
  assert(edgeGone(v, "v"))

  -- a transaction that raises is rolled back: its edges' handles are the ones from before
  local ok = pcall(g.transaction, g, function(st)
    st:removeEdge("x")
    st:removeNode("q")
    st:addEdge{id = "t", sourceNodeID = "p", targetNodeID = "r"}
    error("no")
  end)
  assert(not ok and rawequal(g:edge("x"), x) and rawequal(g:edge("y"), y) and g:edge("t") == nil)

  -- load: the ids in the loaded document keep their handles
  local doc = g:export()
  g:removeEdge("y")
  local u = g:addEdge{id = "u", sourceNodeID = "p", targetNodeID = "p"}
  assert(g:load(doc))
  assert(rawequal(g:edge("x"), x) and rawequal(g:edge("y"), y) and rawequal(g:edge("w"), w))
  assert(g:edge("u") == nil and edgeGone(u, "u"))

  -- a handle asked for by a node handle's edges() is the same one
  assert(rawequal(g:node("p"):edges()[1], g:edgesForNode("p")[1]))
end

-- the table of Edge handles grows as edges are added: handles made before keep theirs
do
  local g = flow.newStore()
  g:addNode{id = "a"}
  g:addNode{id = "b"}
  local hs = {}
  for i = 1, 300 do hs[i] = g:addEdge{id = "e" .. i, sourceNodeID = "a", targetNodeID = "b"} end
  for i = 1, 300, 7 do g:removeEdge("e" .. i) end
  for i = 1, 300 do
    if (i - 1) % 7 == 0 then
      assert(g:edge("e" .. i) == nil and rawequal(g:addEdge{id = "e" .. i, sourceNodeID = "b", targetNodeID = "a"}, hs[i]))
    end
    assert(rawequal(g:edge("e" .. i), hs[i]) and hs[i].id == "e" .. i)
  end
end

-- a change callback that asks for the new edge's handle during the add gets the one the add
-- returns (the fast path, the general one and connect); one that removes the edge it was
-- told of leaves a handle that says so
do
  local g = flow.newStore()
  g:addNode{id = "a"}
  g:addNode{id = "b"}
  local seen = watchAdds(g, "onEdgesChange", g.edge)
  local f = g:addEdge{id = "cb1", sourceNodeID = "a", targetNodeID = "b"}
  local h = g:addEdge{id = "cb2", sourceNodeID = "a", targetNodeID = "b", label = "l"}
  local k = g:connect("b", "a", {id = "cb3"})
  assert(seen.cb1 and rawequal(seen.cb1, f) and rawequal(g:edge("cb1"), f))
  assert(seen.cb2 and rawequal(seen.cb2, h) and rawequal(g:edge("cb2"), h))
  assert(seen.cb3 and rawequal(seen.cb3, k) and rawequal(g:edge("cb3"), k))
  g.onEdgesChange = function(changes)
    for _, c in ipairs(changes) do
      if c.type == "add" then
        g.onEdgesChange = nil
        g:removeEdge(c.id)
        g:addEdge{id = "other", sourceNodeID = "b", targetNodeID = "b"}  -- may take its slot
      end
    end
  end
  local gone1 = g:addEdge{id = "cb4", sourceNodeID = "a", targetNodeID = "b"}
  assert(edgeGone(gone1, "cb4") and g:edge("other").id == "other")
end

-- handles of gone edges are collected like any value; the store keeps none alive
do
  local g = flow.newStore()
  g:addNode{id = "a"}
  local weak = setmetatable({}, {__mode = "v"})
  weak[1] = g:addEdge{id = "w", sourceNodeID = "a", targetNodeID = "a"}
  g:removeEdge("w")
  collectgarbage()
  collectgarbage()
  assert(weak[1] == nil)
  local w = g:addEdge{id = "w", sourceNodeID = "a", targetNodeID = "a"}
  assert(rawequal(g:edge("w"), w))
end

-- A random walk over adds, removals (a node's taking its edges along), undo, redo,
-- transactions, loads and collections. After each step every id's handle, node and edge, is
-- checked against the one kept for it.
math.randomseed(20261124)
local random = math.random
local ids, edgeIDs = {}, {}
for i = 1, 12 do ids[i] = "r" .. i end
for i = 1, 16 do edgeIDs[i] = "x" .. i end
local kept, keptEdges = {}, {}  -- id -> a handle kept alive
-- the two kinds: a handle by id, the store's list, the ids, the handles kept, how a gone one reads
local kinds = {
  {get = s.node, list = s.nodes, ids = ids, kept = kept, gone = function(h, id) return not h:exists() and gone(h, id) end},
  {get = s.edge, list = s.edges, ids = edgeIDs, kept = keptEdges, gone = edgeGone},
}
local function check(step)
  for _, k in ipairs(kinds) do
    for _, id in ipairs(k.ids) do
      local h = k.get(s, id)
      if h then
        assert(h.id == id, step)
        if k.kept[id] then assert(rawequal(h, k.kept[id]), step .. ": " .. id .. " has a new handle") end
        if random() < 0.5 then k.kept[id] = h end
      elseif k.kept[id] then
        assert(k.gone(k.kept[id], id), step)
      end
    end
    local list = k.list(s)
    for i, h in ipairs(list) do
      if k.kept[h.id] then assert(rawequal(h, k.kept[h.id]), step) end
      assert(k.list(s)[i].id == h.id, step)
    end
  end
end
local function present(id) return s:node(id) ~= nil end
-- adds edge `id` between two random nodes of the store when it is not there; the general
-- path when `general` (a label), else the fast one
local function addEdge(st, id, general)
  local nodes = st:nodes()
  if st:edge(id) or #nodes == 0 then return end
  local a, b = nodes[random(#nodes)].id, nodes[random(#nodes)].id
  local h
  if general then
    h = st:addEdge{id = id, sourceNodeID = a, targetNodeID = b, label = id}
  else
    h = st:addEdge{id = id, sourceNodeID = a, targetNodeID = b}
  end
  if keptEdges[id] then assert(rawequal(h, keptEdges[id]), "re-added edge " .. id .. " has a new handle") end
end
-- one random change of a transaction's body
local function change(st)
  local r = random()
  if r < 0.5 then
    local x = ids[random(#ids)]
    if present(x) then st:removeNode(x) else st:addNode{id = x} end
  else
    local x = edgeIDs[random(#edgeIDs)]
    if st:edge(x) then st:removeEdge(x) else addEdge(st, x, random() < 0.5) end
  end
end
local saved = s:export()
for step = 1, 600 do
  local r, id, eid = random(), ids[random(#ids)], edgeIDs[random(#edgeIDs)]
  local what
  if r < 0.18 then
    what = "add " .. id
    if not present(id) then
      local h = s:addNode{id = id, x = step}
      if kept[id] then assert(rawequal(h, kept[id]), "re-added " .. id .. " has a new handle") end
    end
  elseif r < 0.25 then
    what = "remove " .. id
    if present(id) then s:removeNode(id) end
  elseif r < 0.45 then
    what = "add edge " .. eid
    addEdge(s, eid, random() < 0.3)
  elseif r < 0.52 then
    what = "remove edge " .. eid
    if s:edge(eid) then s:removeEdge(eid) end
  elseif r < 0.6 then
    what = "undo"
    s:undo()
  elseif r < 0.68 then
    what = "redo"
    s:redo()
  elseif r < 0.75 then
    what = "rolled-back transaction"
    pcall(s.transaction, s, function(st)
      for _ = 1, 4 do change(st) end
      error("roll back")
    end)
  elseif r < 0.8 then
    what = "transaction"
    s:transaction(function(st)
      for _ = 1, 4 do change(st) end
    end)
  elseif r < 0.84 then
    what = "load"
    if random() < 0.5 then saved = s:export() else assert(s:load(saved)) end
  elseif r < 0.9 then
    what = "drop " .. id
    kept[id] = nil
  elseif r < 0.96 then
    what = "drop edge " .. eid
    keptEdges[eid] = nil
  else
    what = "collect"
    collectgarbage()
  end
  check(step .. " (" .. what .. ")")
end
print("identity: ok")
