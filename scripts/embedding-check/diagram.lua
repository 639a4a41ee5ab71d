-- Run by the embedding host (Sources/embedding-host/main.swift): `store` and `app` are the
-- host's, `flow` is preloaded.
store:addNode{id = "a", x = 0, y = 0, data = {label = app.caption(1)}}
store:addNode{id = "b", x = 200, y = 0, data = {label = app.caption(2)}}
store:addNode{id = "c", x = 400, y = 100, data = {label = app.caption(3)}}
store:connect("a", "b")
store:connect("b", "c", {label = "then"})
store:moveNode("c", 400, 0)
local ok, message = pcall(app.caption, "x")
app.log(ok and "no error" or message)
return store.nodeCount, store.edgeCount
