extension FlowStore {
    /// The document to save: persistent nodes only, edges whose two nodes are saved, parents
    /// that are not saved cleared, the current viewport. The store is not changed; every
    /// other field is kept as it is (D4).
    public func document() -> FlowDocument<Data> {
        var nodes: [Node] = []
        var saved = Set<String>()
        nodeTable.forEach { n in
            guard n.persistence == .persistent else { return }
            nodes.append(n)
            saved.insert(n.id)
        }
        for i in nodes.indices {
            nodes[i].isSelected = false
            nodes[i].isHovered = false
            nodes[i].isDropTarget = false
            if let p = nodes[i].parentID, !saved.contains(p) { nodes[i].parentID = nil }
        }
        var edges: [FlowEdge] = []
        edgeTable.forEach { e in
            guard saved.contains(e.sourceNodeID), saved.contains(e.targetNodeID) else { return }
            var e = e
            e.isSelected = false
            e.isDropTarget = false
            if let p = e.parentID, !saved.contains(p) { e.parentID = nil }
            edges.append(e)
        }
        let savedEdges = diagramLook.edgeRanks.isEmpty ? [] : Set(edges.map(\.id))
        return FlowDocument(
            nodes: nodes, edges: edges, viewport: viewport, classes: classStyles,
            look: diagramLook.keepingRankNodes({ saved.contains($0) }, edges: { savedEdges.contains($0) }))
    }

    /// The document as JSON text (sorted keys, `[x, y]` arrays, `"version": 1`): the text of
    /// `document().encoded()`, written straight from the store's tables (no copy of the
    /// nodes and edges, no set of saved ids).
    @_specialize(exported: true, where Data == JSONValue)
    public func export() throws(FlowError) -> String {
        do {
            return try exportText()
        } catch {
            throw error.reported(as: "export")
        }
    }

    private func exportText() throws(FlowError) -> String {
        var transient = 0
        nodeTable.forEachSlot { s in
            if nodeTable.withElement(slot: s, { $0.persistence != .persistent }) { transient += 1 }
        }
        func isSaved(_ id: String) -> Bool {
            guard let s = nodeTable.slot(of: id) else { return false }
            return transient == 0 || nodeTable.withElement(slot: s) { $0.persistence == .persistent }
        }
        func isSavedEdge(_ id: String) -> Bool {
            guard let s = edgeTable.slot(of: id) else { return false }
            return transient == 0 || edgeTable.withElement(slot: s) { isSaved($0.sourceNodeID) && isSaved($0.targetNodeID) }
        }
        var text = try DocumentTextWriter<Data>(
            classes: classStyles, look: diagramLook.keepingRankNodes(isSaved, edges: isSavedEdge), nodeCount: nodeTable.count - transient, edgeCount: edgeTable.count)
        // the tables' visitors cannot pass a typed error on: the first one stops the writing
        var failure: FlowError?
        edgeTable.forEach { e in
            // an edge's nodes are in the store, so only transient nodes can drop it
            guard failure == nil, transient == 0 || (isSaved(e.sourceNodeID) && isSaved(e.targetNodeID)) else { return }
            do throws(FlowError) {
                try text.edge(e, parentID: e.parentID.flatMap { isSaved($0) ? $0 : nil })
            } catch {
                failure = error
            }
        }
        text.beginNodes()
        nodeTable.forEach { n in
            guard failure == nil, n.persistence == .persistent else { return }
            do throws(FlowError) {
                try text.node(n, parentID: n.parentID.flatMap { transient == 0 || isSaved($0) ? $0 : nil })
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return try text.finish(viewport: viewport)
    }

    /// Replaces the whole store with a document given as JSON text. Text that is not JSON,
    /// or a document of the wrong shape, throws and leaves the store unchanged. A well-formed
    /// document is repaired leniently (D21) and the returned warnings name every repair.
    /// Clears the history; emits no change events.
    @discardableResult
    public func load(json text: String) throws(FlowError) -> [String] {
        let doc = try FlowDocument<Data>.decode(text, operation: "load")
        return try load(doc)
    }

    /// Replaces the whole store with `document`, repairing it leniently (D21): duplicate
    /// ids are dropped (the first wins), invalid node parents cleared (a parent cycle is
    /// broken at its first node in document order), dangling edges and edges naming
    /// undeclared or wrongly typed handles dropped, edge parents that are missing or not
    /// containers cleared. Returns a warning for each repair. Invalid field values (NaN,
    /// negative sizes) throw and change nothing. Clears the history; no events.
    @discardableResult
    public func load(_ document: FlowDocument<Data>) throws(FlowError) -> [String] {
        guard log.depth == 0 else { throw .invalidState("load", "cannot load inside an operation or transaction") }
        var warnings: [String] = []
        for name in document.classes.keys.sorted() {
            try FlowClass.validateName(name, "load", "classes")
            try document.classes[name]!.style.validate("load", "classes.\(name)")  // invariant: a key
        }
        if let size = document.look.fontSize, !(size > 0 && size <= FlowLimits.fontSize) {
            throw .invalidDocument("load", "diagram.fontSize must be a positive number up to \(formatNumber(FlowLimits.fontSize))")
        }
        for (key, v) in [("nodeSpacing", document.look.nodeSpacing), ("layerSpacing", document.look.layerSpacing)] {
            if let v, !DiagramLook.isSpacing(v) { throw .invalidDocument("load", "diagram.\(key) must be a number from 0 to 1e6") }
        }
        let (nodes, index) = try loadedNodes(document.nodes, &warnings)
        let edges = try loadedEdges(document.edges, nodes, index, &warnings)
        let edgeIndex = document.look.edgeRanks.isEmpty ? [] : Set(edges.map(\.id))
        let look = document.look.keepingRankNodes({ index[$0] != nil }, edges: { edgeIndex.contains($0) })
        if look.ranks != document.look.ranks {
            let unknown = Set(document.look.ranks.flatMap(\.nodes).filter { index[$0] == nil }).sorted()
            warnings.append("diagram.ranks: dropped ids of no node: \(unknown.map { "'\($0)'" }.joined(separator: ", "))")
        }
        if look.edgeRanks != document.look.edgeRanks {
            let unknown = Set(document.look.edgeRanks.map(\.edge).filter { !edgeIndex.contains($0) }).sorted()
            warnings.append("diagram.edgeRanks: dropped ids of no edge: \(unknown.map { "'\($0)'" }.joined(separator: ", "))")
        }
        let v = document.viewport
        guard v.offset.x.isFinite, v.offset.y.isFinite, v.zoom.isFinite, v.zoom > 0 else {
            throw .invalidDocument("load", "viewport must have a finite offset and a positive zoom")
        }
        if let l = limits, let error = violation(of: l, loading: nodes, edges) { throw error }
        let zoom = configuration.clampZoom(v.zoom)  // as the calls clamp it (D12)
        let viewport = Viewport(offset: v.offset, zoom: zoom)
        if let r = actionRecorder, let error = r.deliver(FlowBatch(name: "Load", actions: [
            .load(FlowDocument(nodes: nodes, edges: edges, viewport: viewport, classes: document.classes, look: look))
        ])) {
            throw error
        }
        if memoryBudget != nil, let error = takeFromBudget(Self.heldBytes(nodes, edges) - budgetBytes) {
            throw error.reported(as: "load")
        }
        replaceAll(nodes: nodes, edges: edges, viewport: viewport, classes: document.classes)
        diagramLook = look
        return warnings
    }

    /// The nodes of a document `load` keeps, repaired (the first of each id wins; parents
    /// that are missing, not containers or in a cycle are cleared), and each kept id's index.
    private func loadedNodes(_ documentNodes: [Node], _ warnings: inout [String]) throws(FlowError) -> ([Node], [String: Int]) {
        // Nodes: first of each id wins.
        var nodes: [Node] = []
        var index: [String: Int] = [:]
        for n in documentNodes {
            if index[n.id] != nil {
                warnings.append("dropped duplicate node '\(n.id)'")
                continue
            }
            try validateFields(n, "load")
            if n.id.isEmpty { throw .invalidDocument("load", "a node has an empty id") }
            index[n.id] = nodes.count
            nodes.append(withoutFlags(n))
        }
        // Parents, in document order, against the links repaired so far: a cycle is broken
        // at its first node, found for all cycles at once (a walk up per node would be
        // quadratic in a deep chain).
        let cycleBreaks = Self.firstNodesOfCycles(
            nodes.map { n in n.parentID.flatMap { p in p == n.id ? nil : index[p] } ?? -1 })
        for i in nodes.indices {
            guard let p = nodes[i].parentID else { continue }
            let id = nodes[i].id
            var problem: String?
            if p == id {
                problem = "is its own parent"
            } else if let pi = index[p] {
                if !nodes[pi].acceptsChildren {
                    problem = "has parent '\(p)', which does not accept children"
                } else if cycleBreaks[i] {
                    problem = "has parent '\(p)' in a cycle; the link was broken here"
                }
            } else {
                problem = "has missing parent '\(p)'"
            }
            if let problem {
                warnings.append("cleared the parent of node '\(id)': it \(problem)")
                nodes[i].parentID = nil
            }
        }
        return (nodes, index)
    }

    /// The edges of a document `load` keeps, repaired: duplicates, dangling edges and edges
    /// naming handles their nodes do not declare are dropped, invalid parents cleared.
    private func loadedEdges(
        _ documentEdges: [FlowEdge], _ nodes: [Node], _ index: [String: Int], _ warnings: inout [String]
    ) throws(FlowError) -> [FlowEdge] {
        var edges: [FlowEdge] = []
        var edgeIDs = Set<String>()
        for var e in documentEdges {
            if e.id.isEmpty { throw .invalidDocument("load", "an edge has an empty id") }
            if e.look != nil { try validateLook(e, "load") }
            try Self.validatePoints(e.points, "load", edge: e.id)
            if edgeIDs.contains(e.id) {
                warnings.append("dropped duplicate edge '\(e.id)'")
                continue
            }
            guard let si = index[e.sourceNodeID] else {
                warnings.append("dropped edge '\(e.id)': source node '\(e.sourceNodeID)' does not exist")
                continue
            }
            guard let ti = index[e.targetNodeID] else {
                warnings.append("dropped edge '\(e.id)': target node '\(e.targetNodeID)' does not exist")
                continue
            }
            if let h = e.sourceHandleID, !HandleDeclaration.accepts(h, as: .source, in: nodes[si].handles) {
                warnings.append("dropped edge '\(e.id)': node '\(e.sourceNodeID)' has no source handle '\(h)'")
                continue
            }
            if let h = e.targetHandleID, !HandleDeclaration.accepts(h, as: .target, in: nodes[ti].handles) {
                warnings.append("dropped edge '\(e.id)': node '\(e.targetNodeID)' has no target handle '\(h)'")
                continue
            }
            if let p = e.parentID {
                if let pi = index[p], nodes[pi].acceptsChildren {
                } else {
                    warnings.append("cleared the parent of edge '\(e.id)': node '\(p)' is missing or does not accept children")
                    e.parentID = nil
                }
            }
            edgeIDs.insert(e.id)
            e.isSelected = false
            e.isDropTarget = false
            edges.append(e)
        }
        return edges
    }

    /// For links `parent` (each node's parent index, or -1): whether the node is the first,
    /// in document order, of a cycle of links. Each cycle holds such a node, and until that
    /// node is reached in document order the whole cycle is intact, so it is the node `load`
    /// breaks the cycle at (unless its link has a problem of its own). O(n).
    static func firstNodesOfCycles(_ parent: [Int]) -> [Bool] {
        var state = [UInt8](repeating: 0, count: parent.count)  // 0 new, 1 on this walk, 2 done
        var first = [Bool](repeating: false, count: parent.count)
        for start in parent.indices where state[start] == 0 {
            var v = start
            while v >= 0 && state[v] == 0 {
                state[v] = 1
                v = parent[v]
            }
            if v >= 0 && state[v] == 1 {  // the walk closed a cycle through v
                var lowest = v, u = parent[v]
                while u != v {
                    lowest = min(lowest, u)
                    u = parent[u]
                }
                first[lowest] = true
            }
            var w = start
            while w >= 0 && state[w] == 1 {
                state[w] = 2
                w = parent[w]
            }
        }
        return first
    }

    private func withoutFlags(_ n: Node) -> Node {
        var n = n
        n.isSelected = false
        n.isHovered = false
        n.isDropTarget = false
        return n
    }

    /// Swaps in new content: every index rebuilt, interaction state and history cleared.
    private func replaceAll(nodes: [Node], edges: [FlowEdge], viewport v: Viewport, classes: [String: FlowClass]) {
        interaction.resetInteractionState()
        if let freed = onNodeSlotFreed { nodeTable.forEachSlot(freed) }
        if let freed = onEdgeSlotFreed { edgeTable.forEachSlot(freed) }
        nodeTable.removeAll()
        edgeTable.removeAll()
        parkedLinks = [:]
        spatial.removeAll()
        dirtyNodes = []
        edgeSpatial.removeAll()
        staleEdges = []
        bentEdgeCount = 0
        orthogonalEdgeCount = 0
        routing.reset()
        customHandleReach = 0
        nodeIDs.reset()
        edgeIDs.reset()
        marks.selectedNodes = []
        marks.selectedEdges = []
        focusedTarget = nil
        hoveredNodeID = nil
        dropTargetNodeID = nil
        dropTargetEdgeID = nil
        marks.animatedEdges = []
        log.pendingNodeChanges = []
        log.pendingEdgeChanges = []
        log.replacedNodes = [:]
        log.replacedEdges = [:]
        log.interactiveUpdates = false
        viewport = v
        classStyles = classes
        // the bulk path of the batch adds: room made once, then each item inserted
        reserveBatch(nodes: nodes.count, edges: edges.count)
        for n in nodes { pInsertNode(n, emit: false) }
        for e in edges { pInsertEdge(e, emit: false) }
        log.journal.removeAll()
        lastLayoutNodeIDs = nil
        clearHistory()
        checkInvariantsInDebug()
    }
}
