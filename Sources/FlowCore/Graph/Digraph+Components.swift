extension Digraph {
    /// The strongly connected components: each list ascending, the lists ordered by their
    /// first vertex. Every vertex is in exactly one (a vertex on no cycle is alone).
    /// Tarjan's algorithm with an explicit stack of frames instead of recursion. O(V + E).
    public func stronglyConnectedComponents() -> [[Int]] {
        let (label, count) = strongComponentLabels()
        return Digraph.groups(label: label, count: count)
    }

    /// The strongly connected components that contain a cycle: those of two or more
    /// vertices, and single vertices with a self-loop. Ordered as
    /// `stronglyConnectedComponents()`. O(V + E).
    public func cyclicComponents() -> [[Int]] {
        stronglyConnectedComponents().filter { c in
            c.count > 1 || outgoing(c[0]).contains { edgeTargets[Int($0)] == Int32(c[0]) }
        }
    }

    /// A component number for each vertex (in the order Tarjan's algorithm completes them,
    /// which is a reverse topological order of the components), and the number of them.
    func strongComponentLabels() -> (label: [Int32], count: Int) {
        let n = vertexCount
        var index = [Int32](repeating: -1, count: n)
        var low = [Int32](repeating: 0, count: n)
        var onStack = [Bool](repeating: false, count: n)
        var label = [Int32](repeating: -1, count: n)
        var stack: [Int32] = []  // Tarjan's stack of open vertices
        var frames: [(v: Int32, next: Int32)] = []  // the DFS, each frame its next out-edge position
        var counter: Int32 = 0
        var components: Int32 = 0

        func open(_ v: Int32) {
            index[Int(v)] = counter
            low[Int(v)] = counter
            counter += 1
            stack.append(v)
            onStack[Int(v)] = true
            frames.append((v, outStart[Int(v)]))
        }

        for root in 0..<n where index[root] < 0 {
            open(Int32(root))
            while let top = frames.last {
                let v = Int(top.v)
                if top.next < outStart[v + 1] {
                    frames[frames.count - 1].next += 1
                    let w = edgeTargets[Int(outEdges[Int(top.next)])]
                    if index[Int(w)] < 0 {
                        open(w)
                    } else if onStack[Int(w)] {
                        low[v] = min(low[v], index[Int(w)])
                    }
                    continue
                }
                frames.removeLast()
                if let parent = frames.last { low[Int(parent.v)] = min(low[Int(parent.v)], low[v]) }
                if low[v] == index[v] {
                    while let w = stack.popLast() {
                        onStack[Int(w)] = false
                        label[Int(w)] = components
                        if Int(w) == v { break }
                    }
                    components += 1
                }
            }
        }
        return (label, Int(components))
    }

    /// The weakly connected components (edges taken in both directions): each list
    /// ascending, the lists ordered by their first vertex. O(V + E).
    public func weaklyConnectedComponents() -> [[Int]] {
        var label = [Int32](repeating: -1, count: vertexCount)
        var count: Int32 = 0
        var queue: [Int32] = []
        for root in 0..<vertexCount where label[root] < 0 {
            label[root] = count
            queue.removeAll(keepingCapacity: true)
            queue.append(Int32(root))
            var head = 0
            while head < queue.count {
                let u = Int(queue[head])
                head += 1
                for e in outgoing(u) {
                    let t = Int(edgeTargets[Int(e)])
                    if label[t] < 0 { label[t] = count; queue.append(Int32(t)) }
                }
                for e in incoming(u) {
                    let s = Int(edgeSources[Int(e)])
                    if label[s] < 0 { label[s] = count; queue.append(Int32(s)) }
                }
            }
            count += 1
        }
        return Digraph.groups(label: label, count: Int(count))
    }
}
