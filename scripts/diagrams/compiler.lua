-- A compiler's pipeline, left to right: the phases from source text to a linked binary,
-- what each hands the next, and the diagnostics and caches on the side.
local flow = require "flow"

local s = flow.newStore{
  classes = {
    phase = { fill = "#e3f2fd", stroke = "#1565c0" },
    artefact = { shape = "document", fill = "#fff3e0", stroke = "#ef6c00" },
    side = { shape = "parallelogram", fill = "#f3e5f5", stroke = "#7b1fa2" },
  },
}

local nodes = {
  { "src", "artefact", "main.c" }, { "pre", "phase", "Preprocessor" }, { "lex", "phase", "Lexer" },
  { "parse", "phase", "Parser" }, { "sema", "phase", "Type checker" }, { "ir", "phase", "IR builder" },
  { "opt", "phase", "Optimizer" }, { "codegen", "phase", "Code generator" }, { "asm", "phase", "Assembler" },
  { "link", "phase", "Linker" }, { "bin", "artefact", "a.out" }, { "headers", "artefact", "headers" },
  { "diag", "side", "Diagnostics" }, { "cache", "side", "Module cache" }, { "libs", "artefact", "libc.so" },
}
local flows = {
  { "src", "pre", "text" }, { "headers", "pre", "#include" }, { "pre", "lex", "chars" },
  { "lex", "parse", "tokens" }, { "parse", "sema", "AST" }, { "sema", "ir", "typed AST" },
  { "ir", "opt", "SSA" }, { "opt", "codegen", "SSA" }, { "codegen", "asm", "asm" },
  { "asm", "link", "object" }, { "libs", "link", "symbols" }, { "link", "bin", "ELF" },
  { "parse", "diag", "syntax errors" }, { "sema", "diag", "type errors" }, { "sema", "cache", "modules" },
  { "opt", "opt", "passes" },
}

s:transaction(function()
  for _, n in ipairs(nodes) do s:addNode{ id = n[1], class = n[2], data = { label = n[3] } } end
  for _, f in ipairs(flows) do s:connect(f[1], f[2], { label = f[3] }) end
end)
s:layout{ direction = "LR" }
return s
