-- Change callbacks: one node batch then one edge batch per call, held events, errors.
local flow = require "flow"

local store = flow.newStore()
local log = {}
store.onNodesChange = function(changes)
  local t = {}
  for _, c in ipairs(changes) do t[#t + 1] = c.type .. ":" .. c.id end
  log[#log + 1] = "N " .. table.concat(t, " ")
end
store.onEdgesChange = function(changes)
  local t = {}
  for _, c in ipairs(changes) do t[#t + 1] = c.type .. ":" .. c.id end
  log[#log + 1] = "E " .. table.concat(t, " ")
end
local function take() local l = table.concat(log, " | "); log = {}; return l end

store:addNode{id="a", x=0, y=0}
store:addNode{id="b", x=200, y=0}
store:connect("a", "b")
assert(take() == "N add:a | N add:b | E add:e1")

store:selectNode("b")
store:removeNode("b")
assert(take() == "N select:b | N remove:b | E remove:e1", "a removed selected item emits only remove")

assert(store:moveNode("a", 0, 0) == false and take() == "", "no change, no events")

store:transaction(function(s)
  s:addNode{id="c", x=0, y=0}
  s:moveNode("a", 1, 1)
  s:connect("a", "c")
end)
assert(take() == "N add:c position:a | E add:e1")

-- an error in a callback does not make the call raise, and its mutation stands
store.onNodesChange = function() error("observer failed") end
local ok = pcall(store.addNode, store, {id="d", x=0, y=0})
assert(ok and store:node("d") ~= nil)
print("events: ok")
