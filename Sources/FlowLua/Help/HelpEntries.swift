// The reference entries printed by `help` in flowrepl: the single docs source.
//
// One entry per documented Lua name. Names are written as scripts use them: module fields
// `flow.newStore`, methods `Store:addNode`, fields `Store.nodeCount`, types `Store`, REPL
// globals `help`. The first line of the text is the signature; the rest is the description.
// The store binding adds its entries here (keep them in lua-api.md order).

extension FlowHelp {
    static let entries: [(name: String, text: String)] = [
        ("flow", """
            flow  (module)
            The FlowScript module: `local flow = require "flow"`. flowrepl preloads it as the
            global `flow`. Fields: flow.version, flow.null, flow.type.
            """),
        ("flow.version", """
            flow.version  -> string
            The semantic version of the package, e.g. "0.1.0".
            """),
        ("flow.null", """
            flow.null  (value)
            A unique value that stands for JSON null inside tables ({1, flow.null, 3} is a
            3-element array) and clears an optional field in a patch. tostring gives
            "flow.null"; type() is "userdata"; flow.type(flow.null) is nil.
            """),
        ("flow.type", """
            flow.type(x)  -> string or nil
            The flow type of x ("Store", "Node", "Edge", …) when x is a flow object, else
            nil. Like io.type.
            """),
        ("help", """
            help([x])
            help() lists the topics. help("name") prints the entry for a name ("flow.type",
            "Store:addNode", or just "addNode"). help(x) prints the entry for a function,
            module or object (a Store prints the Store entry).
            """),
    ]
}
