-- A nightly ETL job, left to right: sources, extract, transform and load steps grouped by
-- phase, and the warehouse and reports at the end; edges name what flows.
local flow = require "flow"

local s = flow.newStore{
  classes = {
    phase = { fill = "#fafafa", stroke = "#9e9e9e" },
    src = { shape = "cylinder", fill = "#eeeeff", stroke = "#555599" },
    step = { fill = "#e0f2f1", stroke = "#00695c" },
    out = { shape = "document", fill = "#fff3e0", stroke = "#ef6c00" },
  },
}

local phases = { { "extract", "Extract" }, { "transform", "Transform" }, { "load", "Load" } }
local nodes = {
  { "crm", nil, "src", "CRM (Postgres)" }, { "shop", nil, "src", "Shop (MySQL)" },
  { "clicks", nil, "src", "Clickstream (S3)" },
  { "pull1", "extract", "step", "Dump CRM" }, { "pull2", "extract", "step", "Dump orders" },
  { "pull3", "extract", "step", "List new files" },
  { "clean", "transform", "step", "Clean & dedupe" }, { "join", "transform", "step", "Join customers" },
  { "sessionize", "transform", "step", "Sessionize" }, { "agg", "transform", "step", "Daily aggregates" },
  { "stage", "load", "step", "Stage tables" }, { "merge", "load", "step", "Merge into facts" },
  { "dw", nil, "src", "Warehouse" }, { "report", nil, "out", "Sales report" },
  { "dash", nil, "out", "Dashboards" },
}
local flows = {
  { "crm", "pull1", "customers" }, { "shop", "pull2", "orders" }, { "clicks", "pull3", "events" },
  { "pull1", "clean", "csv" }, { "pull2", "clean", "csv" }, { "pull3", "sessionize", "json" },
  { "clean", "join" }, { "join", "agg", "rows" }, { "sessionize", "agg", "sessions" },
  { "agg", "stage", "parquet" }, { "join", "stage", "dims" }, { "stage", "merge" },
  { "merge", "dw", "upsert" }, { "dw", "report", "SQL" }, { "dw", "dash", "SQL" },
}

s:transaction(function()
  for _, p in ipairs(phases) do s:addNode{ id = p[1], acceptsChildren = true, class = "phase", data = { label = p[2] } } end
  for _, n in ipairs(nodes) do s:addNode{ id = n[1], parentID = n[2], class = n[3], data = { label = n[4] } } end
  for _, f in ipairs(flows) do s:connect(f[1], f[2], { label = f[3] }) end
end)
s:layout{ direction = "LR" }
return s
