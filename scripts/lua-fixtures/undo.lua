-- Undo/redo and transactions: undo-all / redo-all returns exactly to each state.
local flow = require "flow"

local store = flow.newStore()
local snapshots = {store:export()}
store:addNode{id="a", x=0, y=0}
snapshots[#snapshots + 1] = store:export()
store:addNode{id="b", x=200, y=0}
snapshots[#snapshots + 1] = store:export()
store:connect("a", "b")
snapshots[#snapshots + 1] = store:export()
store:moveNode("a", 40, 40)
snapshots[#snapshots + 1] = store:export()
store:transaction(function(s)
  s:addNode{id="c", x=400, y=0}
  s:connect("b", "c")
end)
snapshots[#snapshots + 1] = store:export()

for i = #snapshots - 1, 1, -1 do
  assert(store:undo(), "undo " .. i)
  assert(store:export() == snapshots[i], "state after undo " .. i)
end
assert(not store.canUndo and not store:undo())
for i = 2, #snapshots do
  assert(store:redo(), "redo " .. i)
  assert(store:export() == snapshots[i], "state after redo " .. i)
end

-- a failing transaction changes nothing and keeps the history
local before = store:export()
local ok, err = pcall(store.transaction, store, function(s)
  s:removeNode("a")
  error("abort", 0)
end)
assert(not ok and err == "abort")
assert(store:export() == before)
assert(store:undo() and store.nodeCount == 2)

-- transaction returns what fn returns
assert(select("#", store:transaction(function() return 1, nil, 3 end)) == 3)
print("undo: ok")
