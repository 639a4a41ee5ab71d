-- Documents: export/decode round trips, lenient load with warnings, nil+msg failures.
local flow = require "flow"

local store = flow.newStore()
store:addNode{id="a", x=10.5, y=20, data={name="A", list={1, 2, 3}, deep={ok=true}}}
store:addNode{id="g", x=0, y=0, width=400, height=300, acceptsChildren=true}
store:addNode{id="b", x=300, y=0, parentID="g", isDraggable=false}
store:connect("a", "b", {label="L", pathType="smoothStep"})
local json = store:export()

local copy, warnings = flow.decode(json)
assert(flow.type(copy) == "Store" and #warnings == 0)
assert(copy:export() == json, "byte-exact round trip")
assert(copy:node("a").data.list[3] == 3 and copy:node("b").parentID == "g")
assert(copy:node("b").isDraggable == false)

local doc = [[{"nodes": [{"id": "x", "position": [0, 0], "size": [1, 1], "data": null},
  {"id": "x", "position": [0, 0], "size": [1, 1], "data": null}],
  "edges": [{"id": "e", "sourceNodeID": "x", "targetNodeID": "gone"}],
  "viewport": {"offset": [0, 0], "zoom": 1}}]]
local ok, w = store:load(doc)
assert(ok == true and #w == 2, "two repairs reported")
assert(store.nodeCount == 1 and store.edgeCount == 0 and not store.canUndo)

local before = store:export()
for _, bad in ipairs{"", "nope", "[]", '{"nodes": []}'} do
  local r, msg = store:load(bad)
  assert(r == nil and type(msg) == "string", bad)
  local s, msg2 = flow.decode(bad)
  assert(s == nil and type(msg2) == "string", bad)
end
assert(store:export() == before, "failed loads change nothing")
local s, msg = flow.open("no-such-dir/none.json")
assert(s == nil and msg:find("no-such-dir/none.json", 1, true))
print("documents: ok")
