-- Order fulfilment: from checkout through payment, picking, packing and shipping, with
-- the branches for failed payments, missing stock and returns.
local flow = require "flow"

local s = flow.newStore{
  classes = {
    event = { shape = "stadium", fill = "#f3e5f5", stroke = "#7b1fa2" },
    task = { fill = "#e3f2fd", stroke = "#1565c0" },
    check = { shape = "diamond", fill = "#fff8e1", stroke = "#b8860b" },
  },
}

local nodes = {
  { "checkout", "event", "Checkout" }, { "fraud", "check", "Fraud risk?" },
  { "review", "task", "Manual review" }, { "charge", "task", "Charge card" },
  { "paid", "check", "Paid?" }, { "notify", "task", "Ask for new card" },
  { "stock", "check", "All in stock?" }, { "split", "task", "Split shipment" },
  { "pick", "task", "Pick items" }, { "pack", "task", "Pack box" },
  { "label", "task", "Print label" }, { "ship", "task", "Hand to carrier" },
  { "delivered", "event", "Delivered" }, { "returned", "check", "Returned?" },
  { "refund", "task", "Refund" }, { "cancel", "event", "Cancelled" },
}
local flows = {
  { "checkout", "fraud" }, { "fraud", "review", "high" }, { "fraud", "charge", "low" },
  { "review", "charge", "approved" }, { "review", "cancel", "rejected" },
  { "charge", "paid" }, { "paid", "stock", "yes" }, { "paid", "notify", "no" },
  { "notify", "charge", "new card" }, { "stock", "pick", "yes" }, { "stock", "split", "no" },
  { "split", "pick", "first part" }, { "pick", "pack" }, { "pack", "label" },
  { "label", "ship" }, { "ship", "delivered", "tracking" }, { "delivered", "returned" },
  { "returned", "refund", "yes" },
}

s:transaction(function()
  for _, n in ipairs(nodes) do s:addNode{ id = n[1], class = n[2], data = { label = n[3] } } end
  for _, f in ipairs(flows) do s:connect(f[1], f[2], { label = f[3] }) end
end)
s:layout{ direction = "TB" }
return s
