import Synchronization
import Testing

@testable import FlowPreview

@Suite struct PreviewHubTests {
    func frame(_ view: Int, _ revision: Int) -> PreviewFrame {
        PreviewFrame(view: view, revision: revision, svg: "<svg>\(revision)</svg>", warnings: [], changedAt: 0)
    }

    /// What a page was sent besides frames and the list of who is connected.
    func said(_ out: PreviewHub.Outgoing) -> [String] {
        out.messages.filter { !$0.hasPrefix(#"{"type":"presence""#) }
    }

    @Test func aPageGetsOnlyTheLatestFrame() {
        let hub = PreviewHub(wake: {})
        hub.addView(1)
        let (page, _) = hub.connect(view: 1)!
        for r in 1...10_000 { hub.publish(frame(1, r)) }
        #expect(hub.take(for: page).frame?.revision == 10_000)
        #expect(hub.take(for: page).frame == nil)  // nothing new since
        hub.publish(frame(1, 10_001))
        #expect(hub.take(for: page).frame?.revision == 10_001)
    }

    @Test func aPageConnectingLateGetsTheLastFinishedFrameAndNotice() {
        let hub = PreviewHub(wake: {})
        hub.addView(1)
        hub.publish(frame(1, 3))
        hub.notify(view: 1, "broken")
        let (page, _) = hub.connect(view: 1)!
        let out = hub.take(for: page)
        #expect(out.frame?.revision == 3)
        #expect(said(out) == [PreviewMessages.notice("broken")])
    }

    @Test func aNoticeStaysUntilCleared() {
        let hub = PreviewHub(wake: {})
        hub.addView(1)
        let (page, _) = hub.connect(view: 1)!
        hub.notify(view: 1, "broken")
        hub.publish(frame(1, 2))  // a new picture (a click) is no fix
        #expect(said(hub.take(for: page)) == [PreviewMessages.notice("broken")])
        let (late, _) = hub.connect(view: 1)!
        #expect(said(hub.take(for: late)) == [PreviewMessages.notice("broken")])
        hub.clearNotice(view: 1)
        #expect(said(hub.take(for: page)) == [PreviewMessages.notice("")])
        let (later, _) = hub.connect(view: 1)!
        #expect(said(hub.take(for: later)).isEmpty)
    }

    @Test func framesGoToThePagesOfTheirViewOnly() {
        let hub = PreviewHub(wake: {})
        hub.addView(1)
        hub.addView(2)
        let (one, _) = hub.connect(view: 1)!
        let (two, _) = hub.connect(view: 2)!
        hub.publish(frame(2, 1))
        #expect(hub.take(for: one).frame == nil)
        #expect(hub.take(for: two).frame?.view == 2)
        #expect(hub.pageCount(view: 1) == 1)
        #expect(hub.hasView(2) && !hub.hasView(3))
    }

    @Test func requestsQueueWithTheirPageAndWakeTheREPL() {
        let wakes = Mutex(0)
        let hub = PreviewHub(wake: { wakes.withLock { $0 += 1 } })
        hub.addView(1)
        let (page, _) = hub.connect(view: 1)!
        hub.post(.clearSelection, from: page)
        hub.post(.select(.node, id: "a", add: false), from: page)
        let requests = hub.takeRequests()
        #expect(requests.map(\.request) == [.clearSelection, .select(.node, id: "a", add: false)])
        #expect(requests.allSatisfy { $0.page == page && $0.view == 1 })
        #expect(hub.takeRequests().isEmpty)
        #expect(wakes.withLock { $0 } == 3)  // the connection, then each request
    }

    @Test func aPageThatLeftIsForgotten() {
        let hub = PreviewHub(wake: {})
        hub.addView(1)
        let (page, _) = hub.connect(view: 1)!
        hub.disconnect(page)
        hub.post(.clearSelection, from: page)
        hub.reply(to: page, PreviewMessages.ok)
        #expect(hub.takeRequests().isEmpty)
        #expect(hub.pageCount(view: 1) == 0)
    }

    @Test func aFollowingPageShowsTheStoreChangedLast() {
        let hub = PreviewHub(wake: {})
        hub.addView(1)
        hub.addView(2)
        let (page, _) = hub.connect(view: nil)!
        hub.setStores(PreviewMessages.stores([], latest: 1), latest: 1)
        hub.publish(frame(1, 1))
        hub.publish(frame(2, 1))
        #expect(hub.take(for: page).frame?.view == 1)
        #expect(hub.pageCount(view: 1) == 1 && hub.pageCount(view: 2) == 0)
        hub.setStores(PreviewMessages.stores([], latest: 2), latest: 2)
        #expect(hub.take(for: page).frame?.view == 2)
        #expect(hub.pageCount(view: 2) == 1)
    }

    @Test func aPickedStoreStaysUntilItIsGone() throws {
        let wakes = Mutex(0)
        let hub = PreviewHub(wake: { wakes.withLock { $0 += 1 } })
        hub.addView(1)
        hub.addView(2)
        hub.setStores(PreviewMessages.stores([], latest: 2), latest: 2)
        let (page, _) = hub.connect(view: nil)!
        try hub.pick(1, for: page)
        #expect(wakes.withLock { $0 } == 2)  // the connection, the pick: the REPL draws view 1
        hub.publish(frame(1, 4))
        hub.publish(frame(2, 9))
        #expect(hub.take(for: page).frame?.revision == 4)
        #expect(throws: PageRequestError("view: no store 7")) { try hub.pick(7, for: page) }
        hub.removeView(1)  // its store was collected
        #expect(hub.take(for: page).frame?.revision == 9)  // following again
        #expect(!hub.hasView(1))
    }

    @Test func theStoreListGoesToEveryPageOnceItChanges() {
        let hub = PreviewHub(wake: {})
        hub.addView(1)
        let (a, _) = hub.connect(view: 1)!
        let list = PreviewMessages.stores([.init(view: 1, name: "store", nodes: 2, edges: 1)], latest: 1)
        #expect(list == #"{"type":"stores","latest":1,"stores":[{"view":1,"name":"store","nodes":2,"edges":1}]}"#)
        hub.setStores(list, latest: 1)
        #expect(said(hub.take(for: a)) == [list])
        hub.setStores(list, latest: 1)
        #expect(said(hub.take(for: a)).isEmpty)
        let (b, _) = hub.connect(view: nil)!  // a page that opens later gets it too
        #expect(said(hub.take(for: b)) == [list])
    }

    @Test func aNoticeForEveryPageFollowsPagesToOtherStores() throws {
        let hub = PreviewHub(wake: {})
        hub.addView(1)
        hub.addView(2)
        let (page, _) = hub.connect(view: 1)!
        hub.notify("the script failed")
        hub.notify(view: 1, "cannot draw")
        #expect(said(hub.take(for: page)) == [PreviewMessages.notice("the script failed\ncannot draw")])
        try hub.pick(2, for: page)
        #expect(said(hub.take(for: page)) == [PreviewMessages.notice("the script failed")])
        hub.clearNotice()
        #expect(said(hub.take(for: page)) == [PreviewMessages.notice("")])
    }

    @Test func frameMessageIsJSONWithTheSVG() {
        let f = PreviewFrame(view: 2, revision: 5, svg: "<svg a=\"1\"/>", warnings: ["w"], changedAt: 12.5)
        #expect(f.message == #"{"type":"frame","view":2,"revision":5,"changedAt":12.5,"warnings":["w"],"svg":"<svg a=\"1\"/>"}"#)
    }
}
