-- A generated graph of 1,000 services where each calls up to three services a little
-- further down the list, chosen by a fixed linear congruential generator so the output is
-- the same on every run. No coordinates: store:layout() places every node and routes every
-- edge. Writes biggraph.json and biggraph.svg into the directory given as the first
-- argument (default: ".").
--
--   scripts/flowrepl scripts/examples/biggraph.lua [outdir]

local flow = require "flow"
local outdir = (arg and arg[1]) or "."

local N, COLS = 1000, 40
local seed = 12345
local function random(n)            -- deterministic: same graph every run
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % n
end

local s = flow.newStore()
-- Added in two calls (store:addNodes, store:addEdges): one change each, far cheaper per
-- item than a call per node or edge. The edges as columns (a value that is not a table,
-- like pathType = "straight", is the same for every item); the nodes as a list, since a
-- node with data is read from a table either way and the list is then the cheaper form.
local nodes = {}
for i = 0, N - 1 do
  nodes[#nodes + 1] = { id = "s" .. i, x = 0, y = 0, width = 80, height = 40,
                        data = { label = "svc " .. i } }
end
local from, to = {}, {}
for i = 0, N - 1 do
  for _ = 1, 1 + random(3) do
    local j = i + COLS + random(2 * COLS) - COLS // 2
    if j > i and j < N then
      from[#from + 1], to[#from + 1] = "s" .. i, "s" .. j
    end
  end
end
assert(s:addNodes(nodes) == N)
assert(s:addEdges{ sourceNodeID = from, sourceHandleID = "source", targetNodeID = to,
                   targetHandleID = "target", pathType = "straight" } == #from)

local stats = s:layout{ nodeSpacing = 20, layerSpacing = 60 }
local b = s:nodeBounds()
assert(s.nodeCount == N)
assert(s:save(outdir .. "/biggraph.json"))
s:fitToContent(8000, 1000, 20)     -- the laid-out graph is wider than a PNG may be: scale it
assert(s:save(outdir .. "/biggraph.svg", { fit = false, width = 8000, height = 1000 }))
print(("biggraph: %d nodes, %d edges, %d layers, %d crossings in %gx%g -> %s/biggraph.json, %s/biggraph.svg"):format(
  s.nodeCount, s.edgeCount, stats.layers, stats.crossings, b.width, b.height, outdir, outdir))
