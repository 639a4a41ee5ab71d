-- Runs the order state machine of statemachine.lua with a walker, along two paths: the
-- happy path, and one where the item is out of stock until it is restocked. A guard reads
-- the stock level from the walk's context. Prints both paths, and writes a picture of each
-- (the path's nodes and edges selected) as walk-happy.svg and walk-backorder.svg, next to
-- statemachine.json and statemachine.svg, into the directory given as the first argument
-- (default: ".").
--
--   scripts/flowrepl scripts/examples/walk.lua [outdir]

local flow = require "flow"
local outdir = (arg and arg[1]) or "."
local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."

-- statemachine.lua reads the same arg[1]: it writes its document where we read it
dofile(here .. "/statemachine.lua")
local s = assert(flow.open(outdir .. "/statemachine.json"))

-- Leaving "In stock?" by "yes" needs stock, by "no" needs none.
local function guard(edge, ctx)
  if edge.sourceNodeID == "stock" then
    return (edge.label == "yes") == (ctx.stock > 0)
  end
  return true
end

local function describe(w)
  local nodes, edges = w:history()
  local parts = { nodes[1].data.label }
  for i, e in ipairs(edges) do
    parts[#parts + 1] = (e.label and ("-[" .. e.label .. "]-> ") or "-> ") .. nodes[i + 1].data.label
  end
  return table.concat(parts, " "), #edges
end

-- Selects the nodes and edges of the walk so far, for the picture.
local function picture(w, name)
  local nodes, edges = w:history()
  s:clearSelection()
  for _, n in ipairs(nodes) do s:selectNode(n.id, false) end
  for _, e in ipairs(edges) do s:selectEdge(e.id, false) end
  assert(s:save(outdir .. "/" .. name .. ".svg"))
end

-- 1. The happy path: paid, in stock, shipped.
local w = s:walk("received", { guard = guard, context = { stock = 3 } })
w:next()                       -- received has one way on
w:next("yes")                  -- "Payment ok?" (a source handle id)
w:next("yes")                  -- "In stock?": the guard opens "yes" only
assert(w.current.id == "shipped", "the happy path ships")
local text, steps = describe(w)
print(("happy path (%d steps): %s"):format(steps, text))
picture(w, "walk-happy")

-- 2. Out of stock: the guard closes "yes" until the restock.
w:reset()
w.context.stock = 0
w:next()
w:next("yes")
local ways = w:options()
assert(#ways == 1 and ways[1].label == "no", "with no stock the only way on is 'no'")
w:next()                       -- to Backordered
w.context.stock = 5            -- the restock arrives
w:next("restocked")            -- a label
w:next()                       -- now "yes" is the one way on
assert(w.current.id == "shipped", "the backorder path ships too")
text, steps = describe(w)
print(("backorder path (%d steps): %s"):format(steps, text))
picture(w, "walk-backorder")

-- Every state can still reach the end, and the loop is the machine's one cycle.
local cycles = s:cycles()
assert(#cycles == 1, "one loop: In stock? <-> Backordered")
for _, n in ipairs(s:nodes()) do
  if n.id ~= "shipped" and n.id ~= "cancelled" then
    local reaches = {}
    for _, r in ipairs(s:reachable(n)) do reaches[r.id] = true end
    assert(reaches.shipped or reaches.cancelled, n.id .. " reaches an end")
  end
end
