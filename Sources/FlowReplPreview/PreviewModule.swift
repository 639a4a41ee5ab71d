import FlowLua
import FlowPreview
import FlowSession

// flowrepl's live preview as a module of its own (`flowrepl-preview.so`, linked by
// scripts/build-flowrepl): the server (FlowPreview: SwiftNIO, Hummingbird) is mapped only
// when flowrepl first needs it. The module binds to the Swift runtime and the FlowScript
// code of the flowrepl that loads it (docs/architecture.md, "Targets").

/// The module's entry point: a new `ReplPreview`, retained for the caller.
@_cdecl("flowrepl_preview")
public func flowrepl_preview() -> UnsafeMutableRawPointer {
    Unmanaged.passRetained(PreviewModule() as AnyObject).toOpaque()
}

/// `ReplPreview` over `PreviewHost` (one per process) and `Watch`.
final class PreviewModule: ReplPreview {
    func isAddress(_ text: String) -> Bool { ServeAddress(parsing: text) != nil }

    func isToken(_ token: String) -> Bool { PreviewAccess.problem(with: token) == nil }

    func configure(address: String?, token: String?) {
        if let address, let a = ServeAddress(parsing: address) { PreviewHost.address = a }
        PreviewHost.token = token
    }

    func preview(_ L: OpaquePointer?, host: LuaHost) -> Int32 { PreviewHost.preview(L, host: host) }

    func start(host: LuaHost) throws(ReplPreviewError) -> String {
        do throws(PreviewServerError) {
            let p = try PreviewHost.start(host: host)
            p.refresh()
            return p.server.url()
        } catch {
            throw ReplPreviewError(error.message)
        }
    }

    var isRunning: Bool { PreviewHost.current != nil }

    var wakeFD: Int32 { PreviewHost.current?.wakeFD ?? -1 }

    func serviceRequests() { PreviewHost.current?.serviceRequests() }

    func keepStores() { PreviewHost.current?.keepStores() }

    func serveUntilInterrupted() { PreviewHost.current?.serveUntilInterrupted() }

    func watch(script: String, progname: String, quiet: Bool) -> Bool {
        Watch(script: script, progname: progname, quiet: quiet).run()
    }
}
