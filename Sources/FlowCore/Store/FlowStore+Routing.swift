// Live routing of orthogonal edges through `edgeRouter` (docs/routing.md).
//
// At the end of each top-level operation (`finishTopLevel`, a transaction counting as one)
// the store reads from the operation's journal what it changed: the frame every touched
// node had before the operation and has after it, the edges it added, removed or changed,
// and the edges attached to nodes whose frame or handles changed. The router turns that
// into new routes, which are written as the edges' points through `pReplaceEdge`: part of
// the operation's undo step, and reported in its edge batch (an `add` or `replace` event
// of the same operation is updated rather than followed by another). Undo and redo tell
// the router what they changed and keep the points they restore.

extension FlowStore: RoutingScene {
    public func forEachNodeFrame(_ body: (Rect) -> Void) {
        nodeTable.forEach { body($0.frame) }
    }

    public func forEachOrthogonalEdge(near rect: Rect, _ body: (_ id: String, _ points: [Point]) -> Void) {
        refreshEdgeIndex()
        for s in edgeSpatial.candidates(in: rect) {
            guard let b = edgeTable.extra(s).indexedBounds, b.intersects(rect) else { continue }
            edgeTable.withElement(slot: s) { e in if e.pathType == .orthogonal { body(e.id, e.points) } }
        }
    }

    public func routingEdge(_ id: String) -> RoutingEdge? {
        guard let e = edgeTable[id], e.pathType == .orthogonal,
            let s = nodeTable[e.sourceNodeID], let t = nodeTable[e.targetNodeID]
        else { return nil }
        let auto = configuration.autoHandles
        guard
            let a = EdgeEnds.handleEnd(
                e.sourceHandleID, handles: s.handles, frame: s.frame, otherFrame: t.frame, isSource: true,
                autoHandles: auto),
            let b = EdgeEnds.handleEnd(
                e.targetHandleID, handles: t.handles, frame: t.frame, otherFrame: s.frame, isSource: false,
                autoHandles: auto)
        else { return nil }
        let source = EdgeEnds.routingEnd(a, frame: s.frame, otherFrame: t.frame, isSource: true)
        let target = EdgeEnds.routingEnd(b, frame: t.frame, otherFrame: s.frame, isSource: false)
        return RoutingEdge(
            id: id, source: RoutingEnd(frame: s.frame, side: source.position, point: source.point),
            target: RoutingEnd(frame: t.frame, side: target.position, point: target.point))
    }

    public var orthogonalEdgeIDs: [String] {
        var ids: [String] = []
        ids.reserveCapacity(orthogonalEdgeCount)
        edgeTable.forEach { if $0.pathType == .orthogonal { ids.append($0.id) } }
        return ids
    }
}

extension FlowStore {
    /// Whether operations must go through the routing pass: a router is installed and
    /// there are orthogonal edges (or the router still knows some).
    @inline(__always)
    var routesLive: Bool { routing.router != nil && (orthogonalEdgeCount > 0 || routing.hasState) }

    /// Routes every orthogonal edge afresh with `edgeRouter`, whatever it knew before, and
    /// returns how many edges got new points. One undo step "Route"; a `replace` event for
    /// each of them. Throws `invalidState` when no router is installed.
    @discardableResult
    public func routeEdges() throws(FlowError) -> Int {
        guard let router = routing.router else { throw .invalidState("routeEdges", "the store has no edge router") }
        return try perform("Route") { () throws(FlowError) -> Int in
            guard orthogonalEdgeCount > 0 else { return 0 }
            routing.hasState = true
            let routes = router.route(RoutingChanges(all: true), in: self)
            if WorkLimit.shouldStop {
                routing.reset()
                throw WorkLimit.stoppedError("routeEdges")
            }
            return writeRoutes(routes)
        }
    }

    /// The routing pass at the end of a top-level operation (see the top of this file).
    func routeAfterOperation() {
        guard let router = routing.router else { return }
        if orthogonalEdgeCount == 0 {
            if routing.hasState {
                router.reset()
                routing.hasState = false
            }
            return
        }
        let changes = routingChanges()
        if changes.frames.isEmpty && changes.edges.isEmpty { return }
        routing.hasState = true
        var c = changes
        c.isReplay = log.isReplaying
        let routes = router.route(c, in: self)
        if WorkLimit.shouldStop {
            // The router may have stopped part way (a `WorkLimit`): it forgets what it knew
            // (the next pass builds afresh) and the operation is refused at its commit.
            routing.reset()
            if !log.isReplaying { routing.stopped = true }
            return
        }
        if !log.isReplaying { writeRoutes(routes) }
    }

    /// Writes the routes that differ from the edges' points, in store order; returns how
    /// many were written.
    @discardableResult
    private func writeRoutes(_ routes: [(edgeID: String, points: [Point])]) -> Int {
        var changed: [(seq: Int, slot: Int32, points: [Point])] = []
        for r in routes {
            guard let s = edgeTable.slot(of: r.edgeID) else { continue }
            let e = edgeTable[slot: s]
            guard e.pathType == .orthogonal, e.points != r.points,
                r.points.count <= FlowEdge.maximumPointCount,
                r.points.allSatisfy({ $0.x.isFinite && $0.y.isFinite })
            else { continue }
            changed.append((edgeTable.seq(slot: s), s, r.points))
        }
        guard !changed.isEmpty else { return 0 }
        changed.sort { $0.seq < $1.seq }
        // The operation's own add/replace events of these edges, to update in place.
        var eventIndex: [String: Int] = [:]
        if recordsEdgeEvents && routing.operationEdgeMark < log.pendingEdgeChanges.count {
            for i in routing.operationEdgeMark..<log.pendingEdgeChanges.count {
                switch log.pendingEdgeChanges[i] {
                case .add(let e), .replace(let e): eventIndex[e.id] = i
                case .remove(let id): eventIndex[id] = nil
                case .select: break
                }
            }
        }
        let mark = log.journal.count
        for c in changed {
            var e = edgeTable[slot: c.slot]
            e.points = c.points
            if let i = eventIndex[e.id] {
                pReplaceEdge(e, emit: false)
                let stored = edgeTable[slot: c.slot]
                if case .add = log.pendingEdgeChanges[i] {
                    log.pendingEdgeChanges[i] = .add(stored)
                } else {
                    log.pendingEdgeChanges[i] = .replace(stored)
                }
            } else {
                pReplaceEdge(e)
            }
        }
        if log.journal.count > mark { routing.routeRanges.append(mark..<log.journal.count) }
        return changed.count
    }

    /// What the current operation's journal changed that routes depend on (see
    /// `RoutingChanges`), leaving out the points the router wrote itself.
    func routingChanges() -> RoutingChanges {
        // The journal is read backwards from the store as it is now, so that the frame of a
        // node ends up as it was before the operation.
        var before: [String: Rect?] = [:]
        var touched: [String] = []
        var handlesChanged: [String] = []
        var edges: Set<String> = []
        var removedKeys: [(IDKey, String)]?
        func start(_ id: String) {
            if before[id] == nil {
                before[id] = .some(nodeTable[id]?.frame)
                touched.append(id)
            }
        }
        func moved(_ id: String, from p: Point) {
            start(id)
            let size = before[id]??.size ?? .zero
            before[id] = Rect(origin: p, size: size)
        }
        var ranges = routing.routeRanges[...]
        for i in log.journal.indices.reversed() {
            while let r = ranges.last, r.lowerBound > i { ranges = ranges.dropLast() }
            if let r = ranges.last, r.contains(i) { continue }
            switch log.journal[i] {
            case .insertNode(let id, _):
                start(id)
                before[id] = .some(nil)
            case .removeNode(let n, _):
                start(n.id)
                before[n.id] = n.frame
            case .replaceNode(let old, let new):
                start(new.id)
                before[new.id] = old.frame
                if old.handles != new.handles { handlesChanged.append(new.id) }
            case .moveNode(let key, let from):
                if let s = nodeTable.lookup(inline: key) {
                    moved(nodeTable.id(slot: s), from: from)
                } else {
                    // Moved, then removed by the same operation.
                    if removedKeys == nil {
                        removedKeys = log.journal.compactMap { entry -> (IDKey, String)? in
                            guard case .removeNode(let n, _) = entry else { return nil }
                            return (nodeTable.keyAndHash(n.id).0, n.id)
                        }
                    }
                    if let id = removedKeys!.first(where: { $0.0 == key })?.1 { moved(id, from: from) }
                }
            case .moveNodeByID(let id, let from):
                moved(id, from: from)
            case .insertEdge(let id, _):
                edges.insert(id)
            case .removeEdge(let e, _):
                edges.insert(e.id)
            case .replaceEdge(let old, let new):
                if old.sourceNodeID != new.sourceNodeID || old.targetNodeID != new.targetNodeID
                    || old.sourceHandleID != new.sourceHandleID || old.targetHandleID != new.targetHandleID
                    || old.pathType != new.pathType || old.points != new.points
                {
                    edges.insert(new.id)
                }
            case .selectNode, .selectEdge:
                break
            case .setClassStyles:
                // Routes run between node frames: a style sheet moves none (a node it
                // resizes has its own entry).
                break
            }
        }
        var frames: [(old: Rect?, new: Rect?)] = []
        for id in touched {
            let old = before[id] ?? nil
            let new = nodeTable[id]?.frame
            if old != new {
                frames.append((old, new))
                for e in edgeIDs(touching: id) { edges.insert(e) }
            }
        }
        for id in handlesChanged { for e in edgeIDs(touching: id) { edges.insert(e) } }
        return RoutingChanges(frames: frames, edges: Array(edges))
    }
}
