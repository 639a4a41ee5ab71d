-- An on-call runbook for a failing deploy: checks as decision diamonds, actions as boxes,
-- and the retry loops back to earlier steps (retry, wait and check again).
local flow = require "flow"

local s = flow.newStore{
  classes = {
    terminal = { shape = "stadium", fill = "#e8f5e9", stroke = "#2e7d32" },
    decision = { shape = "diamond", fill = "#fff8e1", stroke = "#b8860b" },
    step = { fill = "#e3f2fd", stroke = "#1565c0" },
    alert = { shape = "stadium", fill = "#fdecea", stroke = "#c62828" },
  },
}

local nodes = {
  { "alert", "terminal", "Deploy alert fires" },
  { "healthy", "decision", "Health checks\npassing?" },
  { "logs", "step", "Read pod logs" },
  { "config", "decision", "Config error?" },
  { "fixcfg", "step", "Fix config,\nredeploy" },
  { "deps", "decision", "Dependency down?" },
  { "waitdep", "step", "Wait 5 min" },
  { "tries", "decision", "Retried 3 times?" },
  { "rollback", "step", "Roll back release" },
  { "rolled", "decision", "Rollback ok?" },
  { "page", "alert", "Page team lead" },
  { "verify", "step", "Verify traffic" },
  { "postmortem", "step", "Write post-mortem" },
  { "done", "terminal", "Close incident" },
}
local flows = {
  { "alert", "healthy" },
  { "healthy", "verify", "yes" }, { "healthy", "logs", "no" },
  { "logs", "config" }, { "config", "fixcfg", "yes" }, { "config", "deps", "no" },
  { "fixcfg", "healthy", "retry" },
  { "deps", "waitdep", "yes" }, { "deps", "rollback", "no" },
  { "waitdep", "tries" }, { "tries", "healthy", "no, check again" }, { "tries", "rollback", "yes" },
  { "rollback", "rolled" }, { "rolled", "verify", "yes" }, { "rolled", "page", "no" },
  { "page", "postmortem" }, { "verify", "postmortem" }, { "postmortem", "done" },
}

s:transaction(function()
  for _, n in ipairs(nodes) do s:addNode{ id = n[1], class = n[2], data = { label = n[3] } } end
  for _, f in ipairs(flows) do s:connect(f[1], f[2], { label = f[3] }) end
end)
s:layout{ direction = "TB" }
return s
