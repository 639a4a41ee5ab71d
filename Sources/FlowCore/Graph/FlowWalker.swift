/// Walks a diagram step by step, as a state machine runs: the walker stands on one node
/// (`current`) and moves along an outgoing edge (`next`), back along the last edge it took
/// (`back`), or to where it started (`reset`).
///
/// A guard (`edgeGuard`) may close edges: the ways on (`options()`) are the current node's
/// outgoing edges, in store order, that the guard lets through. Whatever the guard needs
/// (the walk's context) it captures; an error it throws propagates out of the call that
/// asked it, with the walker unchanged.
///
/// With `showsStep` (the default) the walker shows where it stands on its store: the current
/// node is selected alone and focused, and the ways on are the store's animated edges (the
/// set is replaced). These go through the store's public calls, so they emit the usual
/// selection events and record no undo step. `onMove` hears every move, after the walker's
/// state changed and before the store shows it.
///
/// The store may change under a walker. The walker keeps ids: when its current node is
/// gone, `options` and `next` throw (`invalidState`) while `back` and `reset` still lead
/// out, to a node that exists; edges of the history may be gone.
public final class FlowWalker<Data: FlowNodeData> {
    /// One step taken: along `edge` from node `from` to node `to`.
    public struct Step: Equatable, Sendable {
        public let from: String
        public let edge: String
        public let to: String
    }

    /// A move, as `onMove` hears it.
    public enum Move: Equatable, Sendable {
        /// The walker was made, standing on this node.
        case start(String)
        /// `next` took a step.
        case next(Step)
        /// `back` undid a step (the one given: the walker is at its `from` now).
        case back(Step)
        /// `reset` went from the first node to the start node.
        case reset(from: String, to: String)
    }

    public let store: FlowStore<Data>
    /// The node the walk started on.
    public let start: String
    /// The node the walker stands on.
    public private(set) var current: String
    /// The steps taken since the start (or the last reset), oldest first.
    public private(set) var steps: [Step] = []
    /// Whether an edge may be taken (nil: every edge). Called for each outgoing edge of a
    /// node whenever the walker needs that node's ways on.
    public var edgeGuard: ((FlowEdge) throws -> Bool)?
    /// Hears every move.
    public var onMove: ((Move) -> Void)?
    /// Whether moves select the current node and animate its ways on.
    public let showsStep: Bool
    /// Set while a call runs: a guard or an event handler that calls the walker again gets
    /// an error instead of a walker changing under the call.
    private var isBusy = false

    /// A walker standing on `start`. Calls `onMove(.start)`, then shows the step.
    public init(
        store: FlowStore<Data>, start: String, edgeGuard: ((FlowEdge) throws -> Bool)? = nil,
        showsStep: Bool = true, onMove: ((Move) -> Void)? = nil
    ) throws {
        _ = try store.requireNode(start, "walk")
        self.store = store
        self.start = start
        self.current = start
        self.edgeGuard = edgeGuard
        self.showsStep = showsStep
        self.onMove = onMove
        try busy("walk") { () throws -> Void in
            let ways = try showsStep ? ways(from: start, "walk").open : []
            onMove?(.start(start))
            try show(ways)
        }
    }

    /// Whether there is a step to go back.
    public var canGoBack: Bool { !steps.isEmpty }

    /// The nodes visited since the start (or the last reset), the start first and
    /// `current` last.
    public var visitedNodeIDs: [String] { [steps.first?.from ?? current] + steps.map(\.to) }

    /// The ways on: the current node's outgoing edges that the guard lets through, in
    /// store order. Throws when the current node is gone, and what the guard throws.
    public func options() throws -> [FlowEdge] {
        try busy("options") { () throws -> [FlowEdge] in try ways(from: current, "options").open }
    }

    /// Takes a step along the way `choice` names: an edge id, else a source handle id,
    /// else an edge label, among the ways on (nil: the one way on, when there is exactly
    /// one). Throws, naming the ways on, when the choice names none of them, names several
    /// (same handle or label), is closed by the guard, or is nil with zero or several ways.
    @discardableResult
    public func next(_ choice: String? = nil) throws -> Step {
        try busy("next") { () throws -> Step in
            let (open, closed) = try ways(from: current, "next")
            let edge = try choose(choice, open, closed)
            let step = Step(from: current, edge: edge.id, to: edge.targetNodeID)
            let ahead = try showsStep ? ways(from: step.to, "next").open : []
            steps.append(step)
            current = step.to
            onMove?(.next(step))
            try show(ahead)
            return step
        }
    }

    /// Goes back along the last step taken; returns it. Throws when there is none, or when
    /// the node it leads back to is gone.
    @discardableResult
    public func back() throws -> Step {
        try busy("back") { () throws -> Step in
            guard let step = steps.last else {
                throw FlowError.invalidState("back", "no step to go back (the walker is at its start)")
            }
            let ahead = try showsStep ? ways(from: step.from, "back").open : []
            steps.removeLast()
            current = step.from
            onMove?(.back(step))
            try show(ahead)
            return step
        }
    }

    /// Goes back to the start node and forgets the steps. Throws when the start node is
    /// gone.
    public func reset() throws {
        try busy("reset") { () throws -> Void in
            let ahead = try showsStep ? ways(from: start, "reset").open : []
            let from = current
            steps.removeAll()
            current = start
            onMove?(.reset(from: from, to: start))
            try show(ahead)
        }
    }

    // MARK: Helpers

    private func busy<R>(_ op: String, _ body: () throws -> R) throws -> R {
        guard !isBusy else { throw FlowError.invalidState(op, "the walker is busy (called from its guard or an event)") }
        isBusy = true
        defer { isBusy = false }
        return try body()
    }

    /// The outgoing edges of `node` in store order, split into those the guard lets
    /// through and those it closes.
    private func ways(from node: String, _ op: String) throws -> (open: [FlowEdge], closed: [FlowEdge]) {
        guard let edges = try? store.edgesForNode(node) else {
            throw FlowError.invalidState(op, "node '\(node)' no longer exists")
        }
        var open: [FlowEdge] = [], closed: [FlowEdge] = []
        for e in edges where e.sourceNodeID == node {
            if try edgeGuard?(e) ?? true { open.append(e) } else { closed.append(e) }
        }
        return (open, closed)
    }

    /// The way `choice` names among `open` (see `next`).
    private func choose(_ choice: String?, _ open: [FlowEdge], _ closed: [FlowEdge]) throws(FlowError) -> FlowEdge {
        let here = "'\(current)'"
        func fail(_ message: String) -> FlowError { .invalidState("next", message) }
        guard let choice else {
            if open.count == 1 { return open[0] }
            if open.isEmpty {
                let why = closed.isEmpty ? "" : " (the guard closes \(closed.map(\.id).joined(separator: ", ")))"
                throw fail("no way on from \(here)\(why)")
            }
            throw fail("\(open.count) ways on from \(here), choose one: \(FlowWalker.describe(open))")
        }
        let tiers: [(FlowEdge) -> Bool] = [
            { $0.id == choice }, { $0.sourceHandleID == choice }, { $0.label == choice },
        ]
        for matches in tiers {
            let found = open.filter(matches)
            if found.count == 1 { return found[0] }
            if found.count > 1 {
                throw fail("'\(choice)' names \(found.count) ways on from \(here): \(FlowWalker.describe(found)); pass an edge id")
            }
            if closed.contains(where: matches) {
                throw fail("the guard closes '\(choice)' from \(here); \(FlowWalker.waysOn(open))")
            }
        }
        throw fail("no way '\(choice)' from \(here); \(FlowWalker.waysOn(open))")
    }

    private static func waysOn(_ open: [FlowEdge]) -> String {
        open.isEmpty ? "there is no way on" : "the ways on: \(describe(open))"
    }

    /// `e2 (handle yes, label "yes") -> stock, …`: what a choice can name.
    static func describe(_ edges: [FlowEdge]) -> String {
        edges.map { e in
            var names: [String] = []
            if let h = e.sourceHandleID { names.append("handle \(h)") }
            if let l = e.label { names.append("label \"\(l)\"") }
            return "\(e.id)\(names.isEmpty ? "" : " (\(names.joined(separator: ", ")))") -> \(e.targetNodeID)"
        }.joined(separator: ", ")
    }

    /// Shows the current node and its ways on in the store.
    private func show(_ ways: [FlowEdge]) throws {
        guard showsStep else { return }
        try store.selectNode(current)
        try store.setAnimatedEdges(ways.map(\.id))
    }
}

extension FlowStore {
    /// A walker standing on node `start` (see `FlowWalker`).
    public func walk(
        from start: String, edgeGuard: ((FlowEdge) throws -> Bool)? = nil, showsStep: Bool = true,
        onMove: ((FlowWalker<Data>.Move) -> Void)? = nil
    ) throws -> FlowWalker<Data> {
        try FlowWalker(store: self, start: start, edgeGuard: edgeGuard, showsStep: showsStep, onMove: onMove)
    }
}
