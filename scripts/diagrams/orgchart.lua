-- An engineering org chart: each manager above their reports, laid out as a tree.
local flow = require "flow"

local s = flow.newStore{
  classes = {
    exec = { fill = "#ede7f6", stroke = "#5e35b1", bold = true },
    lead = { fill = "#e3f2fd", stroke = "#1565c0" },
    ic = { fill = "#ffffff", stroke = "#90a4ae" },
  },
}

local people = {
  { "cto", nil, "exec", "CTO\nAda" },
  { "vpplat", "cto", "exec", "VP Platform\nGrace" }, { "vpprod", "cto", "exec", "VP Product Eng\nLinus" },
  { "infra", "vpplat", "lead", "Infra lead\nKen" }, { "sre", "vpplat", "lead", "SRE lead\nBarbara" },
  { "data", "vpplat", "lead", "Data lead\nEdgar" },
  { "web", "vpprod", "lead", "Web lead\nTim" }, { "mobile", "vpprod", "lead", "Mobile lead\nMargaret" },
  { "i1", "infra", "ic", "Radia" }, { "i2", "infra", "ic", "Vint" },
  { "s1", "sre", "ic", "Frances" }, { "s2", "sre", "ic", "Dennis" },
  { "d1", "data", "ic", "Jim" },
  { "w1", "web", "ic", "Brendan" }, { "w2", "web", "ic", "Anders" }, { "w3", "web", "ic", "Guido" },
  { "m1", "mobile", "ic", "Chris" }, { "m2", "mobile", "ic", "Sophie" },
}

s:transaction(function()
  for _, p in ipairs(people) do s:addNode{ id = p[1], class = p[3], data = { label = p[4] } } end
  for _, p in ipairs(people) do
    if p[2] then s:connect(p[2], p[1], { pathType = "smoothStep" }) end
  end
end)
s:layout{ algorithm = "tree" }
return s
