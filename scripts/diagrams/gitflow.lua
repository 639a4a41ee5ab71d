-- A git branching flow, left to right: commits on main, a release branch, two feature
-- branches and a hotfix, grouped by branch, with merges and tags labelled.
local flow = require "flow"

local s = flow.newStore{
  classes = {
    branch = { fill = "#fafafa", stroke = "#bdbdbd" },
    commit = { shape = "circle", fill = "#e3f2fd", stroke = "#1565c0" },
    tag = { shape = "stadium", fill = "#fff3e0", stroke = "#ef6c00" },
  },
}

local branches = { { "main", "main" }, { "develop", "develop" }, { "feature", "feature/*" }, { "hotfix", "hotfix" } }
local commits = {
  { "m1", "main", "commit", "a1" }, { "m2", "main", "commit", "b7" }, { "m3", "main", "commit", "c4" },
  { "v1", "main", "tag", "v1.0" }, { "v11", "main", "tag", "v1.1" },
  { "d1", "develop", "commit", "d2" }, { "d2", "develop", "commit", "e9" }, { "d3", "develop", "commit", "f3" },
  { "d4", "develop", "commit", "a8" },
  { "f1", "feature", "commit", "login 1" }, { "f2", "feature", "commit", "login 2" },
  { "g1", "feature", "commit", "search 1" },
  { "h1", "hotfix", "commit", "fix 1" },
}
local edges = {
  { "m1", "d1", "branch" }, { "d1", "f1", "branch" }, { "f1", "f2" }, { "f2", "d2", "merge" },
  { "d1", "g1", "branch" }, { "g1", "d3", "merge" }, { "d2", "d3" }, { "d3", "m2", "release" },
  { "m2", "v1", "tag" }, { "m2", "h1", "branch" }, { "h1", "m3", "merge" }, { "h1", "d4", "back-merge" },
  { "d3", "d4" }, { "m3", "v11", "tag" }, { "m1", "m2" }, { "m2", "m3" },
}

s:transaction(function()
  for _, b in ipairs(branches) do s:addNode{ id = b[1], acceptsChildren = true, class = "branch", data = { label = b[2] } } end
  for _, c in ipairs(commits) do s:addNode{ id = c[1], parentID = c[2], class = c[3], data = { label = c[4] } } end
  for _, e in ipairs(edges) do s:connect(e[1], e[2], { label = e[3] }) end
end)
s:layout{ direction = "LR" }
return s
