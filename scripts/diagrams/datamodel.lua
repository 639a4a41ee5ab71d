-- A shop's data model: entities and their relations, each edge labelled with the
-- relation and its cardinality, as an entity-relationship sketch.
local flow = require "flow"

local s = flow.newStore{
  classes = {
    entity = { shape = "rectangle", fill = "#ffffff", stroke = "#37474f" },
    link = { shape = "hexagon", fill = "#eceff1", stroke = "#607d8b" },
  },
}

local entities = {
  { "customer", "entity", "Customer" }, { "address", "entity", "Address" },
  { "order", "entity", "Order" }, { "line", "link", "OrderLine" }, { "product", "entity", "Product" },
  { "category", "entity", "Category" }, { "payment", "entity", "Payment" },
  { "shipment", "entity", "Shipment" }, { "warehouse", "entity", "Warehouse" },
  { "stock", "link", "StockLevel" }, { "review", "entity", "Review" }, { "coupon", "entity", "Coupon" },
}
local relations = {
  { "customer", "address", "has 1..*" }, { "customer", "order", "places 0..*" },
  { "order", "line", "contains 1..*" }, { "line", "product", "of 1" },
  { "product", "category", "in 1..*" }, { "order", "payment", "paid by 1..*" },
  { "order", "shipment", "shipped in 0..*" }, { "shipment", "address", "to 1" },
  { "shipment", "warehouse", "from 1" }, { "warehouse", "stock", "holds 0..*" },
  { "stock", "product", "of 1" }, { "customer", "review", "writes 0..*" },
  { "review", "product", "about 1" }, { "order", "coupon", "uses 0..1" },
}

s:transaction(function()
  for _, e in ipairs(entities) do s:addNode{ id = e[1], class = e[2], data = { label = e[3] } } end
  for _, r in ipairs(relations) do s:connect(r[1], r[2], { label = r[3] }) end
end)
s:layout{ direction = "TB" }
return s
