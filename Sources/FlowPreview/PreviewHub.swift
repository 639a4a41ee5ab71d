import Synchronization

/// What the REPL's thread and the server's threads share, behind one lock: the latest
/// finished frame of each view, the pages connected, the requests they sent and the replies
/// owed to them. The store is never here: the REPL's thread renders frames and applies
/// requests; the server only passes finished, immutable text along.
///
/// Frames coalesce: a view keeps only its latest frame, and a page is sent the latest one
/// when it is ready for more, so a burst of changes costs a slow page one frame, not a
/// queue of them.
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
        let view: Int
        let doorbell: AsyncStream<Void>.Continuation
        var replies: [String] = []
        /// The revision of the last frame taken for this page.
        var sent = -1
    }

    private struct State {
        var views: Set<Int> = []
        var frames: [Int: PreviewFrame] = [:]
        /// The problem of each view (a script that failed in `--watch`), sent to every
        /// page of it after its frame until it is cleared.
        var notices: [Int: String] = [:]
        var pages: [Int: Page] = [:]
        var nextPage = 1
        var inbox: [Incoming] = []

        /// Queues `text` for every page of `view` and rings them.
        mutating func tell(view: Int, _ text: String) {
            for (id, page) in pages where page.view == view {
                pages[id]?.replies.append(text)
                page.doorbell.yield()
            }
        }
    }

    private let state = Mutex(State())
    /// Called (from a server thread) when a request was queued: wakes the REPL's thread.
    private let wake: @Sendable () -> Void

    public init(wake: @escaping @Sendable () -> Void) { self.wake = wake }

    // MARK: The REPL's side

    /// Opens `view` to pages (before its first frame: pages wait for it).
    public func addView(_ view: Int) {
        state.withLock { _ = $0.views.insert(view) }
    }

    /// Makes `frame` the latest of its view and rings every page that shows it.
    public func publish(_ frame: PreviewFrame) {
        state.withLock { s in
            s.frames[frame.view] = frame
            for page in s.pages.values where page.view == frame.view { page.doorbell.yield() }
        }
    }

    /// Forgets the frame of `view` (no page watches it, so it is not kept up to date): a
    /// page that connects later waits for a fresh one instead of seeing an old picture.
    public func retract(view: Int) {
        state.withLock { _ = $0.frames.removeValue(forKey: view) }
    }

    /// Shows `message` over the picture on every page of `view`, and on pages that open
    /// later, until `clearNotice`. The picture stays.
    public func notify(view: Int, _ message: String) {
        let text = PreviewMessages.notice(message)
        state.withLock { s in
            s.notices[view] = text
            s.tell(view: view, text)
        }
    }

    /// Takes the notice of `view` away (an empty notice to its pages).
    public func clearNotice(view: Int) {
        state.withLock { s in
            guard s.notices.removeValue(forKey: view) != nil else { return }
            s.tell(view: view, PreviewMessages.notice(""))
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

    /// How many pages show `view`.
    public func pageCount(view: Int) -> Int {
        state.withLock { s in s.pages.values.reduce(0) { $0 + ($1.view == view ? 1 : 0) } }
    }

    // MARK: The server's side

    func hasView(_ view: Int) -> Bool { state.withLock { $0.views.contains(view) } }

    /// Registers a page showing `view`; its doorbell rings when it is owed something (and
    /// once at once, for the current frame).
    func connect(view: Int) -> (page: Int, doorbell: AsyncStream<Void>) {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { s in
            let id = s.nextPage
            s.nextPage += 1
            s.pages[id] = Page(view: view, doorbell: continuation)
            if let notice = s.notices[view] { s.pages[id]!.replies.append(notice) }
            return id
        }
        continuation.yield()
        wake()  // the REPL draws the view if it has no current frame
        return (id, stream)
    }

    func disconnect(_ page: Int) {
        let gone = state.withLock { s in s.pages.removeValue(forKey: page) }
        gone?.doorbell.finish()
    }

    /// Queues a request and wakes the REPL's thread.
    func post(_ request: PageRequest, from page: Int) {
        let queued = state.withLock { s -> Bool in
            guard let p = s.pages[page] else { return false }
            s.inbox.append(Incoming(page: page, view: p.view, request: request))
            return true
        }
        if queued { wake() }
    }

    /// Queues an error reply to `page` (a refused message).
    func refuse(_ page: Int, _ error: PageRequestError) {
        reply(to: page, PreviewMessages.error(error.message))
    }

    /// What `page` is owed now: its replies, and the latest frame of its view if it has not
    /// had that one yet.
    func take(for page: Int) -> Outgoing {
        state.withLock { s in
            guard var p = s.pages[page] else { return Outgoing() }
            var out = Outgoing(messages: p.replies)
            p.replies.removeAll()
            if let frame = s.frames[p.view], frame.revision != p.sent {
                out.frame = frame
                p.sent = frame.revision
            }
            s.pages[page] = p
            return out
        }
    }
}
