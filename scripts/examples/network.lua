-- A service map drawn side by side: nodes placed in rows and columns by hand, edges with
-- auto handles (each attaches on the side of its node that faces the other end), routed
-- orthogonally around the services by the store, with two-line labels placed where they
-- cover nothing. Writes network.json and network.svg into the directory given as the first
-- argument (default: ".").
--
--   scripts/flowrepl scripts/examples/network.lua [outdir]

local flow = require "flow"
local outdir = (arg and arg[1]) or "."

local s = flow.newStore{ autoHandles = true }

-- Rows and columns: { id, column, row, title }.
local services = {
  { "web",     0, 0, "Web app" },
  { "mobile",  0, 2, "Mobile app" },
  { "gateway", 1, 1, "API gateway" },
  { "auth",    2, 0, "Auth" },
  { "orders",  2, 1, "Orders" },
  { "search",  2, 2, "Search" },
  { "queue",   3, 1, "Event queue" },
  { "db",      4, 0, "Orders DB" },
  { "index",   4, 2, "Search index" },
  { "mail",    4, 1, "Mailer" },
}

-- { from, to, label } ("\n" starts a second line).
local calls = {
  { "web", "gateway", "HTTPS" },
  { "mobile", "gateway", "HTTPS" },
  { "gateway", "auth", "verify\ntoken" },
  { "gateway", "orders", "REST" },
  { "gateway", "search", "REST" },
  { "orders", "queue", "publish" },
  { "orders", "db", "SQL" },
  { "search", "index", "query" },
  { "queue", "mail", "order\nplaced" },
  { "queue", "index", "reindex" },
  { "web", "auth", "login" },
  { "auth", "db", "sessions" },
}

s:transaction(function()
  for _, sv in ipairs(services) do
    s:addNode{ id = sv[1], x = sv[2] * 220, y = sv[3] * 130, width = 130, height = 50,
               data = { label = sv[4] } }
  end
  for _, c in ipairs(calls) do
    s:connect(c[1], c[2], { label = c[3], pathType = "orthogonal" })
  end
end)

local _, warnings = s:svg()
assert(warnings == nil, "a label could not be placed")
assert(s:save(outdir .. "/network.json"))
assert(s:save(outdir .. "/network.svg"))
print(("network: %d services, %d calls -> %s/network.json, %s/network.svg"):format(
  s.nodeCount, s.edgeCount, outdir, outdir))
