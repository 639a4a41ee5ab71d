import Glibc
import NIOCore
import Testing

@testable import FlowPreview

/// The server against hostile clients (#43): other origins, other hosts, missing tokens,
/// unmasked frames, large messages, idle and slow connections, too many connections.
@Suite(.serialized) struct PreviewServerTests {
    /// A server on a free loopback port with view 1 open.
    func server(token: String? = nil, _ change: (inout PreviewLimits) -> Void = { _ in }) throws -> PreviewServer {
        let hub = PreviewHub(wake: {})
        hub.addView(1)
        var limits = PreviewLimits()
        change(&limits)
        return try PreviewServer(address: ServeAddress(host: "127.0.0.1", port: 0), hub: hub, token: token, limits: limits)
    }

    /// A WebSocket to view 1, upgraded (101), past the first message: who is connected.
    func socket(_ s: PreviewServer, _ query: String = "") throws -> RawClient {
        let c = try RawClient(port: s.address.port)
        let status = c.get("/ws?view=1" + query, port: s.address.port, ["Origin": "http://127.0.0.1:\(s.address.port)"], upgrade: true)
        #expect(status == 101)
        if status == 101 { #expect(c.text()?.hasPrefix(#"{"type":"presence","#) == true) }
        return c
    }

    @Test func aPageIsNamedByItsAddressAndEveryPageHearsOfTheOthers() async throws {
        try await offThePool {
            let s = try server()
            let ana = try socket(s, "&name=Ana%20%3Cb%3E")
            let other = try socket(s)
            let both = #"[{"page":1,"name":"Ana b","view":1},{"page":2,"name":"viewer 2","view":1}]"#
            #expect(ana.text() == #"{"type":"presence","you":1,"pages":"# + both + "}")
            shutdown(other.fd, Int32(SHUT_RDWR))  // gone
            #expect(ana.text() == #"{"type":"presence","you":1,"pages":[{"page":1,"name":"Ana b","view":1}]}"#)
        }
    }

    @Test func aPageOfAnotherSiteCannotOpenAWebSocketOrThePage() async throws {
        try await offThePool {
            let s = try server()
            let port = s.address.port
            #expect(try RawClient(port: port).get("/ws", port: port, ["Origin": "http://evil.example"], upgrade: true) == 403)
            #expect(try RawClient(port: port).get("/ws", port: port, ["Origin": "null"], upgrade: true) == 403)
            // DNS rebinding: another name for 127.0.0.1, the page's own origin by that name
            let rebound = ["Host": "evil.example:\(port)", "Origin": "http://evil.example:\(port)"]
            #expect(try RawClient(port: port).get("/ws", port: port, rebound, upgrade: true) == 403)
            #expect(try RawClient(port: port).get("/", port: port, rebound) == 403)
            // its own origin, by any loopback name
            #expect(try RawClient(port: port).get("/", port: port) == 200)
            #expect(try RawClient(port: port).get("/", port: port, ["Host": "localhost:\(port)"]) == 200)
            #expect(try RawClient(port: port).get("/ws", port: port, ["Origin": "http://localhost:\(port)", "Host": "localhost:\(port)"], upgrade: true) == 101)
            #expect(s.url(view: 2) == "http://127.0.0.1:\(port)/?view=2")
        }
    }

    /// A refused upgrade is 403 Forbidden with the reason (Hummingbird answered an empty 400
    /// Bad Request); the connection closes. A full server still answers 400.
    @Test func aRefusedUpgradeIsForbiddenWithItsReason() async throws {
        try await offThePool {
            let s = try server()
            let port = s.address.port
            func refused(_ headers: [String: String], _ target: String = "/ws?view=1") throws -> String? {
                let c = try RawClient(port: port)
                guard let r = c.fetch(target, port: port, headers, upgrade: true) else { return nil }
                #expect(r.status == 403)
                #expect(c.closedByServer())
                return r.body
            }
            let after = "; open the address flowrepl printed\n"
            #expect(try refused(["Origin": "http://evil.example"]) == "forbidden: a page of another origin" + after)
            #expect(try refused(["Host": "evil.example:\(port)"]) == "forbidden: the Host is not the preview's address" + after)
            #expect(try refused(["Host": ""]) == "forbidden: the request names no Host" + after)
            let t = try server(token: "abcdefghijklmnop-1234")
            let tp = t.address.port
            #expect(try RawClient(port: tp).fetch("/ws", port: tp, [:], upgrade: true)?.body == "forbidden: the token is missing" + after)
            #expect(try RawClient(port: tp).fetch("/ws?token=abcdefghijklmnop-1235", port: tp, [:], upgrade: true)?.body == "forbidden: the token is wrong" + after)
            #expect(try RawClient(port: tp).fetch("/?token=x", port: tp)?.body == "forbidden: the token is wrong" + after)
            // allowed, the upgrade still works, and so does the page over the gate's connection
            _ = try socket(s)
            #expect(try RawClient(port: port).get("/", port: port) == 200)
            // refused for another reason than access: Hummingbird's 400
            #expect(try RawClient(port: port).get("/ws?view=9", port: port, [:], upgrade: true) == 400)
        }
    }

    @Test func aTokenIsNeededWhenGivenAndMadeUpBeyondLoopback() async throws {
        try await offThePool {
            let token = "abcdefghijklmnop-1234"
            let s = try server(token: token)
            let port = s.address.port
            #expect(try RawClient(port: port).get("/", port: port) == 403)
            #expect(try RawClient(port: port).get("/?token=abcdefghijklmnop-1235", port: port) == 403)
            #expect(try RawClient(port: port).get("/?token=\(token)", port: port) == 200)
            #expect(try RawClient(port: port).get("/ws", port: port, [:], upgrade: true) == 403)
            _ = try socket(s, "&token=\(token)")
            #expect(s.url() == "http://127.0.0.1:\(port)/?token=\(token)")
            #expect(s.url(view: 3) == "http://127.0.0.1:\(port)/?view=3&token=\(token)")

            let wide = try PreviewServer(address: ServeAddress(host: "0.0.0.0", port: 0), hub: PreviewHub(wake: {}))
            let made = try #require(wide.access.token)
            #expect(made.count == 32 && PreviewAccess.problem(with: made) == nil)
            #expect(wide.url() == "http://localhost:\(wide.address.port)/?token=\(made)")
            let w = wide.address.port
            #expect(try RawClient(port: w).get("/", port: w) == 403)  // loopback Host, no token
            #expect(try RawClient(port: w).get("/ws", port: w, [:], upgrade: true) == 403)
            #expect(try RawClient(port: w).get("/?token=\(made)", port: w) == 200)
            for host in ["0.0.0.0", "::", "192.168.1.2", "example.com", "127.example.com", "127.0.0.1.nip.io", "localhost.example"] {
                #expect(!PreviewAccess.isLoopback(host), "\(host) needs a token")
            }
            for host in ["127.0.0.1", "127.1.2.3", "localhost", "::1"] { #expect(PreviewAccess.isLoopback(host)) }
            #expect(PreviewAccess.problem(with: "short") != nil)
            #expect(PreviewAccess.problem(with: "has spaces in it, sixteen+") != nil)
        }
    }

    /// A page's message of exactly `size` bytes (an unknown type: the reply is an error).
    func message(size: Int) -> [UInt8] {
        let head = Array(#"{"type":"bogus","pad":""#.utf8), tail = Array(#""}"#.utf8)
        return head + [UInt8](repeating: 0x78, count: size - head.count - tail.count) + tail
    }

    static let bogus = #"{"type":"error","message":"message: unknown type 'bogus'"}"#

    @Test func messagesUpTo64KiBAreRead() async throws {
        try await offThePool {
            let s = try server()
            let c = try socket(s)
            c.sendFrame(opcode: 1, message(size: 65_536))  // one frame
            #expect(c.text() == Self.bogus)
            let m = message(size: 65_536)  // three frames
            c.sendFrame(opcode: 1, Array(m[..<30_000]), fin: false)
            c.sendFrame(opcode: 0, Array(m[30_000..<60_000]), fin: false)
            c.sendFrame(opcode: 0, Array(m[60_000...]))
            #expect(c.text() == Self.bogus)
        }
    }

    /// A frame or message over 64 KiB closes the socket with 1009 (message too big), a
    /// message of several frames too (it closed with 1000).
    @Test(arguments: [false, true]) func aMessageOver64KiBClosesWith1009(fragmented: Bool) async throws {
        try await offThePool {
            let s = try server()
            let c = try socket(s)
            let m = message(size: 65_537)
            if fragmented {
                c.sendFrame(opcode: 1, Array(m[..<40_000]), fin: false)
                c.sendFrame(opcode: 0, Array(m[40_000...]))
            } else {
                c.sendFrame(opcode: 1, m, prefix: 14)  // the header alone: refused before the rest comes
            }
            var close: (opcode: UInt8, payload: [UInt8])?
            while close == nil, let f = c.frame() { if f.opcode == 8 { close = f } }  // past presence
            #expect(close?.payload.prefix(2) == [0x03, 0xF1], "\(close.map { Array($0.payload.prefix(2)) } ?? [])")
            c.sendFrame(opcode: 8, [0x03, 0xF1])  // the client's side of the closing handshake
            #expect(c.closedByServer())
        }
    }

    /// RFC 6455, 8.1: a text message that is not UTF-8 closes the socket with 1007 (it was
    /// read, the bad bytes replaced).
    @Test func aTextMessageThatIsNotUTF8ClosesWith1007() async throws {
        try await offThePool {
            let s = try server()
            let c = try socket(s)
            c.sendFrame(opcode: 1, Array(#"{"type":"select","node":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8))
            var close: (opcode: UInt8, payload: [UInt8])?
            while close == nil, let f = c.frame() { if f.opcode == 8 { close = f } }
            #expect(close?.payload.prefix(2) == [0x03, 0xEF], "\(close.map { Array($0.payload.prefix(2)) } ?? [])")
            c.sendFrame(opcode: 8, [0x03, 0xEF])
            #expect(c.closedByServer())
        }
    }

    @Test func port80IsLeftOutOfHostAndOrigin() {
        // browsers send `Host: 127.0.0.1` and `Origin: http://127.0.0.1` for port 80
        let at80 = PreviewAccess(address: ServeAddress(host: "127.0.0.1", port: 80), token: nil)
        for host in ["127.0.0.1", "localhost", "[::1]", "LOCALHOST"] {
            #expect(at80.allows(host: host, origin: "http://\(host)", token: nil), "\(host)")
            #expect(at80.allows(host: host + ":80", origin: "http://\(host)", token: nil), "\(host):80")
            #expect(at80.allows(host: host, origin: "http://\(host):80", token: nil), "\(host), origin :80")
        }
        #expect(!at80.allows(host: "evil.example", origin: "http://evil.example", token: nil))
        #expect(!at80.allows(host: "127.0.0.1", origin: "http://evil.example", token: nil))
        #expect(!at80.allows(host: "127.0.0.1", origin: "https://127.0.0.1", token: nil))
        #expect(!at80.allows(host: ":80", origin: nil, token: nil))
        let at8080 = PreviewAccess(address: ServeAddress(host: "127.0.0.1", port: 8080), token: nil)
        #expect(!at8080.allows(host: "127.0.0.1", origin: "http://127.0.0.1", token: nil))
        #expect(!at8080.allows(host: "127.0.0.1:8080", origin: "http://127.0.0.1", token: nil))
        #expect(at8080.allows(host: "127.0.0.1:8080", origin: "http://127.0.0.1:8080", token: nil))
    }

    @Test(arguments: [(UInt8(1), Array("{}".utf8)), (UInt8(9), []), (UInt8(8), [0x03, 0xE8])])
    func anUnmaskedFrameClosesWith1002(opcode: UInt8, payload: [UInt8]) async throws {
        try await offThePool {
            let s = try server()
            let c = try socket(s)
            c.sendFrame(opcode: opcode, payload, masked: false)
            let close = c.frame()
            #expect(close?.opcode == 8)
            #expect(close?.payload.prefix(2) == [0x03, 0xEA])  // 1002
            #expect(c.closedByServer())
        }
    }

    /// An unmasked frame sent in the same write as the upgrade request (so it is read
    /// before the upgrade is done) is refused too.
    @Test func anUnmaskedFrameRightBehindTheUpgradeClosesWith1002() async throws {
        try await offThePool {
            let s = try server()
            let port = s.address.port
            let c = try RawClient(port: port)
            let request = "GET /ws?view=1 HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://127.0.0.1:\(port)\r\n"
                + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                + "Sec-WebSocket-Version: 13\r\n\r\n"
            c.send(Array(request.utf8) + RawClient.frame(opcode: 1, Array(#"{"type":"clearSelection"}"#.utf8), masked: false, fin: true))
            #expect(c.head()?.status == 101)
            var frames: [UInt8] = []
            while let f = c.frame() {
                frames.append(f.opcode)
                if f.opcode == 8 { #expect(f.payload.prefix(2) == [0x03, 0xEA]) }
            }
            #expect(frames.last == 8, "\(frames)")
            #expect(s.hub.takeRequests().isEmpty, "the unmasked request reached the store")
        }
    }

    @Test func aMaskedPingIsAnswered() async throws {
        try await offThePool {
            let s = try server()
            let c = try socket(s)
            c.sendFrame(opcode: 9, [1, 2, 3])
            #expect(c.frame().map { ($0.opcode, $0.payload) } ?? (0, []) == (10, [1, 2, 3]))
        }
    }

    /// (NIO accepts a connection or two past the count now and then, 10 of 8 in 5 of 15
    /// fresh servers: this test saw "9 of 8" under load. `GuardedChannel` closes those at
    /// once.)
    @Test func connectionsBeyondTheLimitWaitUnaccepted() async throws {
        try await offThePool {
            let s = try server { $0.connections = 8 }
            let port = s.address.port
            let clients = try (0..<24).map { _ in try RawClient(port: port) }
            // wait until the server took some, then watch it never hold more than the limit
            var held = 0
            for _ in 0..<5000 where held < 5 {  // (up to 10 s on a loaded machine)
                held = acceptedConnections(port: port)
                usleep(2000)
            }
            #expect(held >= 5)
            for _ in 0..<20 {  // (one past the limit is closed at once: a look may see it)
                held = max(held, (0..<3).map { _ in
                    usleep(2000)
                    return acceptedConnections(port: port)
                }.min()!)
            }
            #expect(held <= 8, "the server holds \(held) connections")
            // they are served when places free up
            let last = clients.last!
            drop(clients.dropLast())
            #expect(last.get("/", port: port) == 200)
        }
    }

    func drop(_ clients: ArraySlice<RawClient>) { for c in clients { shutdown(c.fd, Int32(SHUT_RDWR)) } }

    @Test func webSocketsBeyondTheLimitAreRefused() async throws {
        try await offThePool {
            let s = try server { $0.webSockets = 2 }
            let port = s.address.port
            let first = try socket(s)
            let second = try socket(s)
            defer { withExtendedLifetime(second) {} }
            #expect(try RawClient(port: port).get("/ws", port: port, [:], upgrade: true) == 400)
            shutdown(first.fd, Int32(SHUT_RDWR))
            #expect(first.closedByServer())
            var status: Int?
            for _ in 0..<2000 where status != 101 {  // the place is given back as the close is seen
                status = try RawClient(port: port).get("/ws", port: port, [:], upgrade: true)
                if status != 101 { usleep(5000) }
            }
            #expect(status == 101)
        }
    }

    @Test func aSlowRequestHeadIsCutOffButAWebSocketStays() async throws {
        try await offThePool {
            let s = try server { $0.requestTimeout = .seconds(1) }
            let port = s.address.port
            let socket = try socket(s)
            // a loaded machine may run the server's 1 s timer late: wait up to 30 s for it
            let slow = try RawClient(port: port, timeout: 30)
            slow.send("GET / HTTP/1.1\r\nHost: 127.")
            #expect(slow.closedByServer())
            // the WebSocket, older than the timeout by now, still answers
            socket.sendFrame(opcode: 1, Array("[]".utf8))
            #expect(socket.text() == #"{"type":"error","message":"message: a JSON object expected"}"#)
        }
    }

    @Test func aWebSocketThatAnswersItsPingsStays() async throws {
        try await offThePool {
            let s = try server { $0.pingPeriod = .milliseconds(50) }
            let c = try socket(s)
            var pings = 0
            while pings < 6, let f = c.frame() {  // as a browser does: a pong for each ping
                if f.opcode == 9 {
                    pings += 1
                    c.sendFrame(opcode: 10, f.payload)
                }
            }
            #expect(pings == 6)
            c.sendFrame(opcode: 1, Array("[]".utf8))
            #expect(c.text() == #"{"type":"error","message":"message: a JSON object expected"}"#)
        }
    }

    /// flowrepl raises the soft limit of descriptors to the hard one when the preview starts.
    @Test func theDescriptorLimitIsRaisedToTheHardOne() throws {
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        var before = rlimit()
        try #require(getrlimit(resource, &before) == 0)
        defer { _ = setrlimit(resource, &before) }
        var lowered = before
        lowered.rlim_cur = min(before.rlim_max, 256) / 2
        try #require(setrlimit(resource, &lowered) == 0)
        let now = PreviewLimits.raiseDescriptorLimit()
        var after = rlimit()
        _ = getrlimit(resource, &after)
        #expect(after.rlim_cur == before.rlim_max && now == Int(after.rlim_cur))
    }

    @Test func aWebSocketThatAnswersNoPingIsClosed() async throws {
        try await offThePool {
            let s = try server { $0.pingPeriod = .milliseconds(100) }
            let c = try socket(s)
            var opcodes: [UInt8] = []
            while let f = c.frame() { opcodes.append(f.opcode) }  // to the end: pings, then a close
            #expect(opcodes.contains(9) && opcodes.last == 8, "\(opcodes)")
        }
    }
}
