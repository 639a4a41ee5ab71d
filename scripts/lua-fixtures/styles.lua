-- Shapes, styles and classes: byte-exact document round trips, undo and redo back to
-- every state, pictures that carry ids and classes.
local flow = require "flow"

local store = flow.newStore{classes = {db = {shape = "cylinder", fill = "#eeeeff"}, hot = {stroke = "#cc0000"}}}
assert(not store.canUndo, "a new store's style sheet records no step")
local states = {store:export()}
local function step(f)
  f()
  states[#states + 1] = store:export()
end
step(function() store:addNode{id = "a", x = 0, y = 0, data = {label = "A title long enough to grow the node"}} end)
step(function() store:addNode{id = "b", x = 0, y = 200, class = {"db", "hot"}, shape = "diamond"} end)
step(function() store:addNode{id = "c", x = 300, y = 0, width = 150, height = 60, style = {fill = "#ffffff", dash = {3, 1}}} end)
step(function() store:connect("a", "b", {class = "hot", style = {sourceArrow = "diamond", targetArrow = "none"}}) end)
step(function() store:updateNode("a", {style = {fontSize = 20, bold = true}}) end)
step(function() store:configure{classes = {db = {shape = "ellipse"}}} end)
step(function() store:updateNode("c", {size = "auto"}) end)

assert(store:node("a").width > 150, "the long title widened its node")
assert(store:node("a").autoSize and store:node("c").autoSize, "a and c are sized to their titles")

local json = store:export()
local copy = flow.decode(json)
assert(copy:export() == json, "byte-exact round trip")
assert(copy:node("b").shape == "diamond" and copy:node("b").class[2] == "hot")
assert(copy.configuration.classes.db.shape == "ellipse")
assert(copy:edge("e1").style.sourceArrow == "diamond")

for i = #states - 1, 1, -1 do
  assert(store:undo(), "undo " .. i)
  assert(store:export() == states[i], "undo back to state " .. i)
end
for i = 2, #states do
  assert(store:redo(), "redo " .. i)
  assert(store:export() == states[i], "redo to state " .. i)
end

local svg = store:svg()
assert(svg:find('<g id="node%-b" class="node db hot">'), "ids and classes in the picture")
assert(svg:find('<path id="edge%-e1" class="edge hot"'), "edge ids and classes in the picture")
assert(select(2, svg:gsub("<g id=\"node%-", "")) == 3)
