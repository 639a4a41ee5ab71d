import Glibc

/// A TCP client for the server's tests, speaking HTTP and WebSocket frames by hand (so it
/// can send what a browser never would: unmasked frames, slow heads, no pongs). Every read
/// gives up after `timeout` seconds, a safety net only: the tests wait for events, never
/// for time to pass.
final class RawClient {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int, timeout: Int = 10) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var tv = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else {
            close(fd)
            throw RawClientError.connect
        }
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    /// Reads more; false at the end of the stream (or an error, or the safety timeout).
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = recv(fd, &chunk, chunk.count, 0)
        guard n > 0 else { return false }
        buffer += chunk[0..<n]
        return true
    }

    /// Whether the server closed the connection (reads to the end, dropping what comes).
    func closedByServer() -> Bool {
        while fill() { buffer.removeAll() }
        return errno != EAGAIN && errno != EWOULDBLOCK
    }

    /// The response head of an HTTP request: its status code and text.
    func head() -> (status: Int, text: String)? {
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            if let i = buffer.indices.first(where: { buffer[$0...].starts(with: end) }) {
                let text = String(decoding: buffer[..<i], as: UTF8.self)
                buffer.removeFirst(i + 4)
                let parts = text.split(separator: " ", maxSplits: 2)
                return parts.count >= 2 ? (Int(parts[1]) ?? 0, text) : nil
            }
            guard fill() else { return nil }
        }
    }

    /// Sends a GET of `target` with `headers` (a `Host` unless one is given) and reads the
    /// response's status.
    func get(_ target: String, port: Int, _ headers: [String: String] = [:], upgrade: Bool = false) -> Int? {
        sendGet(target, port: port, headers, upgrade: upgrade)
        return head()?.status
    }

    /// As `get`, and the response's body (as long as its `Content-Length` says).
    func fetch(_ target: String, port: Int, _ headers: [String: String] = [:], upgrade: Bool = false) -> (status: Int, body: String)? {
        sendGet(target, port: port, headers, upgrade: upgrade)
        guard let (status, text) = head() else { return nil }
        let length = text.split(separator: "\r\n").lazy.compactMap { line -> Int? in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
            return Int(parts[1].trimmingPrefix(" "))
        }.first ?? 0
        while buffer.count < length { guard fill() else { break } }
        let body = String(decoding: buffer.prefix(length), as: UTF8.self)
        buffer.removeFirst(min(length, buffer.count))
        return (status, body)
    }

    private func sendGet(_ target: String, port: Int, _ headers: [String: String], upgrade: Bool) {
        var h = headers
        if h["Host"] == nil { h["Host"] = "127.0.0.1:\(port)" }
        if upgrade {
            h["Upgrade"] = "websocket"
            h["Connection"] = "Upgrade"
            h["Sec-WebSocket-Key"] = "dGhlIHNhbXBsZSBub25jZQ=="
            h["Sec-WebSocket-Version"] = "13"
        }
        send("GET \(target) HTTP/1.1\r\n" + h.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)\r\n" }.joined() + "\r\n")
    }

    /// Sends one frame, masked unless `masked` is false, the last of its message unless
    /// `fin` is false; only its first `prefix` bytes if given (a header that announces more
    /// than is sent).
    func sendFrame(opcode: UInt8, _ payload: [UInt8], masked: Bool = true, fin: Bool = true, prefix: Int? = nil) {
        let frame = Self.frame(opcode: opcode, payload, masked: masked, fin: fin)
        send(prefix.map { Array(frame.prefix($0)) } ?? frame)
    }

    static func frame(opcode: UInt8, _ payload: [UInt8], masked: Bool, fin: Bool) -> [UInt8] {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let maskBit: UInt8 = masked ? 0x80 : 0
        if payload.count < 126 {
            frame.append(maskBit | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            frame += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(maskBit | 127)
            frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        if masked {
            let key: [UInt8] = [0x12, 0x34, 0x56, 0x78]
            frame += key
            frame += payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
        } else {
            frame += payload
        }
        return frame
    }

    /// The next frame from the server: its opcode and payload; nil at the end.
    func frame() -> (opcode: UInt8, payload: [UInt8])? {
        func need(_ n: Int) -> Bool {
            while buffer.count < n { guard fill() else { return false } }
            return true
        }
        guard need(2) else { return nil }
        var length = Int(buffer[1] & 0x7F), offset = 2
        if length == 126 {
            guard need(4) else { return nil }
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            offset = 4
        } else if length == 127 {
            guard need(10) else { return nil }
            length = (2..<10).reduce(0) { $0 << 8 | Int(buffer[$1]) }
            offset = 10
        }
        guard need(offset + length) else { return nil }
        let opcode = buffer[0] & 0x0F
        let payload = Array(buffer[offset..<(offset + length)])
        buffer.removeFirst(offset + length)
        return (opcode, payload)
    }

    /// The next text frame's text, skipping other frames; nil at the end.
    func text() -> String? {
        while let f = frame() {
            if f.opcode == 1 { return String(decoding: f.payload, as: UTF8.self) }
            if f.opcode == 8 { return nil }
        }
        return nil
    }
}

enum RawClientError: Error { case connect }

/// The server's side of this process's TCP connections to `port`: established sockets
/// with that local port that the process holds (accepted, not only queued by the kernel).
func acceptedConnections(port: Int) -> Int {
    var inodes = Set<String>()
    if let dir = opendir("/proc/self/fd") {
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            var link = [CChar](repeating: 0, count: 256)
            let n = readlink("/proc/self/fd/\(name)", &link, link.count - 1)
            guard n > 0 else { continue }
            let text = String(decoding: link[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.hasPrefix("socket:[") { inodes.insert(String(text.dropFirst(8).dropLast())) }
        }
    }
    var count = 0
    for table in ["/proc/self/net/tcp", "/proc/self/net/tcp6"] {
        guard let f = fopen(table, "r") else { continue }
        defer { fclose(f) }
        var line: UnsafeMutablePointer<CChar>?
        var size = 0
        while getline(&line, &size, f) > 0 {
            let fields = String(cString: line!).split(separator: " ")
            guard fields.count > 9, let local = fields[1].split(separator: ":").last, Int(local, radix: 16) == port,
                fields[3] == "01", inodes.contains(String(fields[9]))
            else { continue }
            count += 1
        }
        free(line)
    }
    return count
}
