-- Run by StoreScriptTests under the stock lua5.4 with `require "flow"`.
local flow = require "flow"

local s <close> = flow.newStore()
local a = s:addNode{id = "a", x = 50, y = 100, width = 120, height = 50}
local b = s:addNode{x = 300, y = 100}
assert(tostring(a) == "Node a (50, 100, 120x50)")
assert(b.id == "n1")
assert(tostring(s) == "Store (2 nodes, 0 edges)")

local e = s:connect("a", "n1", {label = "Yes"})
assert(tostring(e) == "Edge e1 (a.source -> n1.target)")
assert(s:edge("e1") == e and e.label == "Yes")
assert(tostring(s) == "Store (2 nodes, 1 edge)")

local changes = {}
s.onNodesChange = function(cs) for _, c in ipairs(cs) do changes[#changes + 1] = c.type .. " " .. c.id end end
assert(s:moveNode("a", 60, 100) == true)
assert(a.x == 60 and changes[1] == "position a")

local ok, err = pcall(s.moveNode, s, "zz", 1, 2)
assert(not ok and err == "moveNode: no node with id 'zz'", err)
ok, err = pcall(function() return s:moveNode("a", "q", 1) end)
assert(not ok and err:find("bad argument #2 to 'moveNode' %(number expected, got string%)"), err)
ok, err = pcall(function() return s.nodecount end)
assert(not ok and err:find("Store has no field 'nodecount'"), err)

-- a rolled-back transaction
ok, err = pcall(s.transaction, s, function(st) st:removeNode("a") error("stop") end)
assert(not ok and err:find("stop") and s:node("a") == a and a:exists())

-- handles survive collection and keep their store alive
local orphan = flow.newStore():addNode{id = "z"}
collectgarbage()
collectgarbage()
assert(orphan:exists() and orphan.id == "z")

-- callback errors do not raise
s.onNodesChange = function() error("ignored") end
assert(s:moveNode("a", 1, 1))
assert(a.x == 1)

local copy, warnings = flow.decode(s:export())
assert(copy.nodeCount == 2 and #warnings == 0)
print("ok")
