-- Incident escalation: who is paged when, by severity, and how an incident climbs from the
-- on-call engineer to the incident commander and back down once it is mitigated.
local flow = require "flow"

local s = flow.newStore{
  classes = {
    trigger = { shape = "stadium", fill = "#fdecea", stroke = "#c62828" },
    role = { fill = "#ede7f6", stroke = "#5e35b1" },
    check = { shape = "diamond", fill = "#fff8e1", stroke = "#b8860b" },
    comms = { shape = "note", fill = "#fffde7", stroke = "#9e9d24" },
  },
}

local nodes = {
  { "alert", "trigger", "Alert" }, { "sev", "check", "Severity?" },
  { "ticket", "role", "Ticket queue" }, { "oncall", "role", "On-call engineer" },
  { "ack", "check", "Acked in 10 min?" }, { "secondary", "role", "Secondary on-call" },
  { "ic", "role", "Incident commander" }, { "status", "comms", "Status page" },
  { "exec", "role", "Exec on duty" }, { "mitigated", "check", "Mitigated?" },
  { "review", "comms", "Post-incident review" },
}
local flows = {
  { "alert", "sev" }, { "sev", "ticket", "SEV3" }, { "sev", "oncall", "SEV1-2" },
  { "oncall", "ack" }, { "ack", "secondary", "no" }, { "ack", "ic", "yes, SEV1" },
  { "secondary", "ic", "escalate" }, { "ic", "status", "update 30 min" },
  { "ic", "exec", "customer impact" }, { "ic", "mitigated" },
  { "mitigated", "ic", "no, next hour" }, { "mitigated", "review", "yes" },
  { "ticket", "oncall", "next business day" },
}

s:transaction(function()
  for _, n in ipairs(nodes) do s:addNode{ id = n[1], class = n[2], data = { label = n[3] } } end
  for _, f in ipairs(flows) do s:connect(f[1], f[2], { label = f[3] }) end
end)
s:layout{ direction = "TB" }
return s
