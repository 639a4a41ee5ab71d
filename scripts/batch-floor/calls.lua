-- Instructions per item of store:addNodes / store:addEdges in columns or as a list of entry
-- tables (built in the collected part), into a store of as many nodes (issue #42).
-- run by host.c under callgrind with LUA_CPATH naming a release libflow.so copied as flow.so
-- (debug sections stripped); arguments: nodes|edges, columns|list, items, batches
local flow = require "flow"
local kind, form, N, R = arg[1], arg[2], tonumber(arg[3]), tonumber(arg[4])
math.randomseed(42)
local s = flow.newStore()
local ids, xs, ys = {}, {}, {}
for i = 1, N do ids[i], xs[i], ys[i] = "n" .. i, i * 10, i * 5 end
s:addNodes{id = ids, x = xs, y = ys, width = 150, height = 60}
for r = 1, R do
  local id, src, dst = {}, {}, {}
  for j = 1, N do
    id[j] = "b" .. r .. "_" .. j
    src[j], dst[j] = ids[math.random(N)], ids[math.random(N)]
  end
  collectgarbage()
  toggle()
  if kind == "nodes" then
    if form == "columns" then
      s:addNodes{id = id, x = xs, y = ys, width = 150, height = 60}
    else
      local list = {}
      for j = 1, N do list[j] = {id = id[j], x = xs[j], y = ys[j], width = 150, height = 60} end
      s:addNodes(list)
    end
  else
    if form == "columns" then
      s:addEdges{id = id, sourceNodeID = src, targetNodeID = dst}
    else
      local list = {}
      for j = 1, N do list[j] = {id = id[j], sourceNodeID = src[j], targetNodeID = dst[j]} end
      s:addEdges(list)
    end
  end
  toggle()
  s:undo(); s:configure{undo = false}; s:configure{undo = true}
end
