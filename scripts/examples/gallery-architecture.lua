-- A service architecture: services, databases drawn as cylinders and a queue, styled by
-- classes of the store's style sheet (like Mermaid's classDef), laid out left to right.
-- Writes architecture.svg and architecture.json into the directory given as the first
-- argument (default: "."). One of the pictures of docs/gallery.md.
--
--   scripts/flowrepl scripts/examples/gallery-architecture.lua [outdir]

local flow = require "flow"
local outdir = (arg and arg[1]) or "."

local s = flow.newStore{
  classes = {
    client = { shape = "stadium", fill = "#f3e5f5", stroke = "#7b1fa2" },
    service = { fill = "#e3f2fd", stroke = "#1565c0" },
    db = { shape = "cylinder", fill = "#eeeeff", stroke = "#555599" },
    queue = { shape = "parallelogram", fill = "#fff3e0", stroke = "#ef6c00" },
    async = { stroke = "#ef6c00", dash = { 5, 3 }, targetArrow = "open" },
    reads = { stroke = "#555599", sourceArrow = "circle" },
  },
}

local parts = {
  { "web", "client", "Web shop" },
  { "mobile", "client", "Mobile app" },
  { "gateway", "service", "API gateway" },
  { "orders", "service", "Order service" },
  { "billing", "service", "Billing service" },
  { "events", "queue", "Order events" },
  { "mailer", "service", "Notification\nservice" },
  { "ordersdb", "db", "Orders DB" },
  { "billingdb", "db", "Billing DB" },
}
local links = {
  { "web", "gateway" }, { "mobile", "gateway" },
  { "gateway", "orders" }, { "gateway", "billing" },
  { "orders", "ordersdb", "reads" }, { "billing", "billingdb", "reads" },
  { "orders", "events", "async", "publishes" }, { "events", "mailer", "async" },
}

s:transaction(function()
  for _, p in ipairs(parts) do s:addNode{ id = p[1], class = p[2], data = { label = p[3] } } end
  for _, l in ipairs(links) do s:connect(l[1], l[2], { class = l[3], label = l[4] }) end
end)
s:layout{ direction = "LR", nodeSpacing = 30, layerSpacing = 70 }
-- edges run in horizontal and vertical lines with rounded corners
s:updateEdges(function(e) e.pathType = "smoothStep" end)

assert(s:save(outdir .. "/architecture.svg", { title = "Architecture", handles = "none" }))
assert(s:save(outdir .. "/architecture.json"))
print(string.format("architecture: %d parts, %d links", s.nodeCount, s.edgeCount))
