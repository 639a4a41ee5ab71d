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
print("graph: ok")
