// flowrepl: lua.c translated to Swift, plus what a diagram user needs (see docs/repl.md).
// main.swift holds only the entry point; the command line is parsed in Options.swift, the
// interpreter steps in Interpreter.swift, the read-eval-print loop in REPL.swift and line
// input in LineEditor.swift.
import CLuaShims
import FlowLua
import Glibc

// Workspaces (FlowLuaWorkspace: GRDB, SQLite, Foundation) are the module
// flowrepl-workspace.so beside flowrepl, loaded when a script first calls `flow.workspace`
// (which requires `flow.workspace`) or `--workspace` opens one (scripts/build-flowrepl).
FlowHooks.preloads.append((name: "flow.workspace", open: flua_open_repl_workspace))
exit(Interpreter.main(CommandLine.arguments))
