-- A package dependency graph, read left to right: an app, its libraries and theirs,
-- each edge labelled with the version range it asks for.
local flow = require "flow"

local s = flow.newStore{
  classes = {
    app = { shape = "stadium", fill = "#e8f5e9", stroke = "#2e7d32" },
    lib = { fill = "#e3f2fd", stroke = "#1565c0" },
    native = { shape = "hexagon", fill = "#fbe9e7", stroke = "#bf360c" },
    dev = { stroke = "#9e9e9e", dash = { 3, 3 } },
  },
}

local pkgs = {
  { "app", "app", "my-app 2.3.0" }, { "http", "lib", "http-client" }, { "json", "lib", "json" },
  { "log", "lib", "logging" }, { "cli", "lib", "cli-args" }, { "tls", "lib", "tls" },
  { "crypto", "native", "libcrypto" }, { "zlib", "native", "zlib" }, { "url", "lib", "url" },
  { "idna", "lib", "idna" }, { "unicode", "lib", "unicode-data" }, { "color", "lib", "term-color" },
  { "test", "lib", "test-kit" }, { "mock", "lib", "mock-server" }, { "time", "lib", "time" },
}
local deps = {
  { "app", "http", "^4.1" }, { "app", "json", "^2.0" }, { "app", "log", "~1.4" }, { "app", "cli", "^0.9" },
  { "app", "test", "^3", "dev" }, { "http", "tls", "^1.2" }, { "http", "url", "^2.5" },
  { "http", "zlib", ">=1.2.11" }, { "tls", "crypto", "3.x" }, { "url", "idna", "^0.5" },
  { "idna", "unicode", "^15" }, { "json", "unicode", "^15" }, { "log", "time", "^0.3" },
  { "log", "color", "^2" }, { "cli", "color", "^2" }, { "test", "mock", "^1", "dev" },
  { "mock", "http", "^4", "dev" }, { "test", "color", "^2", "dev" },
}

s:transaction(function()
  for _, p in ipairs(pkgs) do s:addNode{ id = p[1], class = p[2], data = { label = p[3] } } end
  for _, d in ipairs(deps) do s:connect(d[1], d[2], { label = d[3], class = d[4] }) end
end)
s:layout{ direction = "LR" }
return s
