/// Cycle breaking: which edges to draw against the layer direction so that the rest form
/// an acyclic graph. A depth-first search from every node in input order, each node's
/// out-edges in input order; an edge into a node still on the search's stack closes a cycle
/// and is reversed. Deterministic, linear in nodes plus edges.
///
/// `edges` are `(source, target)` pairs over `0..<nodeCount`, without self-loops.
func edgesToReverse(nodeCount: Int, edges: [(Int, Int)]) -> [Bool] {
    var out = Array(repeating: [Int](), count: nodeCount)
    for (i, e) in edges.enumerated() { out[e.0].append(i) }
    var reversed = Array(repeating: false, count: edges.count)
    // 0 unvisited, 1 on the stack, 2 finished
    var state = Array(repeating: UInt8(0), count: nodeCount)
    var stack: [(node: Int, next: Int)] = []
    for root in 0..<nodeCount where state[root] == 0 {
        state[root] = 1
        stack.append((root, 0))
        while let top = stack.last {
            let adjacent = out[top.node]
            if top.next == adjacent.count {
                state[top.node] = 2
                stack.removeLast()
                continue
            }
            stack[stack.count - 1].next += 1
            let e = adjacent[top.next]
            let w = edges[e].1
            switch state[w] {
            case 0:
                state[w] = 1
                stack.append((w, 0))
            case 1:
                reversed[e] = true
            default:
                break
            }
        }
    }
    return reversed
}
