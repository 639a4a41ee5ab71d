import FlowCore
import FlowRender
import Glibc

/// One finished picture of a view: the protocol message that carries it, built once on the
/// REPL's thread and sent as is to every page of the view.
public struct PreviewFrame: Sendable {
    public let view: Int
    /// Counts the frames of the view, from 1.
    public let revision: Int
    /// `{"type":"frame",...}`, see docs/preview.md.
    public let message: String

    /// `changedAt`: when the change it shows was finished, in milliseconds since the epoch
    /// (the page reports how long the picture took to reach it).
    public init(view: Int, revision: Int, svg: String, warnings: [String], changedAt: Double) {
        self.view = view
        self.revision = revision
        var w = JSONWriter(pretty: false, sortedKeys: false)
        w.reserveCapacity(svg.utf8.count + 256)
        w.beginObject()
        w.key("type"); w.string("frame")
        w.key("view"); w.number(view)
        w.key("revision"); w.number(revision)
        w.key("changedAt"); w.number(changedAt)
        w.key("warnings"); w.beginArray()
        for warning in warnings { w.string(warning) }
        w.endArray()
        w.key("svg"); w.string(svg)
        w.endObject()
        message = w.text
    }

    /// Milliseconds since the epoch, now.
    public static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_REALTIME, &t)
        return Double(t.tv_sec) * 1000 + Double(t.tv_nsec) / 1e6
    }
}

/// The server's other messages to pages.
public enum PreviewMessages {
    /// A refused request: `{"type":"error","message":...}`.
    public static func error(_ message: String) -> String { object("error", message) }
    /// A request applied: `{"type":"ok"}` (pages may ignore it; tests wait for it).
    public static let ok = #"{"type":"ok"}"#
    /// A problem shown over the picture (a failed `--watch` run): `{"type":"notice",...}`;
    /// an empty message takes it away.
    public static func notice(_ message: String) -> String { object("notice", message) }

    /// One store a page can show.
    public struct Store: Sendable, Equatable {
        public let view: Int
        /// The global variable that holds it, else its `store.name` (`store#n`).
        public let name: String
        public let nodes: Int
        public let edges: Int

        public init(view: Int, name: String, nodes: Int, edges: Int) {
            self.view = view
            self.name = name
            self.nodes = nodes
            self.edges = edges
        }
    }

    /// The live stores, in the order they were made, and the view of the one changed last:
    /// `{"type":"stores","latest":1,"stores":[{"view":1,"name":"store","nodes":3,"edges":2}]}`.
    public static func stores(_ stores: [Store], latest: Int?) -> String {
        var w = JSONWriter(pretty: false, sortedKeys: false)
        w.beginObject()
        w.key("type"); w.string("stores")
        w.key("latest")
        if let latest { w.number(latest) } else { w.null() }
        w.key("stores"); w.beginArray()
        for s in stores {
            w.beginObject()
            w.key("view"); w.number(s.view)
            w.key("name"); w.string(s.name)
            w.key("nodes"); w.number(s.nodes)
            w.key("edges"); w.number(s.edges)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.text
    }

    private static func object(_ type: String, _ message: String) -> String {
        var w = JSONWriter(pretty: false, sortedKeys: false)
        w.beginObject()
        w.key("type"); w.string(type)
        w.key("message"); w.string(message)
        w.endObject()
        return w.text
    }
}
