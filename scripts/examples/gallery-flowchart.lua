-- A flowchart with the classic symbols: a start and an end, an input (parallelogram), a
-- decision (diamond), a process, a document and a note; own styles on two of them, laid out
-- top to bottom. Writes flowchart.svg into the directory given as the first argument
-- (default: "."). One of the pictures of docs/gallery.md.
--
--   scripts/flowrepl scripts/examples/gallery-flowchart.lua [outdir]

local flow = require "flow"
local outdir = (arg and arg[1]) or "."

local s = flow.newStore()

s:transaction(function()
  s:addNode{ id = "begin", shape = "stadium", data = { label = "Start" } }
  s:addNode{ id = "read", shape = "parallelogram", data = { label = "Read the expense claim" } }
  s:addNode{ id = "check", shape = "diamond", data = { label = "Over 500 €?" } }
  s:addNode{ id = "approve", data = { label = "Manager approves" } }
  s:addNode{ id = "pay", data = { label = "Pay the claim" } }
  s:addNode{ id = "receipt", shape = "document", data = { label = "Receipt" } }
  s:addNode{ id = "finish", shape = "stadium", data = { label = "End" } }
  s:addNode{ id = "policy", shape = "note",
             style = { fill = "#fffde7", stroke = "#c9b458", italic = true, fontSize = 11 },
             data = { label = "Policy: claims over 500 €\nneed a second signature" } }

  s:connect("begin", "read")
  s:connect("read", "check")
  s:connect("check", "approve", { label = "yes" })
  s:connect("check", "pay", { label = "no" })
  s:connect("approve", "pay")
  s:connect("pay", "receipt")
  s:connect("receipt", "finish")
  s:connect("policy", "approve", { style = { dash = { 2, 3 }, targetArrow = "none", stroke = "#c9b458" } })
end)
-- edges run in horizontal and vertical lines with rounded corners; set before the layout,
-- which routes each edge for its path type
s:updateEdges(function(e) e.pathType = "smoothStep" end)
s:layout{ direction = "TB" }

assert(s:save(outdir .. "/flowchart.svg", { title = "Expense claim", handles = "none" }))
print(string.format("flowchart: %d steps", s.nodeCount))
