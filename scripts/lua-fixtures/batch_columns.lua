-- Batch adds in columns longer than what the C reader takes at a time (256 items): items the
-- general reader takes at a chunk's edges, a failure deep in the columns, the same store as
-- the list form makes, one undo step and one event batch in item order.
local flow = require "flow"

local function columns(n)
  local c = {id = {}, x = {}, y = 0, width = {}, height = 5}
  for i = 1, n do c.id[i], c.x[i], c.width[i] = "n" .. i, i, 5 end
  return c
end

-- the columns make the store the list of the same entries makes
local s, t = flow.newStore(), flow.newStore()
local c = columns(600)
c.x[514] = "514" -- a string Lua converts, as addNode takes it
c.data = {}
for i = 1, 600 do c.data[i] = flow.null end
c.data[256], c.data[257] = {n = 256}, {n = 257}
assert(s:addNodes(c) == 600)
local list = {}
for i = 1, 600 do
  list[i] = {id = c.id[i], x = c.x[i], y = 0, width = 5, height = 5}
  if i == 256 or i == 257 then list[i].data = {n = i} end
end
assert(t:addNodes(list) == 600)
assert(s:encode() == t:encode(), "columns and list make the same store")
assert(s:node("n514").x == 514 and s:node("n256").data.n == 256 and s:node("n258").data == nil)

-- a bad item deep in long columns: nothing is added, the error names the item and the field
local bad = columns(700)
for i = 1, 700 do bad.id[i] = "m" .. i end
bad.x[400] = "left"
local ok, err = pcall(s.addNodes, s, bad)
assert(not ok and err:find("addNodes: item 400: field 'x': number expected, got string", 1, true), err)
assert(s.nodeCount == 600 and s:node("m1") == nil)
bad.x[400] = 0
bad.id[650] = "n7"
ok, err = pcall(s.addNodes, s, bad)
assert(not ok and err:find("addNodes: item 650: node 'n7' already exists", 1, true), err)
bad.id[650] = "m650"
bad.x[700] = nil -- a hole at the end: the columns' lengths differ
ok, err = pcall(s.addNodes, s, bad)
assert(not ok and err:find("columns of unequal length: 'id' has 700 items, 'x' has 699 items", 1, true), err)
assert(s.nodeCount == 600 and s:node("m1") == nil)
ok, err = pcall(s.addNodes, s, { id = { "m1", "m2" }, x = { 0 } })
assert(not ok and err:find("'id' has 2 items, 'x' has 1 item)", 1, true), err)

-- edges: long columns are one undo step and one batch of events in item order
local e = {id = {}, sourceNodeID = {}, targetNodeID = "n1", label = {}}
for i = 1, 700 do e.id[i], e.sourceNodeID[i], e.label[i] = "e" .. i, "n" .. i % 600 + 1, flow.null end
e.label[300] = "three hundred"
local batches, seen = 0, {}
s.onEdgesChange = function(changes)
  batches = batches + 1
  for i, ch in ipairs(changes) do seen[i] = ch.type .. " " .. ch.id end
end
assert(s:addEdges(e) == 700)
assert(batches == 1 and #seen == 700 and seen[1] == "add e1" and seen[300] == "add e300" and seen[700] == "add e700")
assert(s:edge("e300").label == "three hundred" and s:edge("e301").label == nil)
s.onEdgesChange = nil
s:undo()
assert(s.edgeCount == 0 and s.nodeCount == 600)
s:redo()
assert(s.edgeCount == 700)
print("batch_columns: ok")
