import Synchronization

/// What the REPL's thread and the server's threads share, behind one lock: the latest
/// finished frame of each view, the pages connected, the requests they sent and the replies
/// owed to them. The store is never here: the REPL's thread renders frames and applies
/// requests; the server only passes finished, immutable text along.
///
/// Frames coalesce: a view keeps only its latest frame, and a page is sent the latest one
/// when it is ready for more, so a burst of changes costs a slow page one frame, not a
/// queue of them.
///
/// The hub also knows who is connected (`PreviewPresence`): every page is sent the list of
/// pages, their names and the stores they show, whenever it changes.
public final class PreviewHub: Sendable {
    /// A page's request, queued for the REPL's thread.
    public struct Incoming: Sendable {
        /// The page that sent it (for the reply).
        public let page: Int
        /// The view the page shows.
        public let view: Int
        public let request: PageRequest
    }

    /// What a page is owed, taken by its sending task.
    struct Outgoing {
        var messages: [String] = []
        var frame: PreviewFrame?
    }

    private struct Page {
        /// The name shown to every page (`PreviewPresence`).
        let name: String
        /// The view the page picked; nil: it follows the store changed last.
        var pinned: Int?
        let doorbell: AsyncStream<Void>.Continuation
        var replies: [String] = []
        /// The view and revision of the last frame taken for this page.
        var sent = (view: -1, revision: -1)
        /// The notice text and the store list revision it was last sent.
        var notice = ""
        var list = 0
        /// The presence message last sent.
        var presence = ""
    }

    private struct State {
        var views: Set<Int> = []
        var frames: [Int: PreviewFrame] = [:]
        /// Problems shown over the picture: per view (a drawing that failed), and under
        /// `everywhere` for every page (a script that failed in `--watch`), until cleared.
        var notices: [Int: String] = [:]
        var pages: [Int: Page] = [:]
        var nextPage = 1
        var inbox: [Incoming] = []
        /// Pages that went away since the REPL last asked (`takeDeparted`).
        var departed: [Int] = []
        /// The view of the store changed last: what following pages show.
        var latest: Int?
        /// The list of stores (`PreviewMessages.stores`) and how often it changed.
        var list = ""
        var listRevision = 0

        /// The view `page` shows (0: none yet).
        func view(of page: Page) -> Int { page.pinned ?? latest ?? 0 }

        /// The notice a page of `view` should see ("" for none).
        func notice(view: Int) -> String {
            [notices[PreviewHub.everywhere], notices[view]].compactMap { $0 }.joined(separator: "\n")
        }

        func ringAll() { for page in pages.values { page.doorbell.yield() } }

        /// Who is connected, in connection order.
        var presence: [PreviewPresence.Entry] {
            pages.keys.sorted().map { id in PreviewPresence.Entry(page: id, name: pages[id]!.name, view: view(of: pages[id]!)) }
        }
    }

    /// The key of notices for every page.
    static let everywhere = 0

    private let state = Mutex(State())
    /// Called (from a server thread) when a request was queued or a page needs a view
    /// drawn: wakes the REPL's thread.
    private let wake: @Sendable () -> Void
    /// Pages connected at most (`connect` refuses more).
    public let maximumPages: Int

    /// `maximumPages`: the server's WebSocket limit (`PreviewLimits.webSockets`).
    public init(maximumPages: Int = PreviewLimits().webSockets, wake: @escaping @Sendable () -> Void) {
        self.wake = wake
        self.maximumPages = maximumPages
    }

    // MARK: The REPL's side

    /// Opens `view` to pages (before its first frame: pages wait for it).
    public func addView(_ view: Int) {
        state.withLock { _ = $0.views.insert(view) }
    }

    /// Closes `view` (its store is gone): its frame and notice are dropped, and pages that
    /// picked it follow the store changed last again.
    public func removeView(_ view: Int) {
        state.withLock { s in
            guard s.views.remove(view) != nil else { return }
            s.frames.removeValue(forKey: view)
            s.notices.removeValue(forKey: view)
            if s.latest == view { s.latest = nil }
            for (id, page) in s.pages where page.pinned == view { s.pages[id]?.pinned = nil }
            s.ringAll()
        }
    }

    /// The views open to pages.
    public var viewIDs: Set<Int> { state.withLock { $0.views } }

    /// Sets the list of stores pages show (`PreviewMessages.stores`) and the view following
    /// pages show; rings the pages whose picture or list changes.
    public func setStores(_ list: String, latest: Int?) {
        state.withLock { s in
            let moved = s.latest != latest
            s.latest = latest
            if list != s.list {
                s.list = list
                s.listRevision += 1
                s.ringAll()
            } else if moved {
                s.ringAll()  // following pages show another store (and everyone's list says so)
            }
        }
    }

    /// Makes `frame` the latest of its view and rings every page that shows it.
    public func publish(_ frame: PreviewFrame) {
        state.withLock { s in
            s.frames[frame.view] = frame
            for page in s.pages.values where s.view(of: page) == frame.view { page.doorbell.yield() }
        }
    }

    /// Forgets the frame of `view` (no page watches it, so it is not kept up to date): a
    /// page that connects later waits for a fresh one instead of seeing an old picture.
    public func retract(view: Int) {
        state.withLock { _ = $0.frames.removeValue(forKey: view) }
    }

    /// Shows `message` over the picture on every page of `view` (nil: on every page), and
    /// on pages that open later, until `clearNotice`. The picture stays.
    public func notify(view: Int? = nil, _ message: String) {
        state.withLock { s in
            s.notices[view ?? PreviewHub.everywhere] = message
            s.ringAll()
        }
    }

    /// Takes the notice of `view` (nil: the one for every page) away.
    public func clearNotice(view: Int? = nil) {
        state.withLock { s in
            guard s.notices.removeValue(forKey: view ?? PreviewHub.everywhere) != nil else { return }
            s.ringAll()
        }
    }

    /// The requests queued since the last call, oldest first.
    public func takeRequests() -> [Incoming] {
        state.withLock { s in
            defer { s.inbox.removeAll() }
            return s.inbox
        }
    }

    /// Queues `message` (a protocol message's text) for `page`; nothing if it has gone.
    public func reply(to page: Int, _ message: String) {
        state.withLock { s in
            guard s.pages[page] != nil else { return }
            s.pages[page]!.replies.append(message)
            s.pages[page]!.doorbell.yield()
        }
    }

    /// The pages that went away since the last call (a gesture of theirs left pressed is
    /// ended by the REPL), oldest first.
    public func takeDeparted() -> [Int] {
        state.withLock { s in
            defer { s.departed.removeAll() }
            return s.departed
        }
    }

    /// Who is connected now, in connection order.
    public var presence: [PreviewPresence.Entry] { state.withLock { $0.presence } }

    /// The name of `page` (nil: not connected).
    public func name(of page: Int) -> String? { state.withLock { $0.pages[page]?.name } }

    /// How many pages show `view`.
    public func pageCount(view: Int) -> Int {
        state.withLock { s in s.pages.values.reduce(0) { $0 + (s.view(of: $1) == view ? 1 : 0) } }
    }

    // MARK: The server's side

    func hasView(_ view: Int) -> Bool { state.withLock { $0.views.contains(view) } }

    /// Registers a page showing `view` (nil: the store changed last), named `name` if
    /// given (`PreviewPresence.name`); its doorbell rings when it is owed something (and
    /// once at once, for the current frame). Every page is told who is connected now. nil
    /// when `maximumPages` are connected.
    func connect(view: Int?, name: String? = nil) -> (page: Int, doorbell: AsyncStream<Void>)? {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { s -> Int? in
            guard s.pages.count < maximumPages else { return nil }
            let id = s.nextPage
            s.nextPage += 1
            let taken = Set(s.pages.values.map(\.name))
            s.pages[id] = Page(name: PreviewPresence.name(given: name, page: id, taken: taken), pinned: view, doorbell: continuation)
            s.ringAll()
            return id
        }
        guard let id else {
            continuation.finish()
            return nil
        }
        wake()  // the REPL draws the view if it has no current frame
        return (id, stream)
    }

    /// Forgets `page`; the others are told it left, the REPL too (`takeDeparted`).
    func disconnect(_ page: Int) {
        let gone = state.withLock { s -> Page? in
            guard let gone = s.pages.removeValue(forKey: page) else { return nil }
            s.departed.append(page)
            s.ringAll()
            return gone
        }
        gone?.doorbell.finish()
        if gone != nil { wake() }
    }

    /// Shows `view` on `page` from now on (nil: the store changed last). Throws for a view
    /// the hub does not have.
    func pick(_ view: Int?, for page: Int) throws(PageRequestError) {
        let known = state.withLock { s -> Bool in
            if let view, !s.views.contains(view) { return false }
            s.pages[page]?.pinned = view
            s.ringAll()  // the page, and the others' list of who shows what
            return true
        }
        guard known else { throw PageRequestError("view: no store \(view!)") }
        wake()  // the REPL draws the view if it has no current frame
    }

    /// Queues a request and wakes the REPL's thread.
    func post(_ request: PageRequest, from page: Int) {
        let queued = state.withLock { s -> Bool in
            guard let p = s.pages[page] else { return false }
            s.inbox.append(Incoming(page: page, view: s.view(of: p), request: request))
            return true
        }
        if queued { wake() }
    }

    /// Queues an error reply to `page` (a refused message).
    func refuse(_ page: Int, _ error: PageRequestError) {
        reply(to: page, PreviewMessages.error(error.message))
    }

    /// What `page` is owed now: the list of stores if it changed, the latest frame of its
    /// view if it has not had that one yet, its replies, and the notice if it changed.
    func take(for page: Int) -> Outgoing {
        state.withLock { s in
            guard var p = s.pages[page] else { return Outgoing() }
            var out = Outgoing()
            if p.list != s.listRevision {
                p.list = s.listRevision
                out.messages.append(s.list)
            }
            let view = s.view(of: p)
            if let frame = s.frames[view], frame.view != p.sent.view || frame.revision != p.sent.revision {
                out.frame = frame
                p.sent = (frame.view, frame.revision)
            }
            out.messages += p.replies
            p.replies.removeAll()
            let notice = s.notice(view: view)
            if notice != p.notice {
                p.notice = notice
                out.messages.append(PreviewMessages.notice(notice))
            }
            let presence = PreviewPresence.message(s.presence, you: page)
            if presence != p.presence {
                p.presence = presence
                out.messages.append(presence)
            }
            s.pages[page] = p
            return out
        }
    }
}
