-- A shop's microservices, grouped by where they run: clients, an edge tier, the core
-- services, data stores and the async workers, with what each call carries on its edge.
local flow = require "flow"

local s = flow.newStore{
  classes = {
    zone = { fill = "#f7f7f7", stroke = "#9e9e9e", dash = { 4, 3 } },
    client = { shape = "stadium", fill = "#f3e5f5", stroke = "#7b1fa2" },
    svc = { fill = "#e3f2fd", stroke = "#1565c0" },
    db = { shape = "cylinder", fill = "#eeeeff", stroke = "#555599" },
    queue = { shape = "parallelogram", fill = "#fff3e0", stroke = "#ef6c00" },
    async = { stroke = "#ef6c00", dash = { 5, 3 } },
  },
}

local groups = {
  { "clients", "Clients" }, { "edge", "Edge" }, { "core", "Core services" },
  { "data", "Data" }, { "workers", "Workers" },
}
local nodes = {
  { "web", "clients", "client", "Web shop" },
  { "ios", "clients", "client", "iOS app" },
  { "android", "clients", "client", "Android app" },
  { "partner", "clients", "client", "Partner API" },
  { "cdn", "edge", "svc", "CDN" },
  { "gateway", "edge", "svc", "API gateway" },
  { "authsvc", "edge", "svc", "Auth" },
  { "catalog", "core", "svc", "Catalog" },
  { "search", "core", "svc", "Search" },
  { "cart", "core", "svc", "Cart" },
  { "orders", "core", "svc", "Orders" },
  { "payments", "core", "svc", "Payments" },
  { "pricing", "core", "svc", "Pricing" },
  { "inventory", "core", "svc", "Inventory" },
  { "users", "core", "svc", "Users" },
  { "recs", "core", "svc", "Recommendations" },
  { "catalogdb", "data", "db", "Catalog DB" },
  { "ordersdb", "data", "db", "Orders DB" },
  { "usersdb", "data", "db", "Users DB" },
  { "redis", "data", "db", "Session cache" },
  { "index", "data", "db", "Search index" },
  { "bus", "workers", "queue", "Event bus" },
  { "mailer", "workers", "svc", "Mailer" },
  { "indexer", "workers", "svc", "Indexer" },
  { "analytics", "workers", "svc", "Analytics" },
  { "push", "workers", "svc", "Push notifier" },
}
local calls = {
  { "web", "cdn", "assets" }, { "web", "gateway", "HTTPS" }, { "ios", "gateway", "HTTPS" },
  { "android", "gateway", "HTTPS" }, { "partner", "gateway", "API key" },
  { "gateway", "authsvc", "verify" }, { "authsvc", "redis", "sessions" },
  { "gateway", "catalog", "REST" }, { "gateway", "search", "REST" }, { "gateway", "cart", "REST" },
  { "gateway", "orders", "REST" }, { "gateway", "users", "REST" },
  { "catalog", "catalogdb", "SQL" }, { "search", "index", "query" },
  { "cart", "pricing", "price" }, { "cart", "inventory", "reserve" },
  { "orders", "payments", "charge" }, { "orders", "ordersdb", "SQL" },
  { "orders", "bus", "order placed", "async" }, { "users", "usersdb", "SQL" },
  { "catalog", "bus", "item changed", "async" }, { "bus", "mailer", nil, "async" },
  { "bus", "indexer", nil, "async" }, { "bus", "analytics", nil, "async" },
  { "indexer", "index", "upsert" }, { "gateway", "recs", "REST" },
  { "recs", "catalog", "items" }, { "bus", "push", nil, "async" },
}

s:transaction(function()
  for _, g in ipairs(groups) do
    s:addNode{ id = g[1], acceptsChildren = true, class = "zone", data = { label = g[2] } }
  end
  for _, n in ipairs(nodes) do
    s:addNode{ id = n[1], parentID = n[2], class = n[3], data = { label = n[4] } }
  end
  for _, c in ipairs(calls) do s:connect(c[1], c[2], { label = c[3], class = c[4] }) end
end)
s:layout{ direction = "TB" }
return s
