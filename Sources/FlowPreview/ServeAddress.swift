/// Where the preview server listens: `--serve [HOST:]PORT`. Loopback unless a host is
/// given.
public struct ServeAddress: Sendable, Equatable, CustomStringConvertible {
    public static let defaultHost = "127.0.0.1"
    public static let defaultPort = 8080

    public var host: String
    /// 0 picks a free port (the URL printed names it).
    public var port: Int

    public init(host: String = ServeAddress.defaultHost, port: Int = ServeAddress.defaultPort) {
        self.host = host
        self.port = port
    }

    /// Reads `PORT`, `HOST:PORT` or `[IPv6]:PORT`; nil when it is neither.
    public init?(parsing text: String) {
        var host = ServeAddress.defaultHost
        var portText = Substring(text)
        if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
            if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            if host.isEmpty { return nil }
        }
        guard !portText.isEmpty, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
            let port = Int(portText), port <= 65535
        else { return nil }
        self.host = host
        self.port = port
    }

    /// `host:port`, bracketing an IPv6 host.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
