-- A state machine for an order: decision nodes have "yes" and "no" source handles, and
-- each edge leaving a decision is labelled with the answer. No coordinates: store:layout
-- places the states and keeps the decisions' handles; the edges are orthogonal, so the
-- store routes them around the states, and their labels sit on their routes. Writes
-- statemachine.json and statemachine.svg into the directory given as the first argument
-- (default: ".").
--
--   scripts/flowrepl scripts/examples/statemachine.lua [outdir]

local flow = require "flow"
local outdir = (arg and arg[1]) or "."

local s = flow.newStore{ defaultEdgePathType = "orthogonal" }
local function connect(from, to, label)
  return s:connect(from, to, { label = label, pathType = "orthogonal" })
end

local state_handles = {
  { id = "in", type = "target", position = "top" },
  { id = "out", type = "source", position = "bottom" },
}
local decision_handles = {
  { id = "in", type = "target", position = "top" },
  { id = "yes", type = "source", position = "right" },
  { id = "no", type = "source", position = "left" },
}
-- A state that loops back to a decision leaves on the right and re-enters the decision
-- from below, so that the loop does not cross either node.
local function with(handles, extra)
  local t = {}
  for _, h in ipairs(handles) do t[#t + 1] = h end
  t[#t + 1] = extra
  return t
end
local retry_handles = with(state_handles, { id = "retry", type = "source", position = "right" })
local loop_decision_handles = with(decision_handles, { id = "back", type = "target", position = "bottom" })

local function state(id, label, handles)
  return s:addNode{ id = id, x = 0, y = 0, width = 160, height = 50,
                    data = { label = label, kind = "state" }, handles = handles or state_handles }
end
local function decision(id, question, handles)
  return s:addNode{ id = id, x = 0, y = 0, width = 180, height = 60,
                    data = { label = question, kind = "decision" }, handles = handles or decision_handles }
end

s:transaction(function()
  state("received", "Order received")
  decision("paid", "Payment ok?")
  state("cancelled", "Cancelled")
  decision("stock", "In stock?", loop_decision_handles)
  state("backorder", "Backordered", retry_handles)
  state("shipped", "Shipped")

  connect("received.out", "paid.in")
  connect("paid.yes", "stock.in", "yes")
  connect("paid.no", "cancelled.in", "no")
  connect("stock.yes", "shipped.in", "yes")
  connect("stock.no", "backorder.in", "no")
  connect("backorder.retry", "stock.back", "restocked")
end)

s:layout{ nodeSpacing = 50, layerSpacing = 50 }

-- Every decision must have both answers wired.
for _, n in ipairs(s:nodes()) do
  if n.data.kind == "decision" then
    local answers = {}
    for _, e in ipairs(n:edges()) do
      if e.sourceNodeID == n.id then answers[e.sourceHandleID] = true end
    end
    assert(answers.yes and answers.no, "decision " .. n.id .. " is missing an answer")
  end
end

assert(s:save(outdir .. "/statemachine.json"))
assert(s:save(outdir .. "/statemachine.svg"))
print(("statemachine: %d states, %d transitions -> %s/statemachine.json, %s/statemachine.svg"):format(
  s.nodeCount, s.edgeCount, outdir, outdir))
