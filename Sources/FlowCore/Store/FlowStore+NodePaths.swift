// Node paths: a node addressed by the ids of its ancestors and its own, root first, as
// `checkout/payment/card` (a deep link into the group tree). In each id `%` is written
// `%25` and `/` is written `%2F`, so any id fits in a segment; reading a path decodes every
// `%XX`.

extension FlowStore {
    /// The path of node `id`: the ids of its ancestors and its own, root first, escaped and
    /// joined with `/`. O(depth).
    public func nodePath(_ id: String) throws(FlowError) -> String {
        var n = try requireNode(id, "nodePath")
        var ids = [n.id]
        while let p = n.parentID, let parent = nodeTable[p] {
            ids.append(parent.id)
            n = parent
        }
        return ids.reversed().map(NodePath.escape).joined(separator: "/")
    }

    /// The node at `path` (see `nodePath(_:)`), or nil when no node has that path. Throws
    /// `invalidValue` for a path that cannot name a node: an empty segment (`a//b`, a
    /// leading or trailing `/`, the empty path) or a `%` not followed by two hex digits.
    /// O(depth + path length).
    public func node(atPath path: String) throws(FlowError) -> Node? {
        let segments = try NodePath.segments(path, "find")
        guard let last = segments.last, let found = nodeTable[last] else { return nil }
        var n = found, k = segments.count - 1
        while true {
            guard n.id == segments[k] else { return nil }
            k -= 1
            guard let p = n.parentID else { return k < 0 ? found : nil }
            guard k >= 0, let parent = nodeTable[p] else { return nil }
            n = parent
        }
    }

    /// Selects node `id` (alone) and focuses it, and sets the viewport so that the node is
    /// centred in a canvas of `canvasSize` with `padding` around it, never zoomed in past 1
    /// (as `fitToContent` fits everything). Records no undo step (selection and viewport
    /// never do); emits the selection's events. Returns whether anything changed.
    @discardableResult
    public func reveal(_ id: String, canvasSize: Size = Size(800, 600), padding: Double = 50) throws(FlowError) -> Bool {
        let n = try requireNode(id, "reveal")
        try validateFit(canvasSize: canvasSize, padding: padding, "reveal")
        let target = fitTarget(n.frame, canvasSize: canvasSize, padding: padding)
        let selected = try selectNode(id)
        guard let target, target != viewport else { return selected }
        cancelViewportAnimations()
        viewport = target
        return true
    }
}

/// Writing and reading node paths (see `FlowStore.nodePath(_:)`).
public enum NodePath {
    /// `id` with `%` and `/` escaped, as a segment of a node path.
    public static func escape(_ id: String) -> String {
        guard id.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "/") }) else { return id }
        var out: [UInt8] = []
        for b in id.utf8 {
            switch b {
            case UInt8(ascii: "%"): out += Array("%25".utf8)
            case UInt8(ascii: "/"): out += Array("%2F".utf8)
            default: out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The ids a path names, decoded; throws `invalidValue` for `op` when it is malformed.
    public static func segments(_ path: String, _ op: String) throws(FlowError) -> [String] {
        func invalid(_ why: String) -> FlowError { .invalidValue(op, "invalid path '\(path)' (\(why))") }
        var segments: [String] = []
        var segment: [UInt8] = []
        var bytes = path.utf8.makeIterator()
        func finish() throws(FlowError) {
            if segment.isEmpty { throw invalid("empty segment") }
            segments.append(String(decoding: segment, as: UTF8.self))
            segment.removeAll()
        }
        while let b = bytes.next() {
            switch b {
            case UInt8(ascii: "/"):
                try finish()
            case UInt8(ascii: "%"):
                guard let h = bytes.next().flatMap(hexValue), let l = bytes.next().flatMap(hexValue) else {
                    throw invalid("'%' must be followed by two hex digits")
                }
                segment.append(h << 4 | l)
            default:
                segment.append(b)
            }
        }
        try finish()
        return segments
    }
}

private func hexValue(_ b: UInt8) -> UInt8? {
    switch b {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
    default: return nil
    }
}
