import FlowCore

/// Rectangles by key in a uniform grid of square cells (rectangles covering too many cells
/// are kept in a list every query checks): which of them intersect a rectangle.
struct RectIndex {
    private static let cellSize = 256.0
    private static let largeCells = 256
    private var cells = CellLists<Int32>()
    private var large: [Int32] = []
    private var rects: [Rect?] = []
    private var free: [Int32] = []
    private var slots: [String: Int32] = [:]
    private var keys: [String] = []
    private var seen: [UInt32] = []
    private var generation: UInt32 = 0

    private struct Span {
        var x0: Int64, x1: Int64, y0: Int64, y1: Int64
        var count: Double { Double(x1 - x0 + 1) * Double(y1 - y0 + 1) }
    }

    private static func cell(_ v: Double) -> Int64 {
        let c = (v / cellSize).rounded(.down)
        return Int64(max(-1e15, min(1e15, c.isNaN ? 0 : c)))
    }

    private static func span(_ r: Rect) -> Span {
        Span(x0: cell(r.minX), x1: cell(r.maxX), y0: cell(r.minY), y1: cell(r.maxY))
    }

    mutating func removeAll() { self = RectIndex() }

    /// Sets the rectangle of `id` (nil removes it).
    mutating func set(_ id: String, _ rect: Rect?) {
        if let s = slots[id] {
            unlink(s)
            if let rect {
                rects[Int(s)] = rect
                link(s)
            } else {
                rects[Int(s)] = nil
                slots[id] = nil
                free.append(s)
            }
            return
        }
        guard let rect else { return }
        let s: Int32
        if let f = free.popLast() {
            s = f
            keys[Int(s)] = id
            rects[Int(s)] = rect
        } else {
            s = Int32(rects.count)
            rects.append(rect)
            keys.append(id)
            seen.append(0)
        }
        slots[id] = s
        link(s)
    }

    private mutating func link(_ s: Int32) {
        let sp = Self.span(rects[Int(s)]!)
        if sp.count > Double(Self.largeCells) {
            large.append(s)
            return
        }
        for x in sp.x0...sp.x1 { for y in sp.y0...sp.y1 { cells.append(s, x: x, y: y) } }
    }

    private mutating func unlink(_ s: Int32) {
        let sp = Self.span(rects[Int(s)]!)
        if sp.count > Double(Self.largeCells) {
            if let i = large.firstIndex(of: s) { large.remove(at: i) }
            return
        }
        for x in sp.x0...sp.x1 { for y in sp.y0...sp.y1 { cells.remove(s, x: x, y: y) } }
    }

    /// The keys of the rectangles that intersect `r` (closed), each once.
    mutating func query(_ r: Rect, into out: inout [String]) {
        generation &+= 1
        if generation == 0 {
            for i in seen.indices { seen[i] = 0 }
            generation = 1
        }
        func visit(_ s: Int32) {
            let i = Int(s)
            guard seen[i] != generation, let rect = rects[i] else { return }
            seen[i] = generation
            if rect.intersects(r) { out.append(keys[i]) }
        }
        for s in large { visit(s) }
        let sp = Self.span(r)
        if sp.count > Double(max(cells.cellCount, 64)) {
            cells.forEachCell { _, list in for s in list { visit(s) } }
            return
        }
        for x in sp.x0...sp.x1 {
            for y in sp.y0...sp.y1 { cells.forEach(x: x, y: y) { visit($0) } }
        }
    }
}
