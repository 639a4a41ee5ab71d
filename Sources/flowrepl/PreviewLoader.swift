import CLuaShims
import FlowLua
import FlowSession
import Glibc

/// Loads the live preview (`flowrepl-preview.so`, beside the flowrepl executable) the first
/// time it is asked for: `--serve`, `--token`, `--watch` or a call of `preview()`. Until then
/// the process maps no server code (docs/preview.md). The module binds to this executable's
/// Swift runtime and FlowScript code, so it must come from the same build
/// (scripts/build-flowrepl links both).
enum PreviewLoader {
    /// The module's file name, next to the executable.
    static let fileName = "flowrepl-preview.so"

    nonisolated(unsafe) private static var loaded: ReplPreview?
    /// The state whose `preview` global is flowrepl's (the latest `install`ed).
    nonisolated(unsafe) private static var sessionHost: LuaHost?

    /// The preview when its server runs (nil on a plain start, without loading anything).
    static var running: ReplPreview? {
        guard let p = loaded, p.isRunning else { return nil }
        return p
    }

    /// The module, loaded on the first call. Throws why it cannot be loaded.
    static func load() throws(ReplPreviewError) -> ReplPreview {
        if let p = loaded { return p }
        var why = [CChar](repeating: 0, count: 1024)
        guard let handle = flua_dlopen_beside(fileName, &why, UInt(why.count)) else {
            let reason = String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ReplPreviewError("cannot load the live preview (\(reason)); scripts/build-flowrepl builds it")
        }
        guard let entry = dlsym(handle, "flowrepl_preview") else {
            throw ReplPreviewError("cannot load the live preview: \(fileName) has no flowrepl_preview")
        }
        let make = unsafeBitCast(entry, to: (@convention(c) () -> UnsafeMutableRawPointer).self)
        guard let p = Unmanaged<AnyObject>.fromOpaque(make()).takeRetainedValue() as? ReplPreview else {
            throw ReplPreviewError("cannot load the live preview: \(fileName) is from another build of flowrepl")
        }
        loaded = p
        return p
    }

    /// Defines `preview([store])` in the host's state; starts and loads nothing.
    static func install(_ host: LuaHost) {
        host.setGlobal("preview", function: previewFunction)
        sessionHost = host
    }

    /// `preview([store])`: loads the module (not in a sandbox: it has no network), then
    /// runs the module's `preview`.
    private static let previewFunction: LuaFunction = { L in
        var module: ReplPreview?
        let status = luaGuarded(L) { _ in
            guard let host = sessionHost, let L, host.L == LuaContext.of(L).mainState else {
                throw LuaError.message("preview: not available here")
            }
            if host.sandbox != nil { throw LuaError.message("preview: not available in the sandbox (it has no network)") }
            do throws(ReplPreviewError) { module = try load() } catch { throw LuaError.message("preview: \(error.message)") }
            return 0
        }
        guard let module, let host = sessionHost else { return status }
        return module.preview(L, host: host)
    }
}
