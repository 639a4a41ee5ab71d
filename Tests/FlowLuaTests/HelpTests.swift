import Testing

@testable import FlowLua
@testable import FlowSession

/// The generated help entries (HelpEntries.swift, from docs/api/api.lua) as `help` uses them.
@Suite struct HelpTests {
    static let names = FlowHelp.entries.map(\.name)

    @Test func namesAreUnique() {
        #expect(Set(Self.names).count == Self.names.count)
    }

    /// Each text starts with a signature naming the entry as scripts write it:
    /// `store:addNode(…`, `store.nodeCount  -> …`, `flow.type(…`, `Point  (…`.
    @Test func firstLineIsTheSignature() {
        for (name, text) in FlowHelp.entries {
            let first = text.split(separator: "\n", omittingEmptySubsequences: false)[0]
            var usage = name
            for owner in ["Store", "Node", "Edge", "Walker", "Observer", "Workspace"] where name.hasPrefix(owner + ":") || name.hasPrefix(owner + ".") {
                usage = owner.lowercased() + name.dropFirst(owner.count)
            }
            #expect(first.hasPrefix(usage), "\(name): \(first)")
            #expect(text.split(separator: "\n").count >= 2, "\(name) has no description")
        }
    }

    @Test func everyNameFindsItsOwnEntry() {
        for name in Self.names {
            #expect(FlowHelp.lookup(name) == [name])
        }
    }

    @Test func shortNamesFindTheMember() {
        #expect(FlowHelp.lookup("addNode") == ["Store:addNode"])
        #expect(FlowHelp.lookup("edgeGeometry") == ["Store:edgeGeometry"])
        #expect(FlowHelp.lookup("connectionDraft") == ["Store.connectionDraft"])
        #expect(FlowHelp.lookup("type") == ["flow.type"])
        #expect(FlowHelp.lookup("geometry") == ["Edge:geometry"])
        #expect(Set(FlowHelp.lookup("update")) == ["Node:update", "Edge:update"])
    }

    /// The contract's module, the three bound types and the REPL's `help` are all there.
    @Test func coreEntries() {
        for name in ["flow", "flow.newStore", "flow.open", "flow.decode", "flow.version", "flow.type",
                     "flow.null", "Store", "Node", "Edge", "help"] {
            #expect(FlowHelp.entry(name) != nil, "\(name)")
        }
        #expect(FlowHelp.entry("flow")?.hasPrefix("flow  (module)\n") == true)
        #expect(FlowHelp.entry("flow.type")?.hasPrefix("flow.type(x)  -> string or nil\n") == true)
        #expect(FlowHelp.entry("flow.null")?.hasPrefix("flow.null  (value)\n") == true)
        #expect(FlowHelp.entry("help")?.hasPrefix("help([x])\n") == true)
        #expect(FlowHelp.entry("Store:fitToContent")?.hasPrefix(
            "store:fitToContent(width, height [, padding [, animation]])  -> boolean\n") == true)
    }

    @Test func helpPrintsTheEntry() {
        let t = TestHost()
        FlowHelp.install(t.host.L)
        t.eval("help('flow.version')")
        #expect(t.out == "flow.version  -> string\nThe semantic version of the package, e.g. \"0.1.0\".\n")
        t.out = ""
        t.eval("help('tick')")
        #expect(t.out.hasPrefix("store:tick(dt)  -> boolean\n"))
    }

    /// flowrepl's shortcuts are documented (not planned) and show what they stand for.
    @Test func shortcutsShowTheEntriesTheyStandFor() throws {
        for name in ["store", "save", "open"] {
            let text = try #require(FlowHelp.entry(name))
            #expect(!text.contains("lanned"), "\(name)")
        }
        let save = try #require(FlowHelp.fullEntry("save"))
        #expect(save.hasPrefix(FlowHelp.entry("save")! + "\n\nstore:save(path [, opts])"))
        #expect(FlowHelp.fullEntry("open")?.contains("\n\nflow.open(path [, opts])") == true)
        #expect(FlowHelp.fullEntry("Store:save") == FlowHelp.entry("Store:save"))
        #expect(FlowHelp.fullEntry("help") == FlowHelp.entry("help"))

        let t = TestHost()
        FlowHelp.install(t.host.L)
        t.eval("help('save')")
        #expect(t.out == save + "\n")
        t.out = ""
        // by value: the session's functions (defined here as flowrepl defines them)
        t.eval("function save() end help(save)")
        #expect(t.out == save + "\n")
        t.out = ""
        t.eval("help(nil)")
        #expect(t.out == "no help for this nil value\n")
    }
}
