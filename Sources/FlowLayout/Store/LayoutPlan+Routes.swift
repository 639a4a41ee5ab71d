import FlowCore

/// The final shape of every route a layout makes: the layout's points in steps for the
/// orthogonal path types, ways around ends that face away, and back edges and self-loops
/// routed beside the nodes (`BackRoutes`).
extension LayoutPlan {
    /// Gives every routed edge its final shape: the layout's points, turned into steps for
    /// the orthogonal path types, with ways around the nodes at ends that face away, and
    /// short jogs straightened where nothing is in the way (`straightenJogs`), stepped runs
    /// across a gap on tracks of their own (`spreadTracks`), and ports
    /// where edges share a node side (`spreadPorts`). Back
    /// edges and self-loops come last, each routed beside the nodes (`BackRoutes`) clear of
    /// the routes made before it; one that finds no clear way keeps the general shape.
    mutating func shapeRoutes(_ edges: [FlowEdge]) {
        var back = BackRoutes(
            direction: direction, layerSpacing: request.options.layerSpacing,
            clearance: min(request.options.nodeSpacing / 2, 16),
            loopReach: (min(request.options.layerSpacing / 2, 20) * 0.75).rounded())
        var against: [FlowEdge] = [], general: [FlowEdge] = []
        for e in edges where routes[e.id] != nil {
            // An orthogonal edge's points belong to the store's router, which routes it
            // around the nodes' new frames at the end of the same operation (docs/routing.md).
            if e.pathType == .orthogonal && routerOwnsOrthogonal {
                routes[e.id] = nil
                continue
            }
            let (s, t) = ends(e)
            let a = index[e.sourceNodeID]!, b = index[e.targetNodeID]!
            if back.against(s.point, s.side, newFrame(a), t.point, t.side, newFrame(b))
                && (sameContainer(e) || drawnAgainst.contains(e.id)) {
                against.append(e)
                continue
            }
            routes[e.id] = shaped(routes[e.id]!, e)
            general.append(e)
        }
        straightenJogs(general)
        spreadSteppedEnds(general)
        spreadTracks(general)
        for e in general {
            let (s, t) = ends(e)
            back.add([s.point] + routes[e.id]! + [t.point])
        }
        // A curved back edge between two nodes of one container whose handles the layout
        // placed is drawn the way its layout laid it: through its lanes in the layers between, leaving its source by the
        // side facing its target and entering its target by the side facing its source, as
        // dot draws it. The others (loops, stepped types, between groups) go beside the nodes.
        var turned: [String: (source: HandlePosition, target: HandlePosition)] = [:]
        var arcs: [Int: Int] = [:]  // flat edges' arcs by the gap they pass (`flatRoute`)
        for e in against where e.sourceNodeID != e.targetNodeID && LayoutPlan.takesPorts(e.pathType) && sameContainer(e) {
            let (s, t) = ends(e)
            let a = index[e.sourceNodeID]!, b = index[e.targetNodeID]!
            if let flat = flatRoute(e, arcs: &arcs) {
                turned[e.id] = flat.sides
                if let r = flat.route { routes[e.id] = r }
                back.add([shapes[a].handlePoint(flat.sides.source, in: newFrame(a))] + routes[e.id]!
                    + [shapes[b].handlePoint(flat.sides.target, in: newFrame(b))])
                continue
            }
            guard s.side != .center, t.side == s.side.opposite, placesHandles(a), placesHandles(b) else { continue }
            turned[e.id] = (s.side.opposite, t.side.opposite)
            back.add([shapes[a].handlePoint(s.side.opposite, in: newFrame(a))] + routes[e.id]!
                + [shapes[b].handlePoint(t.side.opposite, in: newFrame(b))])
        }
        // loops first: each has two sides to choose from, a back edge many lanes
        let rest = against.filter { turned[$0.id] == nil }
        let loopsFirst = rest.filter { $0.sourceNodeID == $0.targetNodeID } + rest.filter { $0.sourceNodeID != $0.targetNodeID }
        let frames = loopsFirst.isEmpty ? [] : (0..<nodes.count).map(newFrame)
        for e in loopsFirst {
            let (s, t) = ends(e)
            let a = index[e.sourceNodeID]!, b = index[e.targetNodeID]!
            let offset = e.pathType == .smoothStep ? SmoothStepPath().offset : 0
            // every node but the ends and the groups holding them
            let holding = Set(enclosing(a) + enclosing(b))
            let others = frames.indices.filter { !holding.contains($0) }.map { frames[$0] }
            let walls = crossedGroups(a, b).map(newFrame)
            let holder = self.holder[e.id] ?? -1
            let bounds = holder >= 0 ? newFrame(holder).insetBy(dx: 2, dy: 2) : nil
            let route = a == b
                ? back.loop(from: s.point, to: t.point, on: newFrame(a), obstacles: others, bounds: bounds, offset: offset)
                : back.backEdge(
                    from: s.point, newFrame(a), s.side, to: t.point, newFrame(b), t.side, obstacles: others, walls: walls,
                    bounds: bounds, hints: routes[e.id]!, offset: offset)
            if let route {
                routes[e.id] = route
            } else {
                routes[e.id] = shaped(routes[e.id]!, e)
                back.add([s.point] + routes[e.id]! + [t.point])
            }
        }
        // back edges and loops share their nodes' sides with the rest: a stepped one that
        // ends where another stepped edge still ends (a side it came to alone) gets ends
        // apart from it; ends spread before are no longer at the handle and stay
        spreadSteppedEnds(general + against)
        spreadPorts(general + against, turned: turned)
        spreadFieldPorts(general + against)
        addLeads(general + against, turned: turned)
    }

    /// The general shape of a route: around the ends that face away, in steps for the
    /// orthogonal path types.
    func shaped(_ points: [Point], _ e: FlowEdge) -> [Point] {
        let route = detoured(points, e)
        return e.pathType == .smoothStep || e.pathType == .orthogonal ? orthogonal(route, e) : route
    }

    /// An edge's two ends: each handle's point on its node's new frame, and its side.
    func ends(_ e: FlowEdge) -> (source: (point: Point, side: HandlePosition), target: (point: Point, side: HandlePosition)) {
        let a = index[e.sourceNodeID]!, b = index[e.targetNodeID]!
        let hs = handleSide(a, e.sourceHandleID, .source).position, ht = handleSide(b, e.targetHandleID, .target).position
        return ((hs.point(in: newFrame(a)), hs), (ht.point(in: newFrame(b)), ht))
    }

    /// Whether both ends of `e` are laid out in one container.
    func sameContainer(_ e: FlowEdge) -> Bool {
        guard let a = index[e.sourceNodeID], let b = index[e.targetNodeID] else { return false }
        return inScope[a] && inScope[b] && container[a] == container[b]
    }

    /// The groups an edge between nodes `a` and `b` leaves or enters: those that hold one
    /// end but not the other, by index.
    func crossedGroups(_ a: Int, _ b: Int) -> [Int] {
        Set(enclosing(a).dropFirst()).symmetricDifference(enclosing(b).dropFirst()).sorted()
    }

    /// Node `v` and the groups that hold it, innermost first.
    func enclosing(_ v: Int) -> [Int] {
        var chain: [Int] = []
        var p: Int? = v
        while let i = p {
            chain.append(i)
            p = nodes[i].parentID.flatMap { index[$0] }
        }
        return chain
    }
}
