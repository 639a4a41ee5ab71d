-- Batch adds with lists longer than what the C reader takes at a time (256 entries): entries
-- the general reader takes at a chunk's edges, a failure deep in the list, one undo step and
-- one event batch in list order.
local flow = require "flow"

local function nodeList(n)
  local list = {}
  for i = 1, n do list[i] = {id = "n" .. i, x = i, y = 0, width = 5, height = 5} end
  return list
end

local function ids(items)
  local t = {}
  for i, item in ipairs(items) do t[i] = item.id end
  return t
end

-- general entries at the edges of the chunks keep their place and their fields
local s = flow.newStore()
local list = nodeList(600)
list[256].data = {n = 256}
list[257].data = {n = 257}
list[512].acceptsChildren = true
list[513].parentID = "n512"
list[514].x = "514" -- a string Lua converts, as addNode takes it
assert(s:addNodes(list) == 600)
local order = ids(s:nodes())
assert(#order == 600)
for i = 1, 600 do assert(order[i] == "n" .. i, "store order is list order") end
assert(s:node("n256").data.n == 256 and s:node("n257").data.n == 257)
assert(s:node("n513").parentID == "n512" and s:node("n514").x == 514)
assert(s:node("n600").width == 5 and s:node("n1").x == 1)

-- a bad entry deep in a long list: nothing of it is added, the error names the entry
local bad = nodeList(700)
for i = 1, 700 do bad[i].id = "m" .. i end
bad[400].x = "left"
local ok, err = pcall(s.addNodes, s, bad)
assert(not ok and err:find("addNodes: item 400: field 'x'", 1, true), err)
assert(s.nodeCount == 600 and s:node("m1") == nil)
bad[400].x = 0
bad[650].id = "n7"
ok, err = pcall(s.addNodes, s, bad)
assert(not ok and err:find("addNodes: item 650: node 'n7' already exists", 1, true), err)
assert(s.nodeCount == 600 and s:node("m1") == nil)

-- edges: a long list is one undo step and one batch of events in list order
local edges = {}
for i = 1, 700 do edges[i] = {id = "e" .. i, sourceNodeID = "n" .. i % 600 + 1, targetNodeID = "n1"} end
edges[300].label = "three hundred"
edges[301].points = {{x = 1, y = 2}}
local batches, seen = 0, {}
s.onEdgesChange = function(changes)
  batches = batches + 1
  for i, c in ipairs(changes) do seen[i] = c.type .. " " .. c.id end
end
assert(s:addEdges(edges) == 700)
assert(batches == 1 and #seen == 700 and seen[1] == "add e1" and seen[300] == "add e300" and seen[700] == "add e700")
assert(s:edge("e300").label == "three hundred" and #s:edge("e301").points == 1)
s.onEdgesChange = nil
s:undo()
assert(s.edgeCount == 0 and s.nodeCount == 600)
s:redo()
assert(s.edgeCount == 700 and ids(s:edges())[700] == "e700")

-- keys built at run time are the same keys (short strings are one string each); long and
-- number keys are not keys of an entry
local t = flow.newStore()
assert(t:addNodes{{[("i"):rep(1) .. "d"] = "k1", ["wid" .. "th"] = 10, height = 10}, {id = "k2"}} == 2)
assert(t:node("k1").width == 10 and t:node("k2").width == 150)
ok, err = pcall(t.addNodes, t, {{id = "u1"}, {id = "u2", ["x" .. ("y"):rep(45)] = 1}})
assert(not ok and err:find("item 2", 1, true), err)
ok, err = pcall(t.addNodes, t, {{id = "u1"}, {id = "u2", [1] = 5}})
assert(not ok and err:find("item 2", 1, true), err)
assert(t.nodeCount == 2)
print("batch: ok")
