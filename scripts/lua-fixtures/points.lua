-- Bend points: export/decode round trips byte-exact, every random change undone and redone
-- back to each recorded document, and a move of both ends carried in one undo step.
local flow = require "flow"

local store = flow.newStore()
for i = 1, 6 do store:addNode{id="n" .. i, x=i * 100, y=(i % 3) * 80} end
local types = {"bezier", "straight", "smoothStep", "simpleBezier"}
for i = 1, 6 do
  store:addEdge{id="e" .. i, sourceNodeID="n" .. i, targetNodeID="n" .. (i % 6 + 1), pathType=types[i % 4 + 1]}
end
local base = store:export()
assert(not base:find('"points"'), "no points written for edges without any")

-- A deterministic walk of point changes; the document after each step is recorded.
local seed = 12345
local function rand(n) seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n end
local states = {base}
for step = 1, 40 do
  local id = "e" .. (rand(6) + 1)
  local points = {}
  for k = 1, rand(4) do points[k] = {x=rand(1000) - 500 + 0.25, y=rand(1000) - 500} end
  if rand(5) == 0 then points = flow.null end
  if store:updateEdge(id, {points=points}) then states[#states + 1] = store:export() end
  local copy = assert(flow.decode(states[#states]))
  assert(copy:export() == states[#states], "round trip at step " .. step)
  for _, e in ipairs(store:edges()) do
    local g = e:geometry()
    assert(g.path:sub(1, 1) == "M", "a path for " .. e.id)
    for _, p in ipairs(e.points) do
      assert(p.x >= g.bounds.x - 1e-9 and p.x <= g.bounds.x + g.bounds.width + 1e-9, "bounds hold the points")
    end
  end
end
for i = #states - 1, 1, -1 do
  store:undo()
  assert(store:export() == states[i], "undo back to state " .. i)
end
for i = 2, #states do
  store:redo()
  assert(store:export() == states[i], "redo to state " .. i)
end

-- Moving both ends by one delta moves the points, in one undo step.
store:updateEdge("e1", {points={{x=150, y=300}}})
local before = store:export()
store:setNodePositions{n1={x=110, y=80}, n2={x=210, y=160}}
assert(store:edge("e1").points[1].x == 160 and store:edge("e1").points[1].y == 300, "carried")
store:undo()
assert(store:export() == before, "one step restores nodes and points")
