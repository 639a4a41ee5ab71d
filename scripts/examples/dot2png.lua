-- A DOT file to a laid-out picture: flow.decode (or flow.open) reads the Graphviz graph,
-- lays it out because it has no positions, and prints what it did not map; the store
-- then saves the picture (SVG, and PNG through rsvg-convert), the JSON document and the
-- graph as DOT again. Without a DOT file it draws a small build graph written below.
-- Writes dot2png.{svg,png,json,dot} into the directory given as the first argument
-- (default: the current directory).
--
--   scripts/flowrepl scripts/examples/dot2png.lua [outdir] [graph.dot]
--   dot -Tpng graph.dot -o dot.png      # Graphviz's own picture, to put beside it

local flow = require "flow"
local outdir = (arg and arg[1]) or "."
local input = arg and arg[2]

local builtin = [[
digraph build {
  rankdir = TB
  node [shape = box, style = "rounded,filled", fillcolor = "#e8f0fe", color = "#4a6fa5"]
  edge [color = "#555555"]

  subgraph cluster_sources {
    label = "Sources"
    parser [label = "parser.swift"]
    lexer [label = "lexer.swift"]
  }
  subgraph cluster_outputs {
    label = "Outputs"
    style = filled
    fillcolor = "#f6f6f6"
    lib [label = "libflow.so", shape = cylinder]
    repl [label = "flowrepl", shape = hexagon]
  }
  headers [label = "lua.h", shape = note, fillcolor = "#fff6d5"]
  config [label = "Package.swift", shape = parallelogram]
  tests [label = "tests\npass?", shape = diamond, fillcolor = "#e0f5e0"]

  lexer -> parser -> lib
  headers -> lib [style = dashed, label = "links"]
  config -> lib
  config -> repl
  lib -> repl -> tests
  lib -> tests [label = "require"]
}
]]

local s, warnings
if input then
  s, warnings = flow.open(input)
else
  s, warnings = flow.decode(builtin, { format = "dot" })
end
if not s then error(warnings) end
for _, w in ipairs(warnings) do print("not mapped: " .. w) end

local base = outdir .. "/dot2png"
assert(s:save(base .. ".svg", { title = input and input:match("[^/]*$") or "build" }))
assert(s:save(base .. ".png", { scale = 2 }))
assert(s:save(base .. ".json"))
assert(s:save(base .. ".dot"))
print(("%d nodes, %d edges -> %s.{svg,png,json,dot}"):format(s.nodeCount, s.edgeCount, base))
