import Glibc

/// Who may open the preview's page and WebSocket (docs/preview.md, "Who can connect").
///
/// A browser lets any web page open a WebSocket to any address, the preview's loopback one
/// included, and tells the server only the page's origin. So every request is checked:
///
/// - its `Origin`, when it has one (browsers always send it for a WebSocket), must be the
///   preview's own origin, `http://` and the `Host` it asked for: a page of another
///   site cannot read frames or send clicks;
/// - with a token (`--token`, or the one made up when the server listens beyond loopback)
///   the request must carry it, `?token=...`: the page's address has it and the page
///   passes it to its WebSocket;
/// - without one, the `Host` must name the loopback address the server listens on, with
///   its port (`127.0.0.1:8080`, `localhost:8080`, `[::1]:8080`): a site whose name was
///   made to point at 127.0.0.1 (DNS rebinding) is refused too.
///
/// Port 80 may be left out, as browsers do (`Host: 127.0.0.1`, `Origin: http://127.0.0.1`).
public struct PreviewAccess: Sendable, Equatable {
    /// The token every request must carry, if any.
    public let token: String?
    /// The `Host` values accepted without a token.
    let hosts: Set<String>

    /// The access for a server listening at `address` (its port known), with `token` if
    /// one was given.
    public init(address: ServeAddress, token: String?) {
        self.token = token
        let port = address.port
        var names = [ServeAddress(host: address.host, port: port).description]
        if Self.isLoopback(address.host) {
            names += ["127.0.0.1", "localhost", "[::1]"].map { "\($0):\(port)" }
        }
        hosts = Set(names.map(Self.canonical))
    }

    /// Whether a request may have the page or a WebSocket: its `Host` and `Origin` headers
    /// and the `token` of its query.
    public func allows(host: String?, origin: String?, token given: String?) -> Bool {
        refusal(host: host, origin: origin, token: given) == nil
    }

    /// Why a request may not have the page or a WebSocket (the text of its 403 response),
    /// nil when it may.
    public func refusal(host: String?, origin: String?, token given: String?) -> String? {
        guard let host = host.map(Self.canonical), !host.isEmpty else { return "the request names no Host" }
        if let origin {
            let scheme = "http://"
            guard origin.lowercased().hasPrefix(scheme), Self.canonical(String(origin.dropFirst(scheme.count))) == host
            else { return "a page of another origin" }
        }
        if let token {
            guard let given else { return "the token is missing" }
            return Self.same(given, token) ? nil : "the token is wrong"
        }
        return hosts.contains(host) ? nil : "the Host is not the preview's address"
    }

    /// The body of the 403 response to a request refused for `reason`.
    static func forbidden(_ reason: String) -> String {
        "forbidden: \(reason); open the address flowrepl printed\n"
    }

    /// `host:port` lowercased, without the port when it is 80 (browsers leave the default
    /// port out of `Host` and `Origin`).
    static func canonical(_ authority: String) -> String {
        let a = authority.lowercased()
        guard a.hasSuffix(":80") else { return a }
        let name = a.dropLast(3)
        return name.hasSuffix("]") || !name.contains(":") ? String(name) : a
    }

    /// Whether `host` is a loopback name or address: the only hosts the server may listen
    /// on without a token. `localhost`, `::1` or an IPv4 address 127.x.y.z written as
    /// one; a name that only starts like one (`127.0.0.1.example.com`) is not.
    public static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" { return true }
        var address = in_addr()
        return inet_pton(AF_INET, host, &address) == 1 && UInt32(bigEndian: address.s_addr) >> 24 == 127
    }

    /// Checks a token given with `--token`: nil when it will do, else why not.
    public static func problem(with token: String) -> String? {
        let allowed = token.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2D || c == 0x5F || c == 0x2E || c == 0x7E
        }
        if !allowed { return "a token has only letters, digits and - _ . ~ (it goes into the page's address)" }
        if token.utf8.count < 16 { return "a token has at least 16 characters" }
        return nil
    }

    /// A new random token: 32 hexadecimal digits (128 bits from the system's generator).
    public static func makeToken() -> String {
        var g = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(g.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// Compares in time that does not depend on where the first difference is.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var diff: UInt8 = 0
        for i in x.indices { diff |= x[i] ^ y[i] }
        return diff == 0
    }
}
