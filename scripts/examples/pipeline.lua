-- A CI pipeline: stages left to right, jobs stacked in each stage, every job of a stage
-- feeding the first job of the next one, and production promoted by hand from staging.
-- The script gives no coordinates: store:layout lays the stages (groups) out left to right
-- and sizes each around its jobs. The edges are orthogonal: the store routes them, and
-- those into the same job arrive at distinct points of its side. Writes pipeline.json and
-- pipeline.svg (into the directory given as the first argument, default: the current
-- directory).
--
--   scripts/flowrepl scripts/examples/pipeline.lua [outdir]

local flow = require "flow"
local outdir = (arg and arg[1]) or "."

local s = flow.newStore()
local step = { pathType = "orthogonal" }

local stages = {
  { name = "build",   jobs = { "compile", "lint", "docs" } },
  { name = "test",    jobs = { "unit", "integration", "fixtures" } },
  { name = "package", jobs = { "deb", "tarball" } },
  { name = "deploy",  jobs = { "staging", "production" } },
}

local io_handles = {
  { id = "in", type = "target", position = "left" },
  { id = "out", type = "source", position = "right" },
}
-- Promotion runs down the deploy stage, from a handle below staging to one above
-- production (a right-to-left edge would have to double back through both jobs).
local extra_handles = {
  staging = { id = "promote", type = "source", position = "bottom" },
  production = { id = "promoted", type = "target", position = "top" },
}
local function handles_of(job)
  local extra = extra_handles[job]
  if not extra then return io_handles end
  return { io_handles[1], io_handles[2], extra }
end

s:transaction(function()
  local previous
  for _, stage in ipairs(stages) do
    local group = s:addNode{
      id = stage.name, x = 0, y = 0, width = 200, height = 100,
      data = { title = stage.name }, acceptsChildren = true, handles = {}, zIndex = -1,
    }
    for row, job in ipairs(stage.jobs) do
      s:addNode{
        id = job, x = 0, y = 0, width = 160, height = 50,
        data = { label = job, stage = stage.name }, parentID = group.id, handles = handles_of(job),
      }
      if previous then
        for _, p in ipairs(previous) do
          if row == 1 then s:connect(p .. ".out", job .. ".in", step) end
        end
      end
    end
    previous = stage.jobs
  end
end)

-- Production is promoted by hand from staging; the build currently running is animated.
s:connect("staging.promote", "production.promoted", { label = "manual", pathType = "orthogonal" })
s:setEdgeAnimated(s:edgesForNode("unit")[1].id, true)
s:layout{ direction = "LR", nodeSpacing = 30, layerSpacing = 50 }

assert(s:save(outdir .. "/pipeline.json"))
assert(s:save(outdir .. "/pipeline.svg"))
print(("pipeline: %d nodes, %d edges -> %s/pipeline.json, %s/pipeline.svg"):format(
  s.nodeCount, s.edgeCount, outdir, outdir))
