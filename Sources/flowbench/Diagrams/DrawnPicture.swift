@preconcurrency import Glibc
import FlowCore

/// A drawing as a reader sees it, read back from the two files a user saves: the picture
/// (`save("x.svg", {handles = "none"})`) and the document (`save("x.json")`). Edge routes
/// come from the picture's `<path id="edge-…" d="…">` (curves sampled into 8 pieces),
/// edge labels from its `<rect class="label…">`, node boxes from the document (groups,
/// nodes that accept or have children, left out).
struct DrawnPicture {
    struct Box {
        var x, y, w, h: Double
    }
    struct Edge {
        var id: String
        var source: String
        var target: String
        /// The route as drawn; empty when the picture has no path for the edge.
        var points: [(Double, Double)]
    }

    /// Node boxes (groups excluded), in document order.
    var nodes: [(id: String, box: Box)] = []
    /// The document's edges that the picture draws, in document order.
    var edges: [Edge] = []
    /// Edges in the document.
    var edgeCount = 0
    var labels: [Box] = []
    var canvas = Box(x: 0, y: 0, w: 0, h: 0)

    init?(svg: String, document json: String) {
        guard case .object(let doc)? = try? JSONValue.parse(json),
            case .array(let nodeList)? = doc["nodes"], case .array(let edgeList)? = doc["edges"]
        else { return nil }
        var parents = Set<String>()
        for case .object(let n) in nodeList {
            if case .string(let p)? = n["parentID"] { parents.insert(p) }
        }
        for case .object(let n) in nodeList {
            guard case .string(let id)? = n["id"], case .array(let pos)? = n["position"],
                case .array(let size)? = n["size"], pos.count == 2, size.count == 2,
                case .number(let x) = pos[0], case .number(let y) = pos[1],
                case .number(let w) = size[0], case .number(let h) = size[1]
            else { return nil }
            if case .bool(true)? = n["acceptsChildren"] { continue }
            if parents.contains(id) { continue }
            nodes.append((id, Box(x: x, y: y, w: w, h: h)))
        }
        let paths = SVGScan.edgePaths(svg)
        for case .object(let e) in edgeList {
            guard case .string(let id)? = e["id"], case .string(let s)? = e["sourceNodeID"],
                case .string(let t)? = e["targetNodeID"]
            else { return nil }
            edgeCount += 1
            if let d = paths[id] { edges.append(Edge(id: id, source: s, target: t, points: SVGScan.polyline(d))) }
        }
        labels = SVGScan.labelBoxes(svg)
        guard let vb = SVGScan.viewBox(svg) else { return nil }
        canvas = vb
    }
}
