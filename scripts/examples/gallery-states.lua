-- A state machine drawn the way state machines are drawn in docs: a filled start state,
-- rounded states, decision diamonds and a stadium-shaped final state, laid out
-- automatically (no coordinates). Writes states.svg into the directory given as the first
-- argument (default: "."). One of the pictures of docs/gallery.md.
--
--   scripts/flowrepl scripts/examples/gallery-states.lua [outdir]

local flow = require "flow"
local outdir = (arg and arg[1]) or "."

local s = flow.newStore{
  classes = {
    start = { shape = "circle", fill = "#1c1c1e", stroke = "#1c1c1e" },
    decision = { shape = "diamond", fill = "#fff8e1", stroke = "#b8860b" },
    done = { shape = "stadium", fill = "#e8f5e9", stroke = "#2e7d32", bold = true },
    failed = { shape = "stadium", fill = "#fdecea", stroke = "#c62828", bold = true },
  },
}

s:transaction(function()
  s:addNode{ id = "start", width = 24, height = 24, class = "start", data = { label = "" } }
  s:addNode{ id = "received", data = { label = "Order received" } }
  s:addNode{ id = "paid", class = "decision", data = { label = "Payment ok?" } }
  s:addNode{ id = "stock", class = "decision", data = { label = "In stock?" } }
  s:addNode{ id = "backorder", data = { label = "Backordered\n(waiting for stock)" } }
  s:addNode{ id = "shipped", class = "done", data = { label = "Shipped" } }
  s:addNode{ id = "cancelled", class = "failed", data = { label = "Cancelled" } }

  s:connect("start", "received")
  s:connect("received", "paid")
  s:connect("paid", "stock", { label = "yes" })
  s:connect("paid", "cancelled", { label = "no" })
  s:connect("stock", "shipped", { label = "yes" })
  s:connect("stock", "backorder", { label = "no" })
  s:connect("backorder", "stock", { label = "restocked", style = { dash = { 4, 3 } } })
end)
-- edges run in horizontal and vertical lines with rounded corners
s:updateEdges(function(e) e.pathType = "smoothStep" end)
s:layout{ direction = "TB", nodeSpacing = 50 }

assert(s:save(outdir .. "/states.svg", { title = "Order states", handles = "none" }))
print(string.format("states: %d states, %d transitions", s.nodeCount, s.edgeCount))
