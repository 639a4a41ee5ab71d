import FlowCore

/// Who is connected (docs/preview.md, "Several people, one page"): each page's display
/// name and the store it shows, sent to every page as `{"type":"presence",...}`.
///
/// A page is named by its address's `?name=`, made safe (`sanitized`), else "viewer N",
/// N its connection's number (1 for the first page the server served, in the order they
/// connected; a page that reconnects gets a new number). A name another connected page
/// already has gets the connection's number after it ("ana (3)", "viewer 4 (4)" after a
/// page that called itself "viewer 4"), so every name in the list is different.
public enum PreviewPresence {
    /// The longest name kept, in characters (longer ones are cut).
    public static let maximumNameLength = 32

    /// One connected page.
    public struct Entry: Sendable, Equatable {
        /// The connection's number (1, 2, ... in connection order).
        public let page: Int
        public let name: String
        /// The view the page shows now (0: none yet).
        public let view: Int

        public init(page: Int, name: String, view: Int) {
            self.page = page
            self.name = name
            self.view = view
        }
    }

    /// `text` made fit for a name: letters, digits, spaces and `- _ .` only (anything
    /// that means something in HTML, JSON or a terminal, and control characters, are
    /// dropped), runs of spaces made one, trimmed, cut to `maximumNameLength` characters.
    /// nil when nothing is left.
    public static func sanitized(_ text: String) -> String? {
        var kept = ""
        var space = false
        for c in text {
            let allowed = c.isLetter || c.isNumber || c == "-" || c == "_" || c == "."
            if allowed && !c.unicodeScalars.contains(where: { $0.properties.generalCategory == .format }) {
                if space && !kept.isEmpty { kept.append(" ") }
                space = false
                kept.append(c)
                if kept.count >= maximumNameLength { break }
            } else if c.isWhitespace {
                space = true
            }
        }
        return kept.isEmpty ? nil : kept
    }

    /// The name of connection `page` that asked for `given` (nil: none), with `taken` the
    /// names of the other connected pages.
    static func name(given: String?, page: Int, taken: Set<String>) -> String {
        let wanted = given.flatMap(sanitized) ?? "viewer \(page)"
        return taken.contains(wanted) ? "\(wanted) (\(page))" : wanted
    }

    /// `{"type":"presence","you":2,"pages":[{"page":1,"name":"viewer 1","view":1},...]}`:
    /// the pages connected, in connection order, and which of them the receiving page is.
    public static func message(_ entries: [Entry], you: Int) -> String {
        var w = JSONWriter(pretty: false, sortedKeys: false)
        w.beginObject()
        w.key("type"); w.string("presence")
        w.key("you"); w.number(you)
        w.key("pages"); w.beginArray()
        for e in entries {
            w.beginObject()
            w.key("page"); w.number(e.page)
            w.key("name"); w.string(e.name)
            w.key("view"); w.number(e.view)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.text
    }
}
