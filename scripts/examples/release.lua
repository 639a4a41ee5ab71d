-- A release runbook: sixteen steps left to right, one check that may send the release back,
-- and two steps that run beside the main line. Laid out as one long row it is a strip 30
-- times as wide as it is tall; `aspectRatio = 1.6` cuts it between layers into rows read
-- left to right, top to bottom, and the edges from one row to the next run around the rows
-- in lanes of their own. Writes release-long.svg and release.svg (into the directory
-- given as the first argument, default: the current directory).
--
--   scripts/flowrepl scripts/examples/release.lua [outdir]

local flow = require "flow"
local outdir = (arg and arg[1]) or "."

local s = flow.newStore{
  classes = {
    gate = { shape = "diamond", fill = "#fff8e1", stroke = "#b8860b" },
    done = { shape = "stadium", fill = "#e8f5e9", stroke = "#2e7d32" },
  },
}
local steps = {
  { "freeze", "Code freeze" }, { "branch", "Cut branch" }, { "build", "Build" },
  { "unit", "Unit tests" }, { "package", "Package" }, { "sign", "Sign" },
  { "stage", "Deploy staging" }, { "smoke", "Smoke tests", "gate" }, { "notes", "Release notes" },
  { "approve", "Approve", "gate" }, { "canary", "Canary 5%" }, { "watch", "Watch errors" },
  { "rollout", "Roll out" }, { "tag", "Tag release" }, { "announce", "Announce" },
  { "done", "Done", "done" },
}
s:transaction(function()
  for _, st in ipairs(steps) do s:addNode{ id = st[1], class = st[3], data = { label = st[2] } } end
  for i = 1, #steps - 1 do
    local label = ({ smoke = "pass", approve = "yes" })[steps[i][1]]
    s:connect(steps[i][1], steps[i + 1][1], label and { label = label } or nil)
  end
  s:connect("smoke", "build", { label = "fail: fix" })
  s:connect("unit", "notes", { label = "changelog" })
  s:connect("tag", "done")
end)

s:layout{ direction = "LR" }
assert(s:save(outdir .. "/release-long.svg", { handles = "none" }))
s:layout{ direction = "LR", aspectRatio = 1.6 }
assert(s:save(outdir .. "/release.svg", { handles = "none" }))
