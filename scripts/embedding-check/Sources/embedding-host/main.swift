// A Swift program that embeds FlowScript: it runs a Lua script through LuaHost, gives the
// script functions of its own next to `flow`, receives the store's change events in Swift
// and draws the result with FlowRender. docs/embedding.md walks through it.
//
//     embedding-host diagram.lua out.svg
import FlowCore
import FlowLua
import FlowRender
import Glibc

/// The host's own functions, for Lua as the table `app`. Bound functions cannot capture
/// context, so they are static members (a top-level `let` in main.swift would be main-actor
/// state).
enum App {
    /// `app.caption(n)`: the text of step `n`.
    static let caption: LuaFunction = { L in
        luaGuarded(L) { args in
            let n = try args.integer(1)  // raises "bad argument #1 to 'caption' (...)"
            args.push("Step \(n)")
            return 1
        }
    }

    /// `app.log(message)`: a line on the host's log.
    static let log: LuaFunction = { L in
        luaGuarded(L) { args in
            print("log:", try args.string(1))
            return 0
        }
    }
}

func fail(_ message: String) -> Never {
    print("embedding-host: \(message)")
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else { fail("usage: embedding-host script.lua out.svg") }

let host = LuaHost()
host.errorOutput = { message in print("lua error: \(message)") }
host.setGlobal("app", functions: [LuaMethod("caption", App.caption), LuaMethod("log", App.log)])

// The store lives in Lua (the script uses the global `store`); Swift observes it.
guard host.run(string: "store = flow.newStore()") != nil, let store = host.store(global: "store") else {
    fail("no store")
}
var events: [String] = []
store.addBatchObserver { nodes, edges in
    for change in nodes {
        switch change {
        case .add(let node): events.append("node added \(node.id)")
        case .position(let id, let p): events.append("node moved \(id) to \(formatNumber(p.x)), \(formatNumber(p.y))")
        case .remove(let id): events.append("node removed \(id)")
        default: events.append("node changed \(change.id)")
        }
    }
    for change in edges {
        switch change {
        case .add(let edge): events.append("edge added \(edge.id) \(edge.sourceNodeID) -> \(edge.targetNodeID)")
        case .remove(let id): events.append("edge removed \(id)")
        default: events.append("edge changed \(change.id)")
        }
    }
}

guard let results = host.run(file: arguments[1]) else { fail("the script failed") }
print("script returned:", results.joined(separator: ", "))
for line in events { print(line) }

// What the check expects: three nodes, two edges, one move, from the script.
let expected = [
    "node added a", "node added b", "node added c", "edge added e1 a -> b", "edge added e2 b -> c",
    "node moved c to 400, 0",
]
guard events == expected else { fail("unexpected events") }
guard results == ["3", "2"], store.nodeCount == 3, store.edgeCount == 2 else { fail("unexpected store") }

do {
    try writeSVG(store, to: arguments[2])
} catch {
    fail("cannot write the picture: \(error)")
}
host.close()
print("wrote \(arguments[2])")
