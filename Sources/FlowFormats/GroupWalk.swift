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

    static func walk(_ nodes: [FlowNode<JSONValue>], _ visit: (Step) -> Void) {
        var children: [String: [Int]] = [:]
        var roots: [Int] = []
        let ids = Set(nodes.map(\.id))
        for (i, n) in nodes.enumerated() {
            if let p = n.parentID, ids.contains(p) { children[p, default: []].append(i) } else { roots.append(i) }
        }
        var stack: [(index: Int, depth: Int, closing: Bool)] = roots.reversed().map { ($0, 1, false) }
        while let (i, depth, closing) = stack.popLast() {
            let pad = String(repeating: "  ", count: depth)
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
