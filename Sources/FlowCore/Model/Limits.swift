/// The largest numbers the store accepts, so that everything it derives from them (frames,
/// paths, the viewport) stays finite and every state it holds can be written out.
public enum FlowLimits {
    /// Largest magnitude of a canvas coordinate, a size or a pointer point: beyond 2^53 a
    /// double no longer holds every whole canvas unit. Calls reject larger values; moves
    /// computed by the store (drags, animations, carried descendants) stop at it.
    public static let coordinate = 1e15
    /// Largest magnitude of a viewport offset: pans and zooms stop at it.
    public static let viewportOffset = 1e200
    /// Largest `maxZoom` (the configuration clamps to it, as it keeps `minZoom` at least 0.01).
    public static let maximumZoom = 1e6
    /// Largest font size: text measured in it stays well inside `coordinate` (a 64 KiB
    /// title at this size is about 4e8 units wide), so layouts and paths derived from it
    /// stay exact.
    public static let fontSize = 10_000.0
    /// Largest magnitude of a `zIndex`: every integer up to 2^53 is written exactly in JSON.
    public static let zIndex = 1 << 53

    /// `v` clamped into `-limit...limit` (NaN becomes 0).
    @inline(__always)
    static func clamp(_ v: Double, _ limit: Double) -> Double {
        v.isNaN ? 0 : min(max(v, -limit), limit)
    }

    /// `p` with each coordinate clamped into `-limit...limit`.
    @inline(__always)
    static func clamp(_ p: Point, _ limit: Double) -> Point {
        Point(clamp(p.x, limit), clamp(p.y, limit))
    }
}

/// What one store may hold at most, for a host that runs scripts it did not write (the
/// Lua sandbox sets them on every store it makes). A top-level call (or transaction) that
/// leaves the store beyond a limit is rolled back as a whole and fails with an error
/// saying which; 0 turns a limit off. They are checked when the call commits, against
/// what it changed: the counts, and the titles and labels of the nodes and edges it added
/// or replaced.
public struct StoreLimits: Sendable, Equatable {
    /// Nodes at most.
    public var nodes: Int
    /// Edges at most.
    public var edges: Int
    /// Longest node title (its label, or its id when it has none) and edge label, in UTF-8
    /// bytes.
    public var labelBytes: Int

    public init(nodes: Int = 0, edges: Int = 0, labelBytes: Int = 0) {
        self.nodes = nodes
        self.edges = edges
        self.labelBytes = labelBytes
    }
}
