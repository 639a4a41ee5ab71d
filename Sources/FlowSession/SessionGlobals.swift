import CLua
import CLuaShims
import FlowCore
import FlowLua

// flowrepl's session: the global `store`, the shortcuts `save` and `open`, and id
// completion.

/// The globals of a REPL session.
public enum SessionGlobals {
    /// Run by flowrepl after the libraries, `flow` and `help` exist and before LUA_INIT,
    /// `-e`, `-l`, the script and the prompt: the global `store` (a fresh store named "store",
    /// journaling from the start, so `store:journal()` is the session's history) and
    /// the shortcuts `save(path, opts)` (saves `store`) and `open(path)` (makes the opened
    /// document the global `store`, named "store" too; returns `store, warnings` or
    /// `nil, msg`); not in a sandbox, which has no files. Documented in docs/api/api.lua (section "flowrepl").
    public static func setUp(_ host: LuaHost) {
        _ = host.run(string: sessionCode, chunkName: "=(session)")
    }

    /// `save` and `open` raise their errors at the caller's line, as the functions they
    /// stand for do (`stdin:1: save: unknown file extension ...`), not at a line of this
    /// chunk.
    static let sessionCode = """
        store = flow.newStore()
        store.name = "store"
        store.journaling = true  -- store:journal() holds the session's every change
        local function reraise(ok, ...)  -- called by save and open: level 3 is their caller
          if ok then return ... end
          local e = ...
          if type(e) == "string" then e = e:gsub("^%(session%):%d+: ", "") end
          error(e, 3)
        end
        if not flow.open then return end  -- a sandbox: no files
        function save(path, opts)
          local r = table.pack(reraise(pcall(function() return store:save(path, opts) end)))
          return table.unpack(r, 1, r.n)
        end
        function open(path)
          local s, w = reraise(pcall(function() return flow.open(path) end))
          if not s then return nil, w end
          s.name = "store"
          s.journaling = true
          store = s
          return s, w
        end
        """

    /// Methods whose string argument `k` is a node id (argument numbers, not counting self).
    static let nodeIDArguments: [String: Set<Int>] = [
        "node": [1], "removeNode": [1], "moveNode": [1], "updateNode": [1], "updateNodeSize": [1],
        "setParent": [1, 2], "setEdgeParent": [2], "ungroupNode": [1], "childNodes": [1], "childEdges": [1],
        "descendantNodeIDs": [1], "edgesForNode": [1], "selectNode": [1], "deselectNode": [1],
        "focusNode": [1], "setHoveredNode": [1], "beginConnection": [1], "endConnection": [1],
        "setDropTargetNode": [1], "connect": [1, 2],
    ]

    /// Methods whose string argument `k` is an edge id.
    static let edgeIDArguments: [String: Set<Int>] = [
        "edge": [1], "removeEdge": [1], "updateEdge": [1], "edgeGeometry": [1], "setEdgeAnimated": [1],
        "setEdgeParent": [1], "selectEdge": [1], "deselectEdge": [1], "focusEdge": [1],
        "setDropTargetEdge": [1],
    ]

    /// `LuaCompletion.idCompletion`'s default: node ids for `store:node("`, edge ids for
    /// edge methods.
    public static func completeID(_ r: IDCompletionRequest) -> [String] {
        guard r.receiver != 0, let box = storeClass.test(r.L, r.receiver), !box.isClosed else { return [] }
        if nodeIDArguments[r.function]?.contains(r.argument) == true { return box.store.nodes.map(\.id) }
        if edgeIDArguments[r.function]?.contains(r.argument) == true { return box.store.edges.map(\.id) }
        return []
    }
}
