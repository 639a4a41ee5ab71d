-- Viewport maths and edge paths against the worked values of store-semantics.
local flow = require "flow"

local function near(a, b) return math.abs(a - b) < 1e-9 end

local store = flow.newStore()
store:addNode{id="a", x=0, y=0, width=100, height=50}
store:addNode{id="b", x=500, y=400, width=100, height=50}
assert(store:fitToContent(300, 200))
local v = store.viewport
assert(near(v.zoom, 200 / 550) and near(v.x, 40.909090909090909) and near(v.y, 18.181818181818182))

store:setViewport{x=0, y=0, zoom=1}
store:zoom(2, 100, 50)
v = store.viewport
assert(v.zoom == 2 and v.x == -100 and v.y == -50)
local p = store:screenToCanvas(store:canvasToScreen(12.5, -3))
assert(near(p.x, 12.5) and near(p.y, -3))

-- (0,0) right -> (200,100) left, each path type
local s = flow.newStore()
s:addNode{id="l", x=-100, y=-25, width=100, height=50, handles={{id="o", type="source", position="right"}}}
s:addNode{id="r", x=200, y=75, width=100, height=50, handles={{id="i", type="target", position="left"}}}
local labels = {bezier={100, 50}, straight={100, 50}, smoothStep={100, 50}, simpleBezier={127.95084971874737, 50}}
for pathType, label in pairs(labels) do
  local e = s:connect("l.o", "r.i", {pathType=pathType})
  local g = e:geometry()
  assert(near(g.labelPosition.x, label[1]) and near(g.labelPosition.y, label[2]), pathType)
  assert(g.sourcePoint.x == 0 and g.targetPoint.y == 100, pathType)
  assert(g.path:sub(1, 5) == "M 0 0", pathType)
  e:remove()
end
assert(near(s:connect("l.o", "r.i", {pathType="straight"}):geometry().labelAngle, math.atan(100, 200)))
print("geometry: ok")
