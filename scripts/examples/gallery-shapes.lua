-- Every node shape and every arrowhead, in the light and the dark theme: the reference
-- pictures of docs/gallery.md. Writes shapes.svg and shapes-dark.svg into the directory
-- given as the first argument (default: ".").
--
--   scripts/flowrepl scripts/examples/gallery-shapes.lua [outdir]

local flow = require "flow"
local outdir = (arg and arg[1]) or "."

local s = flow.newStore()
local shapes = { "rounded", "rectangle", "diamond", "ellipse", "circle", "hexagon",
                 "parallelogram", "cylinder", "document", "stadium", "note" }
local arrows = { "none", "arrow", "open", "diamond", "circle", "hollowArrow", "hollowDiamond",
                 "hollowCircle", "hollowBox", "hollowInv", "inv", "vee", "tee", "crow", "box", "cross" }

s:transaction(function()
  for i, shape in ipairs(shapes) do
    local col, row = (i - 1) % 6, (i - 1) // 6
    s:addNode{ id = shape, x = col * 190, y = row * 110, shape = shape, handles = {},
               data = { label = shape } }
  end
  -- arrowheads: a pair of small boxes per kind, the kind at both ends of the edge
  for i, kind in ipairs(arrows) do
    local x, y = (i - 1) % 5 * 230, 260 + (i - 1) // 5 * 70
    local handles = { { id = "in", type = "target", position = "left" },
                      { id = "out", type = "source", position = "right" } }
    s:addNode{ id = kind .. "-a", x = x, y = y, width = 40, height = 30, handles = handles, data = { label = "" } }
    s:addNode{ id = kind .. "-b", x = x + 150, y = y, width = 40, height = 30, handles = handles, data = { label = "" } }
    s:connect(kind .. "-a.out", kind .. "-b.in", { pathType = "straight", label = kind,
              style = { sourceArrow = kind, targetArrow = kind } })
  end
end)

assert(s:save(outdir .. "/shapes.svg", { title = "Node shapes and arrowheads", handles = "none" }))
assert(s:save(outdir .. "/shapes-dark.svg", { title = "Node shapes and arrowheads", handles = "none", theme = "dark" }))
print(string.format("shapes: %d shapes, %d arrowheads", #shapes, #arrows))
