-- The pictures of docs/layout.md, "Stable layout": a service diagram laid out, then five
-- edits made at the prompt, each followed by a fresh layout of one copy and a stable one
-- (`layout{stable = true}`) of the other. Writes stable-0.svg (the start) and
-- stable-K-fresh.svg, stable-K-stable.svg (K = 1..5) into the directory given as the
-- first argument (default: "."). What each edit added is drawn in amber.
--
--   .build/release/flowrepl scripts/stable-pictures.lua docs/images

local flow = require "flow"
local outdir = (arg and arg[1]) or "."

local services = {
  { "web", { "gateway" } }, { "mobile", { "gateway" } },
  { "gateway", { "auth", "orders", "catalog", "search" } },
  { "auth", { "users" } }, { "orders", { "payments", "stock", "orders-db" } },
  { "catalog", { "catalog-db", "stock" } }, { "search", { "index" } },
  { "payments", { "ledger" } }, { "stock", { "stock-db" } },
  { "users", {} }, { "orders-db", {} }, { "catalog-db", {} }, { "index", {} },
  { "ledger", {} }, { "stock-db", {} },
}
local NEW = { fill = "#fde68a", stroke = "#b45309" }

local function build()
  local s = flow.newStore()
  s:transaction(function()
    for _, m in ipairs(services) do
      s:addNode{ id = m[1], width = 96, height = 36, data = { label = m[1] } }
    end
    for _, m in ipairs(services) do
      for _, to in ipairs(m[2]) do s:connect(m[1], to) end
    end
  end)
  return s
end

local options = { nodeSpacing = 24, layerSpacing = 50 }
local fresh, stable = build(), build()
fresh:layout(options)
stable:layout(options)
assert(stable:save(outdir .. "/stable-0.svg"))

-- each edit is made the same way in both stores
local edits = {
  { "a cache between orders and its database", function(s)
      s:addNode{ id = "cache", width = 96, height = 36, data = { label = "cache" }, style = NEW }
      s:connect("orders", "cache"); s:connect("cache", "orders-db")
    end },
  { "search reads the catalogue", function(s)
      s:connect("search", "catalog", { style = { stroke = "#b45309" } })
    end },
  { "an audit log fed by auth and payments", function(s)
      s:addNode{ id = "audit", width = 96, height = 36, data = { label = "audit" }, style = NEW }
      s:connect("auth", "audit"); s:connect("payments", "audit")
    end },
  { "the mobile app is retired", function(s) s:removeNode("mobile") end },
  { "notifications for orders and payments", function(s)
      s:addNode{ id = "notify", width = 96, height = 36, data = { label = "notify" }, style = NEW }
      s:addNode{ id = "mail", width = 96, height = 36, data = { label = "mail" }, style = NEW }
      s:connect("orders", "notify"); s:connect("payments", "notify"); s:connect("notify", "mail")
    end },
}

local stableOptions = { stable = true }
for k, v in pairs(options) do stableOptions[k] = v end
for k, e in ipairs(edits) do
  e[2](fresh)
  e[2](stable)
  local a = fresh:layout(options)
  local b = stable:layout(stableOptions)
  assert(fresh:save(("%s/stable-%d-fresh.svg"):format(outdir, k)))
  assert(stable:save(("%s/stable-%d-stable.svg"):format(outdir, k)))
  print(("edit %d (%s): crossings fresh %d, stable %d"):format(k, e[1], a.crossings, b.crossings))
end
