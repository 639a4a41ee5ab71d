import FlowCore

/// The nodes of a document in the nesting of their groups, for writers of formats that
/// nest (DOT clusters, Mermaid subgraphs): depth-first in store order, each group opened
/// before its children and closed after them. Iterative, so deep nesting cannot overflow
/// the stack.
enum GroupWalk {
    enum Step {
        /// A group (a node that accepts children) starts; its children follow.
        case open(FlowNode<JSONValue>, pad: String)
        /// The group opened last at this depth ends.
        case close(pad: String)
        /// A node that is not a group.
        case node(FlowNode<JSONValue>, pad: String)
    }

    /// The deepest indentation written (levels of two spaces).
    static let maximumIndent = 65

    /// How deep groups nest: 0 without groups, 1 when no group is inside another.
    static func depth(_ nodes: [FlowNode<JSONValue>]) -> Int {
        var index: [String: Int] = [:]
        for (i, n) in nodes.enumerated() where index[n.id] == nil { index[n.id] = i }
        // each group's depth from its parent's, parents first (iterative: chains may be long)
        var depth = [Int](repeating: 0, count: nodes.count)
        var deepest = 0
        var chain: [Int] = []
        for start in nodes.indices where nodes[start].acceptsChildren && depth[start] == 0 {
            var cursor: Int? = start
            while let c = cursor, depth[c] == 0, chain.count <= nodes.count {
                chain.append(c)
                cursor = nodes[c].parentID.flatMap { index[$0] }
            }
            var d = cursor.map { depth[$0] } ?? 0
            while let c = chain.popLast() {
                d += 1
                depth[c] = d
                deepest = max(deepest, d)
            }
        }
        return deepest
    }

    static func walk(_ nodes: [FlowNode<JSONValue>], _ visit: (Step) -> Void) {
        var children: [String: [Int]] = [:]
        var roots: [Int] = []
        let ids = Set(nodes.map(\.id))
        for (i, n) in nodes.enumerated() {
            if let p = n.parentID, ids.contains(p) { children[p, default: []].append(i) } else { roots.append(i) }
        }
        var stack: [(index: Int, depth: Int, closing: Bool)] = roots.reversed().map { ($0, 1, false) }
        while let (i, depth, closing) = stack.popLast() {
            // indentation stops growing past the readers' nesting limit, so the text stays
            // linear in the nodes however deep a parent chain is
            let pad = String(repeating: "  ", count: min(depth, maximumIndent))
            if closing {
                visit(.close(pad: pad))
                continue
            }
            let n = nodes[i]
            if n.acceptsChildren {
                visit(.open(n, pad: pad))
                stack.append((i, depth, true))
                for c in (children[n.id] ?? []).reversed() { stack.append((c, depth + 1, false)) }
            } else {
                visit(.node(n, pad: pad))
            }
        }
    }
}
