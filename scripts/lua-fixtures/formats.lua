-- Formats: DOT and Mermaid round trips under the stock interpreter. A laid-out graph
-- written as DOT reads back with the same positions, so writing it again gives the same
-- bytes; Mermaid text read, written and read again gives the same nodes and edges.
local flow = require "flow"

local dot = [[
digraph {
  rankdir = LR
  node [shape = box]
  subgraph cluster_io { label = "I/O"; read; write [shape = cylinder] }
  read -> parse -> check -> write [label = "ok"]
  check -> report [style = dashed, color = "#cc0000"]
}]]

local s, warnings = flow.decode(dot, { format = "dot" })
assert(s, warnings)
assert(#warnings == 0, "no warnings: " .. table.concat(warnings, "; "))
assert(s:node("parse").position.x > s:node("read").position.x, "laid out left to right")
local once = s:dot()
local again = assert(flow.decode(once, { format = "dot" }))
assert(again:node("write").parentID == "cluster_io", "the cluster is the group")
assert(again:node("check").position.x == s:node("check").position.x, "positions kept")
assert(again:dot() == once, "DOT written twice is the same text")

local mermaid = [[
flowchart TD
  a[Start] --> b{Ok?}
  b -->|yes| c([Done])
  b -.->|no| a
  subgraph g [Group]
    c
  end
  classDef done fill:#e0ffe0
  class c done
]]
local m = assert(flow.decode(mermaid, { format = "mermaid" }))
local text = m:mermaid()
local back = assert(flow.decode(text, { format = "mermaid" }))
local function shape(st)
  local out = {}
  for _, n in ipairs(st:nodes()) do
    out[#out + 1] = table.concat({ n.id, tostring(n.shape), tostring(n.parentID) }, "|")
  end
  for _, e in ipairs(st:edges()) do
    out[#out + 1] = table.concat({ e.sourceNodeID, e.targetNodeID, tostring(e.label) }, "|")
  end
  table.sort(out)
  return table.concat(out, "\n")
end
assert(shape(back) == shape(m), "Mermaid round trip keeps the graph")
assert(back:mermaid() == text, "Mermaid written twice is the same text")

-- bad text: nil and a message, never an error
local bad, msg = flow.decode(string.rep("{", 10000), { format = "dot" })
assert(bad == nil and msg:find("line 1, column 1"), msg)
