-- LuaRocks: `luarocks make` in a checkout builds the Lua modules with scripts/build-module
-- (Swift toolchain, liblua5.4-dev and libsqlite3-dev needed) and installs them:
--   flow.so             require "flow"
--   flow/workspace.so   require "flow.workspace" (loaded by the first flow.workspace call)
-- flow.so carries the Swift runtime it needs: the installed files are all it takes.
rockspec_format = "3.0"
package = "flowscript"
version = "0.1.0-1"
source = {
  url = "git+https://github.com/flowscript/flowscript.git",
  tag = "0.1.0",
}
description = {
  summary = "Flow diagrams scripted in Lua: a store of nodes and edges, layout, routing, SVG",
  detailed = [[
    The flow module: nodes, edges, groups, undo, change events, automatic layout,
    orthogonal routing, DOT and Mermaid, SVG/PNG drawing, and workspaces (SQLite).
    Written in Swift; see docs/lua-api.md.]],
  license = "MIT",
}
dependencies = { "lua >= 5.4, < 5.5" }
build = {
  type = "command",
  -- luarocks sets CC (gcc) and CFLAGS for C modules; SwiftPM must use its own clang
  build_command = "env -u CC -u CFLAGS -u LDFLAGS scripts/build-module .build/module-rock",
  install = {
    lib = {
      ["flow"] = ".build/module-rock/flow.so",
      ["flow.workspace"] = ".build/module-rock/flow/workspace.so",
    },
  },
}
