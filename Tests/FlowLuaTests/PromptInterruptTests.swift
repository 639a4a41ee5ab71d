import CLuaShims
import Foundation
import Testing

/// The prompt's wait (`flua_wait_input_or_wake`) ends on a Ctrl-C whichever thread the
/// kernel runs the SIGINT handler on. A process with other threads (the live preview's
/// server) may have the signal delivered to one of them while the prompt's thread holds it;
/// the wait then has to learn of it from the handler's pipe, not from EINTR.
@Suite(.serialized)
struct PromptInterruptTests {
    /// Runs `body` with a pipe standing for the terminal (read end, write end) and the
    /// prompt's SIGINT handler installed.
    func withPromptInput(_ body: (Int32, Int32) throws -> Void) throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        flua_sigint_prompt()
        defer { signal(SIGINT, SIG_DFL) }
        try body(fds[0], fds[1])
    }

    @Test func aCtrlCHandledOnAnotherThreadEndsTheWait() throws {
        try withPromptInput { input, feed in
            let result = LockedBox(Int32(-2))
            let waiter = Thread {
                flua_sigint_hold()  // as the line editor does around its wait
                result.set(flua_wait_input_or_wake(input, -1))
                flua_sigint_release()
            }
            waiter.start()
            usleep(100_000)  // let the waiter reach ppoll
            // The handler runs on another thread: one that does not block SIGINT and sends
            // it to itself (a thread-directed signal is never given to the waiter).
            let signaller = Thread {
                flua_sigint_unblock()
                pthread_kill(pthread_self(), SIGINT)
            }
            signaller.start()
            var waited = 0
            while result.get() == -2 && waited < 50 {
                usleep(20_000)
                waited += 1
            }
            if result.get() == -2 {
                // the wait did not end: feed it input so the thread finishes, and fail
                _ = write(feed, "x", 1)
                while result.get() == -2 { usleep(10_000) }
                Issue.record("the wait did not end on a Ctrl-C handled on another thread")
            }
            #expect(result.get() == 0)
        }
    }

    @Test func inputStillEndsTheWait() throws {
        try withPromptInput { input, feed in
            _ = write(feed, "x", 1)
            flua_sigint_hold()
            let r = flua_wait_input_or_wake(input, -1)
            flua_sigint_release()
            #expect(r == 1)
        }
    }
}

/// A value shared between two threads.
final class LockedBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: T
    init(_ value: T) { self.value = value }
    func get() -> T { lock.withLock { value } }
    func set(_ v: T) { lock.withLock { value = v } }
}
