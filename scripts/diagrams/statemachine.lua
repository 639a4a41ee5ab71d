-- A support ticket's life: 13 states and the events that move a ticket between them,
-- including the loops back (reopened, customer replied, escalated and handed back).
local flow = require "flow"

local s = flow.newStore{
  classes = {
    start = { shape = "circle", fill = "#1c1c1e", stroke = "#1c1c1e" },
    state = { fill = "#e8eaf6", stroke = "#3949ab" },
    final = { shape = "stadium", fill = "#e8f5e9", stroke = "#2e7d32", bold = true },
  },
}

local states = {
  { "new", "New" }, { "triage", "Triage" }, { "assigned", "Assigned" },
  { "progress", "In progress" }, { "waiting", "Waiting on\ncustomer" },
  { "escalated", "Escalated" }, { "engineering", "With engineering" },
  { "resolved", "Resolved" }, { "reopened", "Reopened" }, { "duplicate", "Duplicate" },
  { "spam", "Spam" }, { "onhold", "On hold" }, { "closed", "Closed" },
}
local transitions = {
  { "start", "new", "created" }, { "new", "triage", "picked up" },
  { "triage", "assigned", "owner set" }, { "triage", "duplicate", "same as" },
  { "triage", "spam", "junk" }, { "assigned", "progress", "start work" },
  { "progress", "waiting", "ask question" }, { "waiting", "progress", "customer replied" },
  { "progress", "escalated", "needs expert" }, { "escalated", "engineering", "bug filed" },
  { "engineering", "progress", "fix shipped" }, { "escalated", "progress", "advice given" },
  { "progress", "resolved", "solved" }, { "waiting", "resolved", "no reply 7d" },
  { "resolved", "reopened", "customer reopens" }, { "reopened", "assigned", "reassign" },
  { "resolved", "closed", "after 14d" }, { "duplicate", "closed", "merged" },
  { "spam", "closed", "deleted" }, { "progress", "onhold", "blocked by vendor" },
  { "onhold", "progress", "unblocked" },
}

s:transaction(function()
  s:addNode{ id = "start", width = 24, height = 24, class = "start", data = { label = "" } }
  for _, st in ipairs(states) do
    s:addNode{ id = st[1], class = st[1] == "closed" and "final" or "state", data = { label = st[2] } }
  end
  for _, t in ipairs(transitions) do s:connect(t[1], t[2], { label = t[3] }) end
end)
s:layout{ direction = "TB" }
return s
