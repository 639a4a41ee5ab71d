-- Graph queries, walkers and observers through the loadable module: the queries keep their
-- promises on a random graph, a guard's error comes out of the walker unchanged (a table
-- stays a table), a walker and a guard that refer to each other are collected, observers
-- see every store.
local flow = require "flow"

-- a seeded random graph of 200 nodes and 400 edges, some of them backwards
local store = flow.newStore{undo = false}
local seed = 12345
local function random(n)
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % n + 1
end
for i = 1, 200 do store:addNode{id = "v" .. i} end
for _ = 1, 400 do
  local a, b = random(200), random(200)
  if random(10) > 2 then a, b = math.min(a, b), math.max(a, b) end
  if a ~= b then store:connect("v" .. a, "v" .. b) end
end

local position = {}
for i, n in ipairs(store:nodes()) do position[n.id] = i end
local function inStoreOrder(list, what)
  for i = 2, #list do assert(position[list[i - 1].id] < position[list[i].id], what .. " is in store order") end
end

-- every node of a cycle component reaches every other; the rest is the acyclic part
local cyclic = {}
for _, c in ipairs(store:cycles()) do
  inStoreOrder(c, "a cycle")
  for _, n in ipairs(c) do cyclic[n.id] = true end
  local reach = {}
  for _, n in ipairs(store:reachable(c[1])) do reach[n.id] = true end
  for _, n in ipairs(c) do assert(reach[n.id], n.id .. " is reached from " .. c[1].id) end
end
local ok, msg = pcall(store.topologicalOrder, store)
assert(ok == (next(cyclic) == nil), "topologicalOrder raises exactly when there is a cycle")
if not ok then assert(msg:find("the diagram has a cycle: ", 1, true), msg) end

-- shortest paths are walks along real edges, no longer than any path found by hand
for _ = 1, 50 do
  local from, to = "v" .. random(200), "v" .. random(200)
  local nodes, edges = store:path(from, to)
  if nodes then
    assert(#nodes == #edges + 1 and nodes[1].id == from and nodes[#nodes].id == to)
    for i, e in ipairs(edges) do
      assert(e.sourceNodeID == nodes[i].id and e.targetNodeID == nodes[i + 1].id, "a path follows its edges")
    end
  else
    for _, n in ipairs(store:reachable(from)) do assert(n.id ~= to, "no path means not reachable") end
  end
end

-- dropping the backward edges leaves a DAG whose order puts every edge forwards
for _, e in ipairs(store:edges()) do
  if position[e.sourceNodeID] >= position[e.targetNodeID] then store:removeEdge(e.id) end
end
local order = {}
for i, n in ipairs(store:topologicalOrder()) do order[n.id] = i end
for _, e in ipairs(store:edges()) do assert(order[e.sourceNodeID] < order[e.targetNodeID], "edges go forwards") end
local count = 0
for _, c in ipairs(store:components()) do inStoreOrder(c, "a component"); count = count + #c end
assert(count == 200, "components cover every node once")
assert(#store:cycles() == 0)

-- a guard's error is raised unchanged, and the walker stays where it was
local m = flow.newStore()
m:addNode{id = "a"}
m:addNode{id = "b"}
m:connect("a", "b", {label = "go"})
local w = m:walk("a", {guard = function(e, ctx) if ctx.fail then error({code = 42}) end return true end})
w.context.fail = true
local okNext, err = pcall(w.next, w)
assert(not okNext and type(err) == "table" and err.code == 42, "the error object comes through")
assert(w.current.id == "a" and not w.canGoBack)
w.context.fail = false
assert(w:next("go").id == "b" and m.selectedNodeIDs[1] == "b")

-- a walker whose guard refers to it is collected with it
local weak = setmetatable({}, {__mode = "v"})
do
  local w2
  w2 = m:walk("a", {show = false, guard = function() return w2 ~= nil end})
  weak[1] = w2
end
collectgarbage()
collectgarbage()
assert(weak[1] == nil, "walker and guard collected")

-- observers see every store, named in creation order; stopping ends it
local seen = {}
local o = flow.observe(function(name, changes, s)
  seen[#seen + 1] = name .. ":" .. #changes.nodes .. ":" .. #changes.edges
  assert(flow.type(s) == "Store")
end)
local s1 = flow.newStore()
s1.name = "first"
s1:addNode{id = "x"}
m:moveNode("a", 1, 2)
assert(seen[1] == "first:1:0" and seen[2]:match("^store#%d+:1:0$"), table.concat(seen, ", "))
assert(o:stop() and not o:stop() and not o.isActive)
s1:addNode{id = "y"}
assert(#seen == 2, "a stopped observer is not called")
