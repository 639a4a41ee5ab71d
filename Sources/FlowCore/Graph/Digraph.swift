/// A directed multigraph on the vertices `0..<vertexCount`, with edges `0..<edgeCount`:
/// the adjacency structure the graph queries run on (FlowStore+Graph.swift builds one from
/// a store, vertex `i` being the `i`-th node and edge `j` the `j`-th edge in store order).
///
/// Edges are kept in compressed rows: the out-edges of a vertex are one contiguous run of
/// edge indices, ascending, and so are its in-edges. Building is O(V + E) (two counting
/// sorts); every algorithm here is O(V + E) and iterative, so a path of a million vertices
/// needs no deep call stack. Results list vertices in ascending order unless the result is
/// itself an order (a path, a topological order). Parallel edges and self-loops are allowed.
public struct Digraph: Sendable {
    /// The number of vertices.
    public let vertexCount: Int
    /// The source vertex of each edge.
    public let edgeSources: [Int32]
    /// The target vertex of each edge.
    public let edgeTargets: [Int32]
    /// Out-edges of `v`: `outEdges[outStart[v] ..< outStart[v + 1]]`, ascending.
    let outStart: [Int32]
    let outEdges: [Int32]
    /// In-edges of `v`: `inEdges[inStart[v] ..< inStart[v + 1]]`, ascending.
    let inStart: [Int32]
    let inEdges: [Int32]

    /// The number of edges.
    public var edgeCount: Int { edgeSources.count }

    /// A graph with edge `j` going from `sources[j]` to `targets[j]`. Every endpoint must be
    /// a vertex (`0..<vertexCount`) and both arrays must have the same length.
    public init(vertexCount: Int, sources: [Int32], targets: [Int32]) {
        precondition(sources.count == targets.count, "Digraph: sources and targets differ in length")  // invariant: the caller's contract; the store always builds matching arrays
        precondition(vertexCount < Int(Int32.max) && sources.count < Int(Int32.max), "Digraph: too large")  // invariant: store slots are Int32
        self.vertexCount = vertexCount
        edgeSources = sources
        edgeTargets = targets
        (outStart, outEdges) = Digraph.rows(vertexCount, keys: sources)
        (inStart, inEdges) = Digraph.rows(vertexCount, keys: targets)
    }

    /// A graph from `(source, target)` pairs (for tests and small graphs).
    public init(vertexCount: Int, edges: [(Int, Int)]) {
        self.init(
            vertexCount: vertexCount, sources: edges.map { Int32($0.0) }, targets: edges.map { Int32($0.1) })
    }

    /// Groups the edge indices by `keys[edge]` (a counting sort, stable, so each run is
    /// ascending): returns the start of each vertex's run (plus the end) and the runs.
    private static func rows(_ n: Int, keys: [Int32]) -> (start: [Int32], edges: [Int32]) {
        var start = [Int32](repeating: 0, count: n + 1)
        for k in keys {
            precondition(k >= 0 && Int(k) < n, "Digraph: edge endpoint \(k) is not a vertex")  // invariant: the caller's contract
            start[Int(k) + 1] += 1
        }
        for v in 0..<n { start[v + 1] += start[v] }
        var fill = start
        var edges = [Int32](repeating: 0, count: keys.count)
        for (j, k) in keys.enumerated() {
            edges[Int(fill[Int(k)])] = Int32(j)
            fill[Int(k)] += 1
        }
        return (start, edges)
    }

    // MARK: Adjacency

    /// The out-edges of `v`, ascending.
    @inline(__always)
    public func outgoing(_ v: Int) -> ArraySlice<Int32> { outEdges[Int(outStart[v])..<Int(outStart[v + 1])] }

    /// The in-edges of `v`, ascending.
    @inline(__always)
    public func incoming(_ v: Int) -> ArraySlice<Int32> { inEdges[Int(inStart[v])..<Int(inStart[v + 1])] }

    /// The number of edges leaving `v` (a self-loop counts once here and once in `inDegree`).
    public func outDegree(_ v: Int) -> Int { Int(outStart[v + 1] - outStart[v]) }

    /// The number of edges arriving at `v`.
    public func inDegree(_ v: Int) -> Int { Int(inStart[v + 1] - inStart[v]) }

    /// The vertices `v` has an edge to, each once, ascending.
    public func successors(of v: Int) -> [Int] {
        Digraph.distinctSorted(outgoing(v).map { Int(edgeTargets[Int($0)]) })
    }

    /// The vertices with an edge to `v`, each once, ascending.
    public func predecessors(of v: Int) -> [Int] {
        Digraph.distinctSorted(incoming(v).map { Int(edgeSources[Int($0)]) })
    }

    /// The vertices with no in-edge, ascending.
    public func sources() -> [Int] { (0..<vertexCount).filter { inStart[$0] == inStart[$0 + 1] } }

    /// The vertices with no out-edge, ascending.
    public func sinks() -> [Int] { (0..<vertexCount).filter { outStart[$0] == outStart[$0 + 1] } }

    static func distinctSorted(_ values: [Int]) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(values.count)
        for v in values.sorted() where out.last != v { out.append(v) }
        return out
    }

    /// The vertices whose flag is set, ascending: the O(V) way to sort a set of vertices.
    static func flagged(_ flags: [Bool]) -> [Int] {
        var out: [Int] = []
        for (v, f) in flags.enumerated() where f { out.append(v) }
        return out
    }

    /// Groups the vertices by a label (`label[v]`, 0..<count) into lists: each list
    /// ascending, the lists ordered by their first vertex. O(V).
    static func groups(label: [Int32], count: Int) -> [[Int]] {
        var slot = [Int32](repeating: -1, count: count)
        var out: [[Int]] = []
        out.reserveCapacity(count)
        for (v, l) in label.enumerated() where l >= 0 {
            if slot[Int(l)] < 0 {
                slot[Int(l)] = Int32(out.count)
                out.append([])
            }
            out[Int(slot[Int(l)])].append(v)
        }
        return out
    }
}
