-- A diagram read from data: the build dependencies of a small program, given as a Lua table
-- of "module depends on modules", laid out left to right by store:layout() with no
-- coordinates anywhere. Writes dependencies.json and dependencies.svg into the directory
-- given as the first argument (default: ".").
--
--   scripts/flowrepl scripts/examples/dependencies.lua [outdir]

local flow = require "flow"
local outdir = (arg and arg[1]) or "."

local modules = {
  { "app",       { "cli", "server", "config" } },
  { "cli",       { "args", "config", "log" } },
  { "server",    { "http", "router", "store", "log" } },
  { "router",    { "http", "log" } },
  { "store",     { "sqlite", "cache", "log" } },
  { "cache",     { "log" } },
  { "http",      { "tls", "log" } },
  { "tls",       { "crypto" } },
  { "config",    { "toml", "log" } },
  { "args", {} }, { "log", {} }, { "sqlite", {} }, { "crypto", {} }, { "toml", {} },
}

local s = flow.newStore()
s:transaction(function()
  for _, m in ipairs(modules) do
    s:addNode{ id = m[1], x = 0, y = 0, width = 90, height = 36, data = { label = m[1] } }
  end
  for _, m in ipairs(modules) do
    for _, dep in ipairs(m[2]) do
      s:connect(m[1], dep, { pathType = "smoothStep" })
    end
  end
end)
local stats = s:layout{ direction = "LR", nodeSpacing = 24, layerSpacing = 70 }
assert(stats.reversedEdges == 0)
assert(s:save(outdir .. "/dependencies.json"))
assert(s:save(outdir .. "/dependencies.svg"))
print(("dependencies: %d modules, %d dependencies, %d layers, %d crossings -> %s/dependencies.svg"):format(
  s.nodeCount, s.edgeCount, stats.layers, stats.crossings, outdir))
