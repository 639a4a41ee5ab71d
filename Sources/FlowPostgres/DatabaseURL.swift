/// A PostgreSQL connection URL (`postgresql://user:password@host:port/db?options`) and the
/// forms of it that may be shown: never with its password (docs/collaboration.md).
struct DatabaseURL {
    /// What libpq gets: the URL as given, with a connect timeout unless it names one.
    let connectionString: String
    /// The URL without its password (`user@host`, no `password=` option).
    let display: String
    /// The password as written in the URL and percent-decoded, to take out of messages.
    private let secrets: [String]

    /// Whether `text` names a PostgreSQL database rather than a file.
    static func isDatabaseURL(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    init(_ text: String) {
        var secrets: [String] = []
        let scheme = text.hasPrefix("postgres://") ? "postgres://" : "postgresql://"
        var rest = Substring(text.dropFirst(scheme.count))
        var query = ""
        if let q = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: q)...])
            rest = rest[..<q]
        }
        // user:password@ -> user@
        if let at = rest.lastIndex(of: "@") {
            let user = rest[..<at]
            if let colon = user.firstIndex(of: ":") {
                secrets.append(String(user[user.index(after: colon)...]))
                rest = user[..<colon] + rest[at...]
            }
        }
        var kept: [Substring] = []
        for option in query.split(separator: "&") {
            if option.hasPrefix("password=") {
                secrets.append(String(option.dropFirst("password=".count)))
            } else {
                kept.append(option)
            }
        }
        self.display = scheme + rest + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
        var connection = text
        if !query.contains("connect_timeout=") {
            connection += (text.contains("?") ? "&" : "?") + "connect_timeout=5"
        }
        self.connectionString = connection
        self.secrets = (secrets + secrets.map(Self.percentDecoded)).filter { !$0.isEmpty }
    }

    /// `text` with every occurrence of the password replaced by `***`.
    func redact(_ text: String) -> String {
        var t = text
        for s in secrets where t.contains(s) { t = t.replacing(s, with: "***") }
        return t
    }

    private static func percentDecoded(_ s: String) -> String {
        var bytes: [UInt8] = []
        var u = Array(s.utf8)[...]
        while let b = u.popFirst() {
            if b == UInt8(ascii: "%"), u.count >= 2, let v = UInt8(String(decoding: u.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(v)
                u = u.dropFirst(2)
            } else {
                bytes.append(b)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
