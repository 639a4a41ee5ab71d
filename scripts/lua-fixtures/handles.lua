-- Node and Edge handles outliving their store: a closed store, a store finalised before a
-- finaliser that resurrects its handles, handles made and dropped by the thousand. Run
-- under GC stress and valgrind by scripts/check-memory: no crash, no invalid access.
local flow = require "flow"

local function closedError(f)
  local ok, err = pcall(f)
  return not ok and tostring(err):match("attempt to use a closed Store$") ~= nil
end

-- the store's __close
local n, e
do
  local s <close> = flow.newStore()
  n = s:addNode{id = "a", x = 1, y = 2}
  s:addNode{id = "b"}
  e = s:connect("a", "b")
  assert(n.x == 1 and e.sourceNodeID == "a")
end
assert(not n:exists() and not e:exists())
assert(tostring(n) == "Node a (removed)" and tostring(e) == "Edge e1 (removed)")
assert(closedError(function() return n.x end))
assert(closedError(function() return n:move(1, 2) end))
assert(closedError(function() return n:edges() end))
assert(closedError(function() return e:geometry() end))
assert(n == n and n ~= e and flow.type(n) == "Node")

-- the store's __gc, before the finaliser of an object that resurrects a handle
local log = {}
do
  local keeper = setmetatable({}, {__gc = function(k)
    _G.saved = k.n
    log[#log + 1] = closedError(function() return k.n.x end)
    log[#log + 1] = closedError(function() return k.e:update{label = "x"} end)
    log[#log + 1] = tostring(k.n)
  end})
  local s = flow.newStore()  -- marked for finalisation after the keeper: finalised first
  keeper.n = s:addNode{id = "a"}
  s:addNode{id = "b"}
  keeper.e = s:connect("a", "b")
end
collectgarbage() collectgarbage()
assert(#log == 3 and log[1] and log[2] and log[3] == "Node a (removed)", "resurrected after the store's __gc")
assert(closedError(function() return saved.y end) and not saved:exists())
saved = nil

-- the resurrecting finaliser first: the store is open, a fresh handle equals the old one
log = {}
do
  local s = flow.newStore()
  local keeper = setmetatable({s = s}, {__gc = function(k)
    local fresh = k.s:node("a")
    log[#log + 1] = k.n.x
    log[#log + 1] = fresh == k.n and not rawequal(fresh, k.n)
    log[#log + 1] = k.n:move(3, 4) and fresh.x == 3
    _G.saved = k.n
  end})
  keeper.n = s:addNode{id = "a", x = 5}
end
collectgarbage() collectgarbage()
assert(log[1] == 5 and log[2] == true and log[3] == true, "resurrected before the store's __gc")
assert(closedError(function() return saved.x end))
saved = nil

-- handles made and dropped: table keys survive collections, the rest is collected
local s = flow.newStore()
for i = 1, 100 do s:addNode{id = "n" .. i, x = i} end
for i = 1, 20 do s:connect("n" .. i, "n" .. (i + 1)) end
local keys = {}
for _, h in ipairs(s:nodes()) do keys[h] = h.x end
for i = 1, 50 do
  local ns, es = s:nodes(), s:edges()
  assert(#ns == 100 and #es == 20 and keys[ns[i]] == i)
  if i % 10 == 0 then collectgarbage() end
end
collectgarbage() collectgarbage()
for i = 1, 100 do assert(keys[s:node("n" .. i)] == i) end
local n1 = s:node("n1")
s:removeNode("n1")
assert(not n1:exists() and keys[n1] == 1 and s:node("n1") == nil)
s:undo()
assert(n1:exists() and rawequal(s:node("n1"), n1) and n1.x == 1)
getmetatable(s).__close(s)
for h in pairs(keys) do assert(not h:exists()) end
print("handles: ok")
