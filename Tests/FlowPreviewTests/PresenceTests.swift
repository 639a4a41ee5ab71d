import FlowCore
import Synchronization
import Testing

@testable import FlowPreview

/// Who is connected (PreviewPresence, the hub's list) and one gesture per store's pointer
/// (PagePointers): several pages on one store.
@Suite struct PresenceTests {
    /// The presence message in what `page` was sent now, nil if none.
    func presence(_ hub: PreviewHub, _ page: Int) -> String? {
        hub.take(for: page).messages.first { $0.hasPrefix(#"{"type":"presence""#) }
    }

    @Test func pagesAreNamedInConnectionOrderAndEveryPageIsToldWhoIsThere() {
        let hub = PreviewHub(wake: {})
        hub.addView(1)
        let (one, _) = hub.connect(view: 1)!
        #expect(presence(hub, one) == #"{"type":"presence","you":1,"pages":[{"page":1,"name":"viewer 1","view":1}]}"#)
        #expect(presence(hub, one) == nil)  // nothing new
        let (two, _) = hub.connect(view: nil)!
        let both = #"[{"page":1,"name":"viewer 1","view":1},{"page":2,"name":"viewer 2","view":0}]"#
        #expect(presence(hub, one) == #"{"type":"presence","you":1,"pages":"# + both + "}")
        #expect(presence(hub, two) == #"{"type":"presence","you":2,"pages":"# + both + "}")
        #expect(hub.presence.map(\.name) == ["viewer 1", "viewer 2"])
    }

    @Test func aDisconnectDropsThePageFromEveryonesListAndTellsTheREPL() {
        let wakes = Mutex(0)
        let hub = PreviewHub(wake: { wakes.withLock { $0 += 1 } })
        hub.addView(1)
        let (one, _) = hub.connect(view: 1)!
        let (two, _) = hub.connect(view: 1)!
        _ = presence(hub, one)
        hub.disconnect(two)
        #expect(presence(hub, one) == #"{"type":"presence","you":1,"pages":[{"page":1,"name":"viewer 1","view":1}]}"#)
        #expect(hub.takeDeparted() == [two])
        #expect(hub.takeDeparted().isEmpty)
        #expect(wakes.withLock { $0 } == 3)  // two connections, one departure
        hub.disconnect(two)  // again: nothing
        #expect(hub.takeDeparted().isEmpty)
        let (three, _) = hub.connect(view: 1)!
        #expect(hub.name(of: three) == "viewer 3")  // numbers are not reused
    }

    @Test func aFollowingPageMovingToAnotherStoreIsShownToOthers() throws {
        let hub = PreviewHub(wake: {})
        hub.addView(1)
        hub.addView(2)
        hub.setStores("{}", latest: 1)
        let (watcher, _) = hub.connect(view: 1)!
        let (follower, _) = hub.connect(view: nil)!
        #expect(hub.presence.map(\.view) == [1, 1])
        _ = presence(hub, watcher)
        hub.setStores("{}", latest: 2)
        #expect(presence(hub, watcher)?.contains(#"{"page":2,"name":"viewer 2","view":2}"#) == true)
        try hub.pick(1, for: follower)
        #expect(presence(hub, watcher)?.contains(#"{"page":2,"name":"viewer 2","view":1}"#) == true)
    }

    @Test func givenNamesAreMadeSafeCutAndKeptApart() {
        let hub = PreviewHub(wake: {})
        hub.addView(1)
        let (a, _) = hub.connect(view: 1, name: "Ana")!
        let (b, _) = hub.connect(view: 1, name: "  Ana  ")!
        let (c, _) = hub.connect(view: 1, name: "<script>alert(\"x\")</script>")!
        let (d, _) = hub.connect(view: 1, name: "<>&\"'\u{0}\u{202E}")!
        let (e, _) = hub.connect(view: 1, name: String(repeating: "é", count: 100))!
        let (f, _) = hub.connect(view: 1, name: "Ben\n\t Lee")!
        #expect(hub.name(of: a) == "Ana")
        #expect(hub.name(of: b) == "Ana (2)")
        #expect(hub.name(of: c) == "scriptalertxscript")
        #expect(hub.name(of: d) == "viewer 4")  // nothing left
        #expect(hub.name(of: e) == String(repeating: "é", count: PreviewPresence.maximumNameLength))
        #expect(hub.name(of: f) == "Ben Lee")
        let (g, _) = hub.connect(view: 1, name: "viewer 8")!
        let (h, _) = hub.connect(view: 1)!  // the 8th: its own name is taken
        #expect(hub.name(of: g) == "viewer 8" && hub.name(of: h) == "viewer 8 (8)")
        // what goes to the pages is JSON, whatever the name
        #expect(PreviewPresence.message([.init(page: 1, name: "a\"<b>\\", view: 1)], you: 1)
            == #"{"type":"presence","you":1,"pages":[{"page":1,"name":"a\"<b>\\","view":1}]}"#)
    }

    @Test(arguments: ["", "   ", "\u{200B}\u{200D}", "<>", "💥"])
    func namesWithNothingUsableFallBack(_ name: String) {
        #expect(PreviewPresence.sanitized(name) == nil)
    }

    @Test func connectionsBeyondTheCapAreRefusedAndDoNotShowUp() {
        let hub = PreviewHub(maximumPages: 3, wake: {})
        hub.addView(1)
        let pages = (0..<3).map { _ in hub.connect(view: 1)!.page }
        #expect(hub.connect(view: 1) == nil)
        #expect(hub.presence.count == 3)
        hub.disconnect(pages[0])
        #expect(hub.connect(view: 1)?.page == 4)  // a place again
        #expect(hub.presence.map(\.page) == [2, 3, 4])
    }

    @Test func oneGestureHoldsAStoresPointerAndALaterPressEndsIt() {
        var p = PagePointers()
        let r1 = p.press(view: 1, page: 1, at: Point(0, 0))
        #expect(r1 == nil)
        let r2 = p.follow(view: 1, page: 1, ending: false, at: Point(5, 5))
        #expect(r2)
        let r3 = p.follow(view: 1, page: 2, ending: false, at: Point(9, 9))  // not page 2's gesture
        #expect(!r3)
        let r4 = p.press(view: 2, page: 2, at: Point(1, 1))  // another store: its own pointer
        #expect(r4 == nil)
        let r5 = p.press(view: 1, page: 2, at: Point(7, 7))
        #expect(r5 == PagePointers.Hold(page: 1, last: Point(5, 5)))
        let r6 = p.follow(view: 1, page: 1, ending: true, at: Point(6, 6))  // page 1's release: ignored
        #expect(!r6)
        #expect(p.holder(of: 1) == 2)
        let r7 = p.follow(view: 1, page: 2, ending: true, at: Point(8, 8))
        #expect(r7)
        #expect(p.holder(of: 1) == nil)
        let r8 = p.press(view: 1, page: 3, at: Point(0, 0))
        #expect(r8 == nil)
        let r9 = p.press(view: 1, page: 3, at: Point(2, 2))  // its own again: nothing to end
        #expect(r9 == nil)
        let r10 = p.leave(page: 2)
        #expect(r10 == [2])
        let r11 = p.leave(page: 3)
        #expect(r11 == [1])
        #expect(p.holder(of: 1) == nil && p.holder(of: 2) == nil)
    }

    @Test func addAndDeleteRequests() throws {
        #expect(try PageRequest.parse(#"{"type":"add","x":10,"y":-2.5}"#) == .add(x: 10, y: -2.5, label: nil))
        #expect(try PageRequest.parse(#"{"type":"add","x":0,"y":0,"label":"Cache"}"#) == .add(x: 0, y: 0, label: "Cache"))
        #expect(try PageRequest.parse(#"{"type":"delete"}"#) == .delete)
        #expect(throws: PageRequestError("add: field 'y' (a finite number) expected")) {
            try PageRequest.parse(#"{"type":"add","x":1}"#)
        }
        #expect(throws: PageRequestError("add: field 'x' (a finite number) expected")) {
            try PageRequest.parse(#"{"type":"add","x":1e300,"y":0}"#)
        }
        #expect(throws: PageRequestError("add: field 'label' (a string of at most 200 characters) expected")) {
            try PageRequest.parse(#"{"type":"add","x":1,"y":0,"label":7}"#)
        }
    }
}
