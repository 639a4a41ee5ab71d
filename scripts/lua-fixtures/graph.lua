-- Building a graph through the loadable module: nodes, edges, handles, queries.
local flow = require "flow"

local store = flow.newStore()
assert(flow.type(store) == "Store")
local a = store:addNode{id="a", x=50, y=100, width=120, height=50, data={label="A"}}
local b = store:addNode{x=300, y=100}
assert(b.id == "n1", "generated ids start at n1")
assert(tostring(a) == "Node a (50, 100, 120x50)")
assert(a == store:node("a"), "handles compare equal")

local e = store:connect("a", "n1", {label="Yes"})
assert(tostring(e) == "Edge e1 (a.source -> n1.target)")
assert(store.nodeCount == 2 and store.edgeCount == 1)
assert(tostring(store) == "Store (2 nodes, 1 edge)")

-- handles are live
store:moveNode("a", 60, 100)
assert(a.x == 60 and a.position.y == 100)
a:resize(10, 20)
assert(a.size.width == 10 and a.frame.height == 20)

-- store order, not hash order
for i = 1, 20 do store:addNode{id="k" .. i, x=i, y=0} end
local ids = {}
for _, n in ipairs(store:nodes()) do ids[#ids + 1] = n.id end
assert(ids[1] == "a" and ids[2] == "n1" and ids[3] == "k1" and ids[22] == "k20")

-- removal cascades to edges; stale handles report it
a:remove()
assert(not a:exists() and not e:exists() and b:exists())
assert(store.edgeCount == 0)
local ok, err = pcall(function() return a.x end)
assert(not ok and err:find("node 'a' no longer exists", 1, true), err)
-- moveNode on its own store, with nobody listening, has its arguments read in C; the calls
-- it cannot complete give the argument readers' errors, and nothing moves
do
  local s = flow.newStore()
  s:addNode{id="m", x=0, y=0}
  assert(s:moveNode("m", 5, 6) == true and s:moveNode("m", 5, 6) == false)
  assert(s:node("m").x == 5 and s:node("m").y == 6)
  local function err(...) local ok, e = pcall(s.moveNode, ...); assert(not ok); return e end
  assert(err(s, "zz", 1, 2) == "moveNode: no node with id 'zz'")
  assert(err(s, "m", 0/0, 1) == "moveNode: position must be finite numbers")
  assert(err(s, "m", 1) == "bad argument #4 to 'moveNode' (number expected, got no value)")
  assert(err({}, "m", 1, 2) == "bad argument #1 to 'moveNode' (Store expected, got table)")
  assert(s:node("m").x == 5 and s:node("m").y == 6)
  local t = flow.newStore()
  t:addNode{id="m", x=0, y=0}
  assert(s.moveNode(t, "m", 9, 9) == true and t:node("m").x == 9 and s:node("m").x == 5)
  assert(s:undo() and s:node("m").x == 0, "a fast move is one undo step")
  local move
  do local c <close> = flow.newStore(); c:addNode{id="m"}; t, move = c, c.moveNode end
  assert(select(2, pcall(move, t, "m", 1, 2)) == "attempt to use a closed Store")
end
print("graph: ok")
