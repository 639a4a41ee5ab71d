import Testing

@testable import FlowPreview

@Suite struct PageRequestTests {
    @Test func wellFormedRequests() throws {
        #expect(try PageRequest.parse(#"{"type":"select","node":"a"}"#) == .select(.node, id: "a", add: false))
        #expect(try PageRequest.parse(#"{"type":"select","edge":"e1","add":true}"#) == .select(.edge, id: "e1", add: true))
        #expect(try PageRequest.parse(#"{"type":"clearSelection"}"#) == .clearSelection)
        #expect(try PageRequest.parse(#"{"type":"pointer","phase":"move","x":1.5,"y":-2}"#) == .pointer(.move, x: 1.5, y: -2))
        #expect(try PageRequest.parse(#"{"type":"pointer","phase":"cancel"}"#) == .pointer(.cancel, x: 0, y: 0))
        #expect(try PageRequest.parse(#"{"type":"view","view":3}"#) == .view(3))
        #expect(try PageRequest.parse(#"{"type":"view","view":null}"#) == .view(nil))
        #expect(try PageRequest.parse(#"{"type":"view"}"#) == .view(nil))
    }

    @Test(arguments: [
        ("not json", "message: invalid JSON at line 1, column 1"),
        ("[1]", "message: a JSON object expected"),
        (#"{"kind":"select"}"#, "message: field 'type' (a string) expected"),
        (#"{"type":"explode"}"#, "message: unknown type 'explode'"),
        (#"{"type":"select"}"#, "select: one of 'node' or 'edge' (a string id) expected"),
        (#"{"type":"select","node":"a","edge":"b"}"#, "select: one of 'node' or 'edge' (a string id) expected"),
        (#"{"type":"select","node":7}"#, "select: one of 'node' or 'edge' (a string id) expected"),
        (#"{"type":"select","node":"a","add":"yes"}"#, "select: field 'add' must be a boolean"),
        (#"{"type":"pointer","phase":"drag","x":1,"y":2}"#, "pointer: field 'phase' expected (down, move, up or cancel)"),
        (#"{"type":"pointer","phase":"down","y":2}"#, "pointer: field 'x' (a finite number) expected"),
        (#"{"type":"view","view":"2"}"#, "view: field 'view' (a store's view number or null) expected"),
        (#"{"type":"view","view":1.5}"#, "view: field 'view' (a store's view number or null) expected"),
        (#"{"type":"view","view":0}"#, "view: field 'view' (a store's view number or null) expected"),
    ])
    func malformedRequestsAreRefusedWithAMessage(text: String, message: String) {
        #expect(throws: PageRequestError.self) { try PageRequest.parse(text) }
        do { _ = try PageRequest.parse(text) } catch { #expect(error.message.hasPrefix(message), "\(error.message)") }
    }
}

@Suite struct ServeAddressTests {
    @Test func portAloneIsLoopback() {
        #expect(ServeAddress(parsing: "9000") == ServeAddress(host: "127.0.0.1", port: 9000))
        #expect(ServeAddress() == ServeAddress(host: "127.0.0.1", port: 8080))
    }

    @Test func hostAndPort() {
        #expect(ServeAddress(parsing: "0.0.0.0:80") == ServeAddress(host: "0.0.0.0", port: 80))
        #expect(ServeAddress(parsing: "[::1]:8080") == ServeAddress(host: "::1", port: 8080))
        #expect(ServeAddress(host: "::1", port: 8080).description == "[::1]:8080")
    }

    @Test(arguments: ["", "x", ":80", "host:", "host:port", "70000", "-1", "12 3"])
    func badAddresses(text: String) {
        #expect(ServeAddress(parsing: text) == nil)
    }
}
