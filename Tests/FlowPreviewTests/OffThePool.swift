import Glibc

/// Runs `body` on a thread of its own and waits for it without holding a thread of Swift's
/// cooperative pool: the server's tasks run on that pool, and a test blocked in a read there
/// could starve them (on a machine with few cores).
///
/// `body` runs in a task of the test (which has the test's task-local values), on a task
/// executor whose jobs each get a new thread: an `#expect` that fails in it is reported as
/// in the test itself, with its message and its place. (On a bare thread, outside any task,
/// Swift Testing could not tell which test a failure was of: it reported it as «unknown».)
func offThePool(_ body: @escaping @Sendable () throws -> Void) async throws {
    try await Task(executorPreference: ThreadPerJob()) { try body() }.value
}

/// A task executor that runs each job on a new thread of its own.
final class ThreadPerJob: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Self.detach { job.runSynchronously(on: executor) }
    }

    /// Runs `work` on a new detached thread (here when none can be made).
    static func detach(_ work: @escaping @Sendable () -> Void) {
        final class Work {
            let run: @Sendable () -> Void
            init(_ run: @escaping @Sendable () -> Void) { self.run = run }
        }
        let box = Unmanaged.passRetained(Work(work))
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { raw in
            Unmanaged<Work>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, box.toOpaque())
        if started == 0 { pthread_detach(thread) } else { box.takeRetainedValue().run() }
    }
}
