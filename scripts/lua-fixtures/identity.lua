-- Node handle identity (lua-api §2): while a handle is alive, every handle the store gives
-- for its id is that very userdata, across removal, re-adding, a slot taken over by another
-- node, undo, redo, a rolled-back transaction and load; and a handle never names a node
-- with another id. Also run under GC stress and valgrind by scripts/check-memory.
local flow = require "flow"

local function gone(h, id)
  local ok, err = pcall(function() return h.x end)
  return not ok and tostring(err):match("node '" .. id .. "' no longer exists$") ~= nil
    and tostring(h) == "Node " .. id .. " (removed)"
end

local s = flow.newStore()

-- removed, then another node takes the slot, then the id comes back
local a = s:addNode{id = "a", x = 1}
assert(s:removeNode("a") and not a:exists() and gone(a, "a"))
local b = s:addNode{id = "b", x = 2}
assert(b ~= a and rawequal(s:node("b"), b) and b.id == "b" and b.x == 2)
assert(gone(a, "a") and s:node("a") == nil)
assert(rawequal(s:addNode{id = "a", x = 3}, a) and a.x == 3 and a:exists())
assert(rawequal(s:nodes()[1], b) and rawequal(s:nodes()[2], a))

-- undo and redo of an add and of a removal
local c = s:addNode{id = "c"}
s:undo()
assert(not c:exists() and gone(c, "c"))
local d = s:addNode{id = "d"}  -- c's slot
assert(rawequal(s:node("d"), d) and d ~= c)
s:undo()
s:redo()  -- d again
assert(rawequal(s:node("d"), d))
s:removeNode("d")
s:undo()
assert(rawequal(s:node("d"), d) and d:exists())

-- a transaction that raises is rolled back: its nodes' handles are the ones from before
local ok = pcall(s.transaction, s, function(st)
  st:removeNode("a")
  st:addNode{id = "t"}
  st:addNode{id = "u"}
  error("no")
end)
assert(not ok and rawequal(s:node("a"), a) and s:node("t") == nil and s:node("u") == nil)

-- load: the ids in the loaded document keep their handles
local doc = s:export()
s:removeNode("b")
local e = s:addNode{id = "e"}
assert(s:load(doc))
assert(rawequal(s:node("a"), a) and rawequal(s:node("b"), b) and rawequal(s:node("d"), d))
assert(s:node("e") == nil and gone(e, "e"))

-- the store's table of handles grows as nodes are added: handles made before keep theirs
do
  local g = flow.newStore()
  local hs = {}
  for i = 1, 300 do hs[i] = g:addNode{id = "g" .. i} end
  for i = 1, 300, 7 do g:removeNode("g" .. i) end
  for i = 1, 300 do
    if (i - 1) % 7 == 0 then
      assert(g:node("g" .. i) == nil and rawequal(g:addNode{id = "g" .. i}, hs[i]))
    end
    assert(rawequal(g:node("g" .. i), hs[i]) and hs[i].id == "g" .. i)
  end
end

-- a change callback that asks for the new node's handle during the add gets the one the
-- add returns (the fast path and the general one, which reads `data`)
do
  local seen = {}
  s.onNodesChange = function(changes)
    for _, c in ipairs(changes) do
      if c.type == "add" then seen[c.id] = s:node(c.id) end
    end
  end
  local f = s:addNode{id = "cb1", x = 1}
  local g = s:addNode{id = "cb2", data = {k = 1}}
  s.onNodesChange = nil
  assert(seen.cb1 and rawequal(seen.cb1, f) and rawequal(s:node("cb1"), f))
  assert(seen.cb2 and rawequal(seen.cb2, g) and rawequal(s:node("cb2"), g))
  s:removeNode("cb1")
  s:removeNode("cb2")
end

-- handles of gone nodes are collected like any value; the store keeps none alive
do
  local weak = setmetatable({}, {__mode = "v"})
  weak[1] = s:addNode{id = "w"}
  s:removeNode("w")
  collectgarbage()
  collectgarbage()
  assert(weak[1] == nil)
  local w = s:addNode{id = "w"}
  assert(rawequal(s:node("w"), w))
end

-- A random walk over adds, removals, undo, redo, transactions, loads and collections. After
-- each step every id's handle is checked against the one kept for it.
math.randomseed(20261124)
local random = math.random
local ids = {}
for i = 1, 12 do ids[i] = "r" .. i end
local kept = {}  -- id -> a handle kept alive
local function check(step)
  for _, id in ipairs(ids) do
    local h = s:node(id)
    if h then
      assert(h.id == id, step)
      if kept[id] then assert(rawequal(h, kept[id]), step .. ": " .. id .. " has a new handle") end
      if random() < 0.5 then kept[id] = h end
    elseif kept[id] then
      assert(not kept[id]:exists() and gone(kept[id], id), step)
    end
  end
  for i, n in ipairs(s:nodes()) do
    if kept[n.id] then assert(rawequal(n, kept[n.id]), step) end
    assert(s:nodes()[i].id == n.id, step)
  end
end
local function present(id) return s:node(id) ~= nil end
local saved = s:export()
for step = 1, 400 do
  local r, id = random(), ids[random(#ids)]
  local what
  if r < 0.3 then
    what = "add " .. id
    if not present(id) then
      local h = s:addNode{id = id, x = step}
      if kept[id] then assert(rawequal(h, kept[id]), "re-added " .. id .. " has a new handle") end
    end
  elseif r < 0.5 then
    what = "remove " .. id
    if present(id) then s:removeNode(id) end
  elseif r < 0.6 then
    what = "undo"
    s:undo()
  elseif r < 0.7 then
    what = "redo"
    s:redo()
  elseif r < 0.78 then
    what = "rolled-back transaction"
    pcall(s.transaction, s, function(st)
      for _ = 1, 3 do
        local x = ids[random(#ids)]
        if present(x) then st:removeNode(x) else st:addNode{id = x} end
      end
      error("roll back")
    end)
  elseif r < 0.84 then
    what = "transaction"
    s:transaction(function(st)
      for _ = 1, 3 do
        local x = ids[random(#ids)]
        if present(x) then st:removeNode(x) else st:addNode{id = x} end
      end
    end)
  elseif r < 0.88 then
    what = "load"
    if random() < 0.5 then saved = s:export() else assert(s:load(saved)) end
  elseif r < 0.95 then
    what = "drop " .. id
    kept[id] = nil
  else
    what = "collect"
    collectgarbage()
  end
  check(step .. " (" .. what .. ")")
end
print("identity: ok")
