-- A CI/CD pipeline read left to right: stages as groups, jobs inside them, and what each
-- hand-off passes on. Stepped edges (smoothStep), as pipeline tools draw them.
local flow = require "flow"

local s = flow.newStore{
  classes = {
    stage = { fill = "#fafafa", stroke = "#9e9e9e" },
    job = { fill = "#e3f2fd", stroke = "#1565c0" },
    gate = { shape = "diamond", fill = "#fff8e1", stroke = "#b8860b" },
    env = { shape = "stadium", fill = "#e8f5e9", stroke = "#2e7d32" },
  },
}

local stages = { { "source", "Source" }, { "build", "Build" }, { "test", "Test" }, { "deploy", "Deploy" } }
local jobs = {
  { "push", "source", "job", "git push" }, { "pr", "source", "job", "Pull request" },
  { "compile", "build", "job", "Compile" }, { "image", "build", "job", "Docker image" },
  { "unit", "test", "job", "Unit tests" }, { "integ", "test", "job", "Integration" },
  { "lint", "test", "job", "Lint" }, { "scan", "test", "job", "Security scan" },
  { "approve", "deploy", "gate", "Approved?" }, { "staging", "deploy", "env", "Staging" },
  { "prod", "deploy", "env", "Production" },
}
local handoffs = {
  { "push", "compile", "commit" }, { "pr", "compile", "merge ref" },
  { "compile", "image", "binary" }, { "compile", "unit", "binary" }, { "compile", "lint" },
  { "image", "integ", "image tag" }, { "image", "scan", "image tag" },
  { "unit", "staging", "pass" }, { "integ", "staging", "pass" }, { "scan", "staging", "no CVEs" },
  { "lint", "staging" }, { "staging", "approve", "smoke ok" }, { "approve", "prod", "yes" },
}

s:transaction(function()
  for _, st in ipairs(stages) do
    s:addNode{ id = st[1], acceptsChildren = true, class = "stage", data = { label = st[2] } }
  end
  for _, j in ipairs(jobs) do s:addNode{ id = j[1], parentID = j[2], class = j[3], data = { label = j[4] } } end
  for _, h in ipairs(handoffs) do s:connect(h[1], h[2], { label = h[3], pathType = "smoothStep" }) end
end)
s:layout{ direction = "LR" }
return s
