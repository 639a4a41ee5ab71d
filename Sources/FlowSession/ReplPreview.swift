import FlowLua

/// The live preview as flowrepl sees it (docs/preview.md). The server, its pages and
/// `--watch` live in a module of their own, `flowrepl-preview.so` (target FlowReplPreview,
/// linked by scripts/build-flowrepl), which flowrepl loads the first time a command line or
/// a script asks for the preview (`--serve`, `--token`, `--watch`, `preview()`): a plain start
/// maps no server code. The module's entry point `flowrepl_preview` returns an object of this
/// protocol. Everything runs on the REPL's thread.
public protocol ReplPreview: AnyObject {
    /// Whether `text` is an address `--serve` takes: `[host:]port`.
    func isAddress(_ text: String) -> Bool
    /// Whether `token` is one `--token` takes (16 or more letters, digits, `-_.~`).
    func isToken(_ token: String) -> Bool
    /// Where `preview()` and `--serve` listen and the token pages need (nil: the defaults).
    func configure(address: String?, token: String?)
    /// The body of the `preview([store])` global of `host` (flowrepl's own `preview` loads
    /// the module and calls this).
    func preview(_ L: OpaquePointer?, host: LuaHost) -> Int32
    /// Starts the server (once) for `host`'s stores and returns the address to print.
    func start(host: LuaHost) throws(ReplPreviewError) -> String
    /// Whether the server runs.
    var isRunning: Bool { get }
    /// Readable when a page sent requests (`serviceRequests` empties it).
    var wakeFD: Int32 { get }
    /// Applies the pages' requests like calls at the prompt, then draws what changed.
    func serviceRequests()
    /// Keeps every store of the state on the pages (the ones of a script that ended too).
    func keepStores()
    /// After a script with `--serve`: serves until the process is interrupted.
    func serveUntilInterrupted()
    /// `--watch script`: runs it whenever it changes and shows its stores; returns false
    /// when it could not start.
    func watch(script: String, progname: String, quiet: Bool) -> Bool
}

/// Why the preview could not start or load.
public struct ReplPreviewError: Error {
    public let message: String
    public init(_ message: String) { self.message = message }
}
