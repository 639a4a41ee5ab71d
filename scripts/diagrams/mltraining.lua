-- A machine-learning training pipeline: data preparation, training and evaluation as
-- groups, with a loop back to tuning when the model is not good enough, and deployment.
local flow = require "flow"

local s = flow.newStore{
  classes = {
    stage = { fill = "#fafafa", stroke = "#9e9e9e" },
    step = { fill = "#e8f5e9", stroke = "#2e7d32" },
    data = { shape = "cylinder", fill = "#eeeeff", stroke = "#555599" },
    check = { shape = "diamond", fill = "#fff8e1", stroke = "#b8860b" },
  },
}

local stages = { { "prep", "Data preparation" }, { "train", "Training" }, { "eval", "Evaluation" } }
local nodes = {
  { "raw", nil, "data", "Raw images" }, { "labels", nil, "data", "Labels" },
  { "clean", "prep", "step", "Clean" }, { "augment", "prep", "step", "Augment" },
  { "splitdata", "prep", "step", "Split" }, { "tune", "train", "step", "Pick hyper-\nparameters" },
  { "fit", "train", "step", "Train model" }, { "ckpt", "train", "data", "Checkpoints" },
  { "metrics", "eval", "step", "Compute metrics" }, { "good", "eval", "check", "Better than\nbaseline?" },
  { "registry", nil, "data", "Model registry" }, { "serve", nil, "step", "Canary deploy" },
}
local flows = {
  { "raw", "clean", "images" }, { "labels", "clean", "csv" }, { "clean", "augment" },
  { "augment", "splitdata" }, { "splitdata", "fit", "train set" }, { "splitdata", "metrics", "test set" },
  { "tune", "fit", "config" }, { "fit", "ckpt", "every epoch" }, { "ckpt", "metrics", "best" },
  { "metrics", "good" }, { "good", "tune", "no" }, { "good", "registry", "yes" },
  { "registry", "serve", "v-next" },
}

s:transaction(function()
  for _, st in ipairs(stages) do s:addNode{ id = st[1], acceptsChildren = true, class = "stage", data = { label = st[2] } } end
  for _, n in ipairs(nodes) do s:addNode{ id = n[1], parentID = n[2], class = n[3], data = { label = n[4] } } end
  for _, f in ipairs(flows) do s:connect(f[1], f[2], { label = f[3], pathType = "smoothStep" }) end
end)
s:layout{ direction = "TB" }
return s
