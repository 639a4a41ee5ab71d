-- Loads and checks docs/api/api.lua for scripts/gen-docs and scripts/check-api.
--
--   local apidoc = dofile("docs/api/apidoc.lua")
--   local api = apidoc.load("docs/api/api.lua")   -- raises with every problem found
--
-- The result keeps the source's order: api.sections[i].entries[j], and api.entries (all
-- entries, in order). Each entry is normalised: params, returns and fields become lists
-- of named records, text and examples lose their common indentation, and members of a
-- type get `owner` ("Store") and `member` ("addNode").

local M = {}

M.KINDS = { ["function"] = true, method = true, field = true, callback = true, type = true,
  value = true }

-- The bound types: their members are the entries named "Type.x" and "Type:x".
M.BOUND = { "Store", "Node", "Edge", "Walker", "Observer", "Workspace" }

M.MAX_WIDTH = 90

-- Names a LuaLS type expression may use besides the documented types.
local BUILTIN_TYPES = {}
for _, t in ipairs { "any", "nil", "boolean", "string", "number", "integer", "table",
  "function", "userdata", "lightuserdata", "thread", "fun", "true", "false" } do
  BUILTIN_TYPES[t] = true
end

local IDENT = "[%a_][%w_]*"

local function isBound(name)
  for _, b in ipairs(M.BOUND) do
    if b == name then return true end
  end
  return false
end
M.isBound = isBound

-- Removes the indentation common to all non-blank lines, trailing blanks on each line, and
-- leading and trailing blank lines.
function M.dedent(s)
  if s == nil then return nil end
  local lines = {}
  for line in (s .. "\n"):gmatch("(.-)\n") do
    lines[#lines + 1] = line:gsub("%s+$", "")
  end
  local indent
  for _, line in ipairs(lines) do
    if line ~= "" then
      local n = #line:match("^ *")
      if indent == nil or n < indent then indent = n end
    end
  end
  indent = indent or 0
  for i, line in ipairs(lines) do
    lines[i] = line:sub(indent + 1)
  end
  while lines[1] == "" do table.remove(lines, 1) end
  while lines[#lines] == "" do table.remove(lines) end
  return table.concat(lines, "\n")
end

-- {"name?", "type", "desc", default=} -> {name=, optional=, type=, desc=, default=}
local function namedRecord(r)
  local name = r[1]
  local optional = name:sub(-1) == "?"
  if optional then name = name:sub(1, -2) end
  return { name = name, optional = optional, type = r[2], desc = r[3], default = r.default }
end

-- The identifiers of a LuaLS type expression that name types (not parameter names or
-- table keys, not string literals).
function M.typeNames(expr)
  local names = {}
  local s = expr:gsub('"[^"]*"', '""')
  local pos = 1
  while true do
    local a, b = s:find(IDENT, pos)
    if not a then break end
    local rest = s:sub(b + 1)
    if not rest:match("^%s*%??%s*:") then
      names[#names + 1] = s:sub(a, b)
    end
    pos = b + 1
  end
  return names
end

-- Splits an entry name: "Store:addNode" -> "Store", ":", "addNode"; "flow.open" ->
-- "flow", ".", "open"; "Point" -> nil.
function M.splitName(name)
  local owner, sep, member = name:match("^(" .. IDENT .. ")([.:])(" .. IDENT .. ")$")
  return owner, sep, member
end

-- Markdown would take `<word` outside code spans for an HTML tag and drop it.
local function checkProse(problems, where, text)
  if text and text:gsub("`[^`]*`", ""):find("<%a") then
    problems[#problems + 1] = where .. ": put text with < in backticks (markdown eats it)"
  end
end

local function checkLines(problems, where, text)
  if text == nil then return end
  local n = 0
  for line in (text .. "\n"):gmatch("(.-)\n") do
    n = n + 1
    if #line > M.MAX_WIDTH then
      problems[#problems + 1] = string.format("%s: line %d is longer than %d columns",
        where, n, M.MAX_WIDTH)
    end
  end
end

local function normalise(e, section, problems)
  local function problem(fmt, ...)
    problems[#problems + 1] = (e.name or "?") .. ": " .. string.format(fmt, ...)
  end
  if type(e.name) ~= "string" then
    problem("entry without a name")
    return
  end
  if not M.KINDS[e.kind] then problem("unknown kind %s", tostring(e.kind)) end
  if type(e.summary) ~= "string" or e.summary == "" or e.summary:find("\n") then
    problem("summary must be one non-empty line")
  elseif #e.summary > M.MAX_WIDTH then
    problem("summary is longer than %d columns", M.MAX_WIDTH)
  end
  e.section = section
  e.text = M.dedent(e.text)
  e.example = M.dedent(e.example)
  checkLines(problems, e.name .. " text", e.text)
  checkProse(problems, e.name .. " text", e.text)
  checkProse(problems, e.name .. " summary", e.summary)
  for _, r in ipairs(e.params or {}) do checkProse(problems, e.name .. " " .. r[1], r[3]) end
  for _, r in ipairs(e.fields or {}) do checkProse(problems, e.name .. " " .. r[1], r[3]) end
  for _, r in ipairs(e.returns or {}) do checkProse(problems, e.name .. " returns", r[2]) end
  checkLines(problems, e.name .. " example", e.example)
  local params, returns, fields, values = {}, {}, {}, {}
  for _, p in ipairs(e.params or {}) do params[#params + 1] = namedRecord(p) end
  for _, r in ipairs(e.returns or {}) do
    returns[#returns + 1] = { type = r[1], desc = r[2], name = r.name }
  end
  for _, f in ipairs(e.fields or {}) do fields[#fields + 1] = namedRecord(f) end
  for _, v in ipairs(e.values or {}) do
    if type(v) == "string" then v = { v } end
    values[#values + 1] = { value = v[1], desc = v[2] }
  end
  e.hasParams = e.params ~= nil
  e.params, e.returns = params, returns
  e.fields = e.fields and fields or nil
  e.values = e.values and values or nil
  e.owner, e.sep, e.member = M.splitName(e.name)

  -- the form of the name must fit the kind
  local k = e.kind
  if k == "method" then
    if e.sep ~= ":" or not isBound(e.owner) then problem("a method is named Type:name") end
  elseif k == "field" then
    if e.sep ~= "." or not (isBound(e.owner) or e.owner == "flow") then
      problem("a field is named Type.name or flow.name")
    end
    if not e.type then problem("a field needs a type") end
  elseif k == "callback" then
    if e.sep ~= "." or not isBound(e.owner) then problem("a callback is named Type.name") end
  elseif k == "function" then
    if not ((e.sep == "." and e.owner == "flow") or (e.owner == nil and e.repl)) then
      problem("a function is named flow.name, or is a flowrepl global (repl = true)")
    end
  elseif k == "value" then
    if not (e.name == "flow" or (e.sep == "." and e.owner == "flow")
        or (e.owner == nil and e.repl)) then
      problem("a value is flow, flow.name, or a flowrepl global (repl = true)")
    end
  elseif k == "type" then
    if not e.name:match("^%u[%w_]*$") then problem("a type name starts with a capital") end
    local forms = (e.fields and 1 or 0) + (e.values and 1 or 0) + (e.alias and 1 or 0)
    if forms > 1 then problem("a type has one of fields, values or alias") end
    if forms == 0 and not isBound(e.name) then
      problem("a type without fields, values or alias must be a bound type")
    end
    if e.extends and not e.fields then problem("extends needs fields") end
    e.form = e.fields and "shape" or e.values and "enum" or e.alias and "alias" or "class"
  end
  if (k == "method" or k == "function") and e.type then problem("functions have returns, not type") end
end

-- Every type expression of an entry, with where it occurs.
local function typeExpressions(e)
  local list = {}
  local function add(where, t) if t then list[#list + 1] = { where, t } end end
  for _, p in ipairs(e.params) do add("param " .. p.name, p.type) end
  for i, r in ipairs(e.returns) do add("return " .. i, r.type) end
  for _, f in ipairs(e.fields or {}) do add("field " .. f.name, f.type) end
  add("type", e.type)
  add("alias", e.alias)
  add("extends", e.extends)
  return list
end

function M.load(path)
  local api = dofile(path)
  local problems = {}
  api.intro = M.dedent(api.intro)
  api.entries, api.byName = {}, {}
  for _, section in ipairs(api.sections) do
    section.text = M.dedent(section.text)
    checkLines(problems, "section " .. section.id, section.text)
    checkProse(problems, "section " .. section.id, section.text)
    for _, e in ipairs(section.entries) do
      normalise(e, section, problems)
      if e.name then
        if api.byName[e.name] then problems[#problems + 1] = e.name .. ": documented twice" end
        api.byName[e.name] = e
        api.entries[#api.entries + 1] = e
      end
    end
  end
  -- every type used is documented; members belong to a documented type
  for _, e in ipairs(api.entries) do
    for _, te in ipairs(typeExpressions(e)) do
      for _, t in ipairs(M.typeNames(te[2])) do
        local d = api.byName[t]
        if not BUILTIN_TYPES[t] and not (d and d.kind == "type") then
          problems[#problems + 1] = string.format("%s: %s uses the undocumented type %s",
            e.name, te[1], t)
        end
      end
    end
    if e.extends and not (api.byName[e.extends] and api.byName[e.extends].form == "shape") then
      problems[#problems + 1] = e.name .. ": extends a type that is not a table shape"
    end
    if e.owner and e.owner ~= "flow" and not api.byName[e.owner] then
      problems[#problems + 1] = e.name .. ": its type " .. e.owner .. " is not documented"
    end
  end
  -- help("edgeGeometry") must find the method: no value shape may be spelt like a method's
  -- name (Store, Node and Edge are the contract's, and help("node") showing Node is fine)
  local members = {}
  for _, e in ipairs(api.entries) do
    if e.kind == "method" or e.kind == "function" then
      members[(e.member or e.name):lower()] = e.name
    end
  end
  for _, e in ipairs(api.entries) do
    if e.kind == "type" and not isBound(e.name) and members[e.name:lower()] then
      problems[#problems + 1] = string.format(
        "%s: spelt like %s, so help would find the type instead", e.name,
        members[e.name:lower()])
    end
  end
  if #problems > 0 then
    error("docs/api/api.lua:\n  " .. table.concat(problems, "\n  "), 0)
  end
  return api
end

-- The members of a bound type, in source order: fields, callbacks, methods.
function M.members(api, typeName)
  local fields, callbacks, methods = {}, {}, {}
  for _, e in ipairs(api.entries) do
    if e.owner == typeName then
      if e.kind == "method" then
        methods[#methods + 1] = e
      elseif e.kind == "callback" then
        callbacks[#callbacks + 1] = e
      else
        fields[#fields + 1] = e
      end
    end
  end
  return fields, callbacks, methods
end

return M
