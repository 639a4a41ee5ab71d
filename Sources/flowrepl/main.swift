// flowrepl: lua.c translated to Swift, plus what a diagram user needs (see docs/repl.md).
// main.swift holds only the entry point; the command line is parsed in Options.swift, the
// interpreter steps in Interpreter.swift, the read-eval-print loop in REPL.swift and line
// input in LineEditor.swift.
import CLuaShims
import FlowLua
import Glibc

// Workspaces (FlowLuaWorkspace) are linked in, but nothing of them runs (no Foundation, no
// SQLite) until a script calls `flow.workspace`, which requires this module.
FlowHooks.preloads.append((name: "flow.workspace", open: luaopen_flow_workspace))
exit(Interpreter.main(CommandLine.arguments))
