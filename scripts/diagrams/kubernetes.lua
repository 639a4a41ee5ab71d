-- A Kubernetes deployment of a web app: the cluster's namespaces as groups, with the
-- ingress, services, deployments, pods, config and volumes, edges naming how each refers
-- to the next.
local flow = require "flow"

local s = flow.newStore{
  classes = {
    ns = { fill = "#f5f5f5", stroke = "#326ce5", dash = { 4, 3 } },
    k8s = { fill = "#e8eefc", stroke = "#326ce5" },
    pod = { shape = "hexagon", fill = "#ffffff", stroke = "#326ce5" },
    cfg = { shape = "note", fill = "#fffde7", stroke = "#9e9d24" },
    vol = { shape = "cylinder", fill = "#eeeeff", stroke = "#555599" },
  },
}

local namespaces = { { "ingressns", "ingress-nginx" }, { "app", "shop" }, { "mon", "monitoring" } }
local objects = {
  { "lb", nil, "k8s", "Cloud load balancer" },
  { "ingressctl", "ingressns", "k8s", "Ingress controller" },
  { "ingress", "app", "k8s", "Ingress shop" }, { "websvc", "app", "k8s", "Service web" },
  { "apisvc", "app", "k8s", "Service api" }, { "webdep", "app", "k8s", "Deployment web" },
  { "apidep", "app", "k8s", "Deployment api" }, { "webpod", "app", "pod", "web pods x3" },
  { "apipod", "app", "pod", "api pods x4" }, { "hpa", "app", "k8s", "HPA api" },
  { "config", "app", "cfg", "ConfigMap" }, { "secret", "app", "cfg", "Secret db" },
  { "pgsts", "app", "k8s", "StatefulSet pg" }, { "pgpod", "app", "pod", "pg-0" },
  { "pvc", "app", "vol", "PVC data" },
  { "prom", "mon", "k8s", "Prometheus" }, { "grafana", "mon", "k8s", "Grafana" },
}
local refs = {
  { "lb", "ingressctl", "443" }, { "ingressctl", "ingress", "watches" },
  { "ingress", "websvc", "/" }, { "ingress", "apisvc", "/api" },
  { "websvc", "webpod", "selects" }, { "apisvc", "apipod", "selects" },
  { "webdep", "webpod", "owns" }, { "apidep", "apipod", "owns" }, { "hpa", "apidep", "scales" },
  { "apipod", "config", "env" }, { "apipod", "secret", "mounts" }, { "apipod", "pgpod", "5432" },
  { "pgsts", "pgpod", "owns" }, { "pgpod", "pvc", "mounts" },
  { "prom", "apipod", "scrapes" }, { "grafana", "prom", "queries" },
}

s:transaction(function()
  for _, n in ipairs(namespaces) do s:addNode{ id = n[1], acceptsChildren = true, class = "ns", data = { label = n[2] } } end
  for _, o in ipairs(objects) do s:addNode{ id = o[1], parentID = o[2], class = o[3], data = { label = o[4] } } end
  for _, r in ipairs(refs) do s:connect(r[1], r[2], { label = r[3] }) end
end)
s:layout{ direction = "TB" }
return s
