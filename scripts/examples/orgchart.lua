-- An org chart laid out as a tree by store:layout{algorithm = "tree"}: each manager above
-- their reports, centred over them; the script gives no coordinates.
-- Writes orgchart.json and orgchart.svg into the directory given as the first argument
-- (default: the current directory).
--
--   scripts/flowrepl scripts/examples/orgchart.lua [outdir]

local flow = require "flow"
local outdir = (arg and arg[1]) or "."

local org = {
  name = "Ada (CEO)",
  reports = {
    { name = "Grace (CTO)", reports = {
        { name = "Linus (Core)" }, { name = "Barbara (Lua)" }, { name = "Ken (Render)" } } },
    { name = "Margaret (COO)", reports = {
        { name = "Alan (Ops)" }, { name = "Edsger (QA)" } } },
    { name = "Donald (CFO)", reports = { { name = "Frances (Finance)" } } },
  },
}

local s = flow.newStore()
local count = 0

-- Adds a person and their reports; no coordinates: layout places them.
local function add(person, parent)
  count = count + 1
  local id = "p" .. count
  s:addNode{ id = id, x = 0, y = 0, width = 170, height = 56, data = { label = person.name } }
  if parent then s:connect(parent, id, { pathType = "smoothStep" }) end
  for _, r in ipairs(person.reports or {}) do add(r, id) end
end

s:transaction(function() add(org, nil) end)
s:layout{ algorithm = "tree", nodeSpacing = 30, layerSpacing = 60 }
s:selectNode("p1")

assert(s:save(outdir .. "/orgchart.json"))
assert(s:save(outdir .. "/orgchart.svg"))
print(("orgchart: %d people -> %s/orgchart.json, %s/orgchart.svg"):format(s.nodeCount, outdir, outdir))
