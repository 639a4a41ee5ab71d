-- The floor of the batch adds' shapes (issue #42), run by ./run under callgrind:
--   host floor.lua STORE STAGE N R   -> instructions of R batches of N items, each item
-- added to or read beside a pure-Lua store of N nodes and N edges (flowbench's baseline,
-- STORE is its source). Only the stage is collected (toggle()); the arrays it starts from
-- (ids, coordinates, end nodes) are made before, as in flowbench.
local storeFile, stage, N, R = arg[1], arg[2], tonumber(arg[3]), tonumber(arg[4])
local TableStore = dofile(storeFile)
local s = TableStore.new()
local ids = {}
for i = 1, N do
  ids[i] = "n" .. i
  s:addNode{id = ids[i], x = i, y = i, width = 150, height = 60}
end
for i = 1, N do s:addEdge{id = "e" .. i, sourceNodeID = ids[i], targetNodeID = ids[i % N + 1]} end

local function nodeList(id, xs, ys)
  local list = {}
  for j = 1, #id do list[j] = {id = id[j], x = xs[j], y = ys[j], width = 150, height = 60} end
  return list
end
local function edgeList(id, src, dst)
  local list = {}
  for j = 1, #id do list[j] = {id = id[j], sourceNodeID = src[j], targetNodeID = dst[j]} end
  return list
end
local function copies(a, b, c)
  local x, y, z = {}, {}, {}
  for j = 1, #a do x[j], y[j], z[j] = a[j], b[j], c[j] end
  return x, y, z
end

local stages = {
  addNode = function(id, xs, ys)
    for j = 1, N do s:addNode{id = id[j], x = xs[j], y = ys[j], width = 150, height = 60} end
  end,
  addEdge = function(id, _, _, src, dst)
    for j = 1, N do s:addEdge{id = id[j], sourceNodeID = src[j], targetNodeID = dst[j]} end
  end,
  nodeList = function(id, xs, ys) nodeList(id, xs, ys) end,
  edgeList = function(id, _, _, src, dst) edgeList(id, src, dst) end,
  nodeColumns = function(id, xs, ys) copies(id, xs, ys) end,
  edgeColumns = function(id, _, _, src, dst) copies(id, src, dst) end,
}
-- readers of a list built untimed: "<reader>Nodes" / "<reader>Edges"
for _, reader in ipairs{"fetch", "walk", "read", "get"} do
  stages[reader .. "Nodes"] = function(id, xs, ys)
    local list = nodeList(id, xs, ys)
    toggle(); _G[reader](list, "id", "x", "y", "width", "height"); toggle()
  end
  stages[reader .. "Edges"] = function(id, _, _, src, dst)
    local list = edgeList(id, src, dst)
    toggle(); _G[reader](list, "id", "sourceNodeID", "targetNodeID"); toggle()
  end
end
stages.columnsNodes = function(id, xs, ys) toggle(); columns(id, xs, ys); toggle() end
stages.columnsEdges = function(id, _, _, src, dst) toggle(); columns(id, src, dst); toggle() end
local f = assert(stages[stage], "unknown stage")
local toggled = not (stage:match("Nodes$") or stage:match("Edges$"))

math.randomseed(42)
local serial = 0
for _ = 1, R do
  local id, xs, ys, src, dst = {}, {}, {}, {}, {}
  for j = 1, N do
    serial = serial + 1
    id[j], xs[j], ys[j] = "b" .. serial, math.random(0, 1000), math.random(0, 1000)
    src[j], dst[j] = ids[math.random(N)], ids[math.random(N)]
  end
  collectgarbage()
  if toggled then toggle() end
  f(id, xs, ys, src, dst)
  if toggled then toggle() end
  if stage == "addNode" then for j = 1, N do s:removeNode(id[j]) end end
  if stage == "addEdge" then for j = 1, N do s:removeEdge(id[j]) end end
end
