-- An org chart laid out as a tree: each manager above their reports, centred over them.
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
local W, H, GAP_X, GAP_Y = 170, 56, 30, 110
local count = 0

-- Width in leaf slots of a subtree.
local function slots(person)
  if not person.reports then return 1 end
  local n = 0
  for _, r in ipairs(person.reports) do n = n + slots(r) end
  return n
end

local function place(person, depth, firstSlot, parent)
  count = count + 1
  local id = "p" .. count
  local span = slots(person)
  local x = (firstSlot + span / 2 - 0.5) * (W + GAP_X)
  s:addNode{ id = id, x = x, y = depth * (H + GAP_Y), width = W, height = H,
             data = { label = person.name, depth = depth } }
  if parent then s:connect(parent, id, { pathType = "smoothStep" }) end
  local slot = firstSlot
  for _, r in ipairs(person.reports or {}) do
    place(r, depth + 1, slot, id)
    slot = slot + slots(r)
  end
end

s:transaction(function() place(org, 0, 0, nil) end)
s:selectNode("p1")

assert(s:save(outdir .. "/orgchart.json"))
assert(s:save(outdir .. "/orgchart.svg"))
print(("orgchart: %d people -> %s/orgchart.json, %s/orgchart.svg"):format(s.nodeCount, outdir, outdir))
