// flowrepl: lua.c translated to Swift, plus what a diagram user needs (see docs/repl.md).
// main.swift holds only the entry point; the command line is parsed in Options.swift, the
// interpreter steps in Interpreter.swift, the read-eval-print loop in REPL.swift and line
// input in LineEditor.swift.
import Glibc

exit(Interpreter.main(CommandLine.arguments))
