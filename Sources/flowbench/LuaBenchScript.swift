// The Lua half of the benchmarks: the pure-Lua table store that is the baseline, and the
// benchmark loops. Both run in-process in a LuaHost (see LuaBench.swift), so every timed
// call of the flow store includes the Lua -> binding call.

/// A plain Lua store with the same methods and argument shapes as the `flow` Store (for the
/// calls measured here). Nodes are `nodes[id] = {x, y, w, h}`, edges `edges[id] = {src, dst}`,
/// adjacency `adj[id] = {[edgeID] = true}`; insertion order is kept in arrays whose
/// tombstones are compacted when they outnumber the live entries, so removal is amortised
/// O(1). Hit test, bounds, fit, export and selection are linear
/// scans. Defines the global `TableStore`.
let tableStoreSource = #"""
local TableStore = {}
TableStore.__index = TableStore

function TableStore.new()
  return setmetatable({
    nodes = {}, adj = {}, order = {}, index = {}, count = 0, dead = 0,
    edges = {}, edgeOrder = {}, edgeIndex = {}, edgeCount = 0, deadEdges = 0,
    selected = {}, viewport = {x = 0, y = 0, zoom = 1},
  }, TableStore)
end

-- Drops the tombstones of an order array once they outnumber the live entries (amortised
-- O(1) per removal). Returns the new count.
local function compact(order, index, count)
  local k = 0
  for i = 1, count do
    local id = order[i]
    if id then k = k + 1; order[k] = id; index[id] = k end
  end
  for i = k + 1, count do order[i] = nil end
  return k
end

function TableStore:addNode(t)
  local id = t.id
  if self.nodes[id] then error("addNode: node '" .. id .. "' already exists", 2) end
  self.nodes[id] = {t.x or 0, t.y or 0, t.width or 150, t.height or 60}
  self.adj[id] = {}
  local k = self.count + 1
  self.count = k
  self.order[k] = id
  self.index[id] = k
  return id
end

function TableStore:moveNode(id, x, y)
  local n = self.nodes[id]
  if not n then error("moveNode: no node with id '" .. tostring(id) .. "'", 2) end
  n[1], n[2] = x, y
  return true
end

function TableStore:addEdge(t)
  local id, src, dst = t.id, t.sourceNodeID, t.targetNodeID
  if self.edges[id] then error("addEdge: edge '" .. id .. "' already exists", 2) end
  if not self.nodes[src] then error("addEdge: source node '" .. src .. "' does not exist", 2) end
  if not self.nodes[dst] then error("addEdge: target node '" .. dst .. "' does not exist", 2) end
  self.edges[id] = {src, dst}
  self.adj[src][id] = true
  self.adj[dst][id] = true
  local k = self.edgeCount + 1
  self.edgeCount = k
  self.edgeOrder[k] = id
  self.edgeIndex[id] = k
  return id
end

function TableStore:removeEdge(id)
  local e = self.edges[id]
  if not e then error("removeEdge: no edge with id '" .. tostring(id) .. "'", 2) end
  self.adj[e[1]][id] = nil
  self.adj[e[2]][id] = nil
  self.edges[id] = nil
  self.selected[id] = nil
  self.edgeOrder[self.edgeIndex[id]] = false
  self.edgeIndex[id] = nil
  self.deadEdges = self.deadEdges + 1
  if self.deadEdges > 64 and 2 * self.deadEdges > self.edgeCount then
    self.edgeCount = compact(self.edgeOrder, self.edgeIndex, self.edgeCount)
    self.deadEdges = 0
  end
  return true
end

function TableStore:removeNode(id)
  local adj = self.adj[id]
  if not adj then error("removeNode: no node with id '" .. tostring(id) .. "'", 2) end
  for eid in pairs(adj) do self:removeEdge(eid) end
  self.nodes[id] = nil
  self.adj[id] = nil
  self.selected[id] = nil
  self.order[self.index[id]] = false
  self.index[id] = nil
  self.dead = self.dead + 1
  if self.dead > 64 and 2 * self.dead > self.count then
    self.count = compact(self.order, self.index, self.count)
    self.dead = 0
  end
  return true
end

-- Front-most node (last added) whose frame contains the point; a linear scan.
function TableStore:hitTest(x, y)
  local nodes, order = self.nodes, self.order
  for k = self.count, 1, -1 do
    local id = order[k]
    if id then
      local n = nodes[id]
      if x >= n[1] and y >= n[2] and x < n[1] + n[3] and y < n[2] + n[4] then
        return {kind = "node", id = id}
      end
    end
  end
  return nil
end

function TableStore:nodeBounds()
  local minX, minY, maxX, maxY = math.huge, math.huge, -math.huge, -math.huge
  for _, n in pairs(self.nodes) do
    local x, y = n[1], n[2]
    if x < minX then minX = x end
    if y < minY then minY = y end
    if x + n[3] > maxX then maxX = x + n[3] end
    if y + n[4] > maxY then maxY = y + n[4] end
  end
  if minX > maxX then return {x = 0, y = 0, width = 0, height = 0} end
  return {x = minX, y = minY, width = maxX - minX, height = maxY - minY}
end

function TableStore:fitToContent(width, height, padding)
  if self.count == self.dead then return false end
  padding = padding or 50
  local b = self:nodeBounds()
  local zoom = math.min(1, width / (b.width + 2 * padding), height / (b.height + 2 * padding))
  self.viewport = {
    x = -b.x * zoom + (width - b.width * zoom) / 2,
    y = -b.y * zoom + (height - b.height * zoom) / 2,
    zoom = zoom,
  }
  return true
end

local function jnum(v)
  if v == math.floor(v) and v > -2^53 and v < 2^53 then return string.format("%d", v) end
  return string.format("%.17g", v)
end

local escapes = {['"'] = '\\"', ['\\'] = '\\\\', ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t'}
local function jstr(s)
  if s:find('[%c"\\]') then
    s = s:gsub('[%c"\\]', function(c) return escapes[c] or string.format("\\u%04x", c:byte()) end)
  end
  return '"' .. s .. '"'
end

-- The document as compact JSON with sorted keys, in store order.
function TableStore:export()
  local out, k = {'{"edges":['}, 1
  local first = true
  for i = 1, self.edgeCount do
    local id = self.edgeOrder[i]
    if id then
      local e = self.edges[id]
      k = k + 1
      out[k] = (first and "" or ",") .. '{"id":' .. jstr(id) .. ',"source":' .. jstr(e[1])
        .. ',"target":' .. jstr(e[2]) .. '}'
      first = false
    end
  end
  k = k + 1
  out[k] = '],"nodes":['
  first = true
  for i = 1, self.count do
    local id = self.order[i]
    if id then
      local n = self.nodes[id]
      k = k + 1
      out[k] = (first and "" or ",") .. '{"id":' .. jstr(id) .. ',"position":[' .. jnum(n[1]) .. ','
        .. jnum(n[2]) .. '],"size":[' .. jnum(n[3]) .. ',' .. jnum(n[4]) .. ']}'
      first = false
    end
  end
  local v = self.viewport
  k = k + 1
  out[k] = '],"viewport":{"x":' .. jnum(v.x) .. ',"y":' .. jnum(v.y) .. ',"zoom":' .. jnum(v.zoom) .. '}}'
  return table.concat(out)
end

-- Selects every node whose frame intersects the rect and every edge whose centre-to-centre
-- segment has a bounding box intersecting it (coarser than flow's path test).
function TableStore:selectInRect(x, y, w, h)
  local sel, nodes = {}, self.nodes
  local x2, y2 = x + w, y + h
  for id, n in pairs(nodes) do
    if n[1] < x2 and x < n[1] + n[3] and n[2] < y2 and y < n[2] + n[4] then sel[id] = true end
  end
  for id, e in pairs(self.edges) do
    local a, b = nodes[e[1]], nodes[e[2]]
    local ax, ay, bx, by = a[1] + a[3] / 2, a[2] + a[4] / 2, b[1] + b[3] / 2, b[2] + b[4] / 2
    if math.min(ax, bx) <= x2 and x <= math.max(ax, bx) and math.min(ay, by) <= y2
      and y <= math.max(ay, by) then
      sel[id] = true
    end
  end
  self.selected = sel
  return true
end

_G.TableStore = TableStore
"""#

/// The fixture's layout, shared by the benchmarks and the memory measurement (Fixture in
/// SwiftBench.swift builds the same store): node i (1-based) of n sits on a grid of `cols`
/// columns, 200 × 100 apart; its edge goes to the right neighbour (odd i) or the lower one
/// (even i), to the other one at the grid's border, so every edge is short.
let fixtureSource = #"""
function fixturePosition(i, cols)
  return (i - 1) % cols * 200, (i - 1) // cols * 100
end

function fixtureEdgeTarget(i, n, cols)
  local right = (i % cols ~= 0 and i < n) and i + 1 or nil
  local down = (i + cols <= n) and i + cols or nil
  if i % 2 == 1 then return right or down or i - 1 end
  return down or right or i - 1
end
"""#

/// The benchmark loops. Reads the globals `BENCH` ({size=, reps=, budget=, maxMutations=,
/// ops = {name = true, ...}}),
/// `bench_clock` and `bench_cnoop` (C functions), `TableStore`, the fixture functions and
/// `flow`. Returns one line per
/// measurement: `<impl> <op> <seconds per op>` or `<impl> <op> unbound`.
let luaBenchSource = #"""
local clock, cnoop, evict = bench_clock, bench_cnoop, bench_evict
local N, REPS, BUDGET, MAXMUT = BENCH.size, BENCH.reps, BENCH.budget, BENCH.maxMutations
local random, floor, ceil, sqrt = math.random, math.floor, math.ceil, math.sqrt
math.randomseed(42)

-- The fixture: N nodes, N edges (see fixtureSource).
local cols = ceil(sqrt(N))
local rows = ceil(N / cols)
local W, H = cols * 200, rows * 100
local ids, X, Y = {}, {}, {}
for i = 1, N do
  ids[i] = "n" .. i
  X[i], Y[i] = fixturePosition(i, cols)
end

-- The flow store is loaded with the batch calls in columns (store:addNodes, store:addEdges),
-- as a script building a big diagram would; the pure-Lua store has only the single adds.
local function hasBatch(s)
  local ok, f = pcall(function() return s.addNodes end)
  return ok and type(f) == "function"
end

local function build(s)
  if hasBatch(s) then
    local eid, dst = {}, {}
    for i = 1, N do eid[i], dst[i] = "e" .. i, ids[fixtureEdgeTarget(i, N, cols)] end
    s:addNodes{id = ids, x = X, y = Y, width = 150, height = 60}
    s:addEdges{id = eid, sourceNodeID = ids, targetNodeID = dst}
    return
  end
  for i = 1, N do s:addNode{id = ids[i], x = X[i], y = Y[i], width = 150, height = 60} end
  for i = 1, N do
    s:addEdge{id = "e" .. i, sourceNodeID = ids[i], targetNodeID = ids[fixtureEdgeTarget(i, N, cols)]}
  end
end

local serial = 0
local function fresh(prefix, k)
  local t = {}
  for j = 1, k do serial = serial + 1; t[j] = prefix .. serial end
  return t
end

local function randomNodes(k)
  local t = {}
  for j = 1, k do t[j] = ids[random(N)] end
  return t
end

-- A node other than src[j] for each j, at random.
local function randomTargets(src)
  local t = {}
  for j = 1, #src do
    local i = random(N)
    if ids[i] == src[j] then i = i % N + 1 end
    t[j] = ids[i]
  end
  return t
end

-- Each op: function(store, k) -> seconds taken by k calls (setup and cleanup untimed).
local ops, order = {}, {}
local function op(name, f) ops[name] = f; order[#order + 1] = name end

op("moveNode", function(s, k)
  local id, xs, ys = {}, {}, {}
  for j = 1, k do
    local i = random(N)
    id[j], xs[j], ys[j] = ids[i], X[i] + random(-20, 20), Y[i] + random(-20, 20)
  end
  local t0 = clock()
  for j = 1, k do s:moveNode(id[j], xs[j], ys[j]) end
  return clock() - t0
end)

op("addNode", function(s, k)
  local id, xs, ys = fresh("a", k), {}, {}
  for j = 1, k do xs[j], ys[j] = random(0, W), random(0, H) end
  local t0 = clock()
  for j = 1, k do s:addNode{id = id[j], x = xs[j], y = ys[j], width = 150, height = 60} end
  local dt = clock() - t0
  for j = 1, k do s:removeNode(id[j]) end
  return dt
end)

op("addEdge", function(s, k)
  local id, src = fresh("x", k), randomNodes(k)
  local dst = randomTargets(src)
  local t0 = clock()
  for j = 1, k do s:addEdge{id = id[j], sourceNodeID = src[j], targetNodeID = dst[j]} end
  local dt = clock() - t0
  for j = 1, k do s:removeEdge(id[j]) end
  return dt
end)

-- The batch adds: k items (k = N) added by one call (the flow store), against the same k
-- items added one call each (the pure-Lua store, as its addNode/addEdge op). Both start from
-- the same arrays of ids and numbers, made untimed. addNodes/addEdges pass those arrays as
-- columns (the faster form); addNodesList/addEdgesList build a list of entry tables from
-- them inside the timed part, as the single calls build their argument tables inside
-- theirs. Cleanup untimed: the flow store undoes the batch (one step) and drops the redo
-- step that leaves (history off and on again), so the next batch does not free it in its
-- own time; the pure-Lua store removes the items one by one (the collection before the
-- next batch frees them).
local batchOps = {}

local function undoBatch(s)
  s:undo()
  s:configure{undo = false}
  s:configure{undo = true}
end

local function addNodes(s, k, form)
  local id, xs, ys = fresh("b", k), {}, {}
  for j = 1, k do xs[j], ys[j] = random(0, W), random(0, H) end
  local t0 = clock()
  if form == "columns" then
    s:addNodes{id = id, x = xs, y = ys, width = 150, height = 60}
  elseif form == "list" then
    local list = {}
    for j = 1, k do list[j] = {id = id[j], x = xs[j], y = ys[j], width = 150, height = 60} end
    s:addNodes(list)
  else
    for j = 1, k do s:addNode{id = id[j], x = xs[j], y = ys[j], width = 150, height = 60} end
  end
  local dt = clock() - t0
  if form then undoBatch(s) else for j = 1, k do s:removeNode(id[j]) end end
  return dt
end

local function addEdges(s, k, form)
  local id, src = fresh("z", k), randomNodes(k)
  local dst = randomTargets(src)
  local t0 = clock()
  if form == "columns" then
    s:addEdges{id = id, sourceNodeID = src, targetNodeID = dst}
  elseif form == "list" then
    local list = {}
    for j = 1, k do list[j] = {id = id[j], sourceNodeID = src[j], targetNodeID = dst[j]} end
    s:addEdges(list)
  else
    for j = 1, k do s:addEdge{id = id[j], sourceNodeID = src[j], targetNodeID = dst[j]} end
  end
  local dt = clock() - t0
  if form then undoBatch(s) else for j = 1, k do s:removeEdge(id[j]) end end
  return dt
end

-- batchOps[name](s, k, batch): `batch` false for the pure-Lua store's single adds.
batchOps.addNodes = function(s, k, batch) return addNodes(s, k, batch and "columns") end
batchOps.addEdges = function(s, k, batch) return addEdges(s, k, batch and "columns") end
batchOps.addNodesList = function(s, k, batch) return addNodes(s, k, batch and "list") end
batchOps.addEdgesList = function(s, k, batch) return addEdges(s, k, batch and "list") end

op("removeNode", function(s, k)
  local id, e1, e2 = fresh("r", k), fresh("y", k), fresh("y", k)
  local a, b = randomNodes(k), randomNodes(k)
  for j = 1, k do
    s:addNode{id = id[j], x = random(0, W), y = random(0, H), width = 150, height = 60}
    s:addEdge{id = e1[j], sourceNodeID = id[j], targetNodeID = a[j]}
    s:addEdge{id = e2[j], sourceNodeID = b[j], targetNodeID = id[j]}
  end
  local t0 = clock()
  for j = 1, k do s:removeNode(id[j]) end
  return clock() - t0
end)

op("hitTest", function(s, k)
  local xs, ys = {}, {}
  for j = 1, k do xs[j], ys[j] = random() * W, random() * H end
  local t0 = clock()
  for j = 1, k do s:hitTest(xs[j], ys[j]) end
  return clock() - t0
end)

op("nodeBounds", function(s, k)
  local t0 = clock()
  for _ = 1, k do s:nodeBounds() end
  return clock() - t0
end)

op("fitToContent", function(s, k)
  local t0 = clock()
  for _ = 1, k do s:fitToContent(1280, 800) end
  return clock() - t0
end)

op("export", function(s, k)
  local t0 = clock()
  for _ = 1, k do s:export() end
  return clock() - t0
end)

op("selectInRect", function(s, k)
  local xs, ys = {}, {}
  for j = 1, k do xs[j], ys[j] = random() * W, random() * H end
  local t0 = clock()
  for j = 1, k do s:selectInRect(xs[j], ys[j], 800, 600) end
  return clock() - t0
end)

local mutating = {moveNode = true, addNode = true, addEdge = true, removeNode = true}

-- Every batch starts with a full collection, so that no batch pays for garbage made by
-- the ones before, followed by a sweep over 8 MB (evict): the collector has just visited
-- every live Lua object, the pure-Lua store's nodes among them, and none of the flow
-- store's memory, and without the sweep the Lua store would start each batch with its
-- data in the core's caches and the flow store with its data out of them.
local function startBatch()
  collectgarbage()
  evict()
end

-- {median, lo, hi} of the REPS timings in `per` (sorted in place).
local function summary(per)
  table.sort(per)
  return {per[(REPS + 1) // 2], per[1], per[REPS]}
end

-- Seconds per call estimated from batches of 1, 4, 16, 64 calls (see perCall in Measure.swift).
local function calibrate(name, f)
  local c, t = 1, f(1)
  while t < BUDGET / 4 and c < 64 and not (mutating[name] and c * 4 > MAXMUT) do
    c = c * 4
    t = f(c)
  end
  return t / c
end

-- REPS timed batches of k calls (or items), each after startBatch: {median, lo, hi} per call.
local function repeated(f, k)
  local per = {}
  for r = 1, REPS do
    startBatch()
    per[r] = f(k) / k
  end
  return summary(per)
end

-- Median seconds per call: calibration runs size the batch to about BUDGET seconds
-- (mutations at most MAXMUT calls, so the store stays near N), then REPS timed batches.
local function measure(name, f)
  startBatch()
  -- three times: the first two may include the store's deferred work (see perCall in Measure.swift)
  local once = math.max(math.min(calibrate(name, f), calibrate(name, f), calibrate(name, f)), 1e-9)
  local k = math.max(1, floor(BUDGET / once))
  if mutating[name] then k = math.min(k, MAXMUT) end
  return repeated(f, k)
end

-- A batch op: REPS runs of N items each; seconds per item, {median, lo, hi}.
local function measureBatch(f)
  return repeated(f, N)
end

local out = {}
-- `<impl> <op> <median> <lo> <hi>` (seconds per call or item), or `<impl> <op> unbound`.
local function emit(impl, name, v)
  if type(v) == "table" then
    v = string.format("%.6e %.6e %.6e", v[1], v[2], v[3])
  end
  out[#out + 1] = impl .. " " .. name .. " " .. v
end

-- The floor: a trivial Lua function and a trivial C function, called in the same loop.
local function lnoop() end
emit("floor", "call.lua", measure("call.lua", function(k)
  local t0 = clock()
  for _ = 1, k do lnoop() end
  return clock() - t0
end))
emit("floor", "call.c", measure("call.c", function(k)
  local t0 = clock()
  for _ = 1, k do cnoop() end
  return clock() - t0
end))

-- Which store methods each benchmark calls (setup and cleanup included).
local needs = {
  addNode = {"addNode", "removeNode"}, addEdge = {"addEdge", "removeEdge"},
  removeNode = {"removeNode", "addNode", "addEdge"},
  addNodes = {"addNode", "removeNode"}, addEdges = {"addEdge", "removeEdge"},
  addNodesList = {"addNode", "removeNode"}, addEdgesList = {"addEdge", "removeEdge"},
}
local function bound(s, name)
  for _, m in ipairs(needs[name] or {name}) do
    local ok, f = pcall(function() return s[m] end)
    if not ok or type(f) ~= "function" then return false end
  end
  return true
end

for _, impl in ipairs{"table", "flow"} do
  local s = impl == "table" and TableStore.new() or flow.newStore()
  local built = bound(s, "addNode") and bound(s, "addEdge") and pcall(build, s)
  for _, name in ipairs(order) do
    if not BENCH.ops[name] then
      -- not selected (flowbench --ops)
    elseif built and bound(s, name) then
      emit(impl, name, measure(name, function(k) return ops[name](s, k) end))
    else
      emit(impl, name, "unbound")
    end
  end
  for _, name in ipairs{"addNodes", "addEdges", "addNodesList", "addEdgesList"} do
    if not BENCH.ops[name] then
      -- not selected
    elseif built and bound(s, name) then
      local batch = impl == "flow"
      if batch and not hasBatch(s) then
        emit(impl, name, "unbound")
      else
        emit(impl, name, measureBatch(function(k) return batchOps[name](s, k, batch) end))
      end
    else
      emit(impl, name, "unbound")
    end
  end
  s = nil
  collectgarbage()
end
return table.concat(out, "\n")
"""#
