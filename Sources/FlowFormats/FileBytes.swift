#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading a file's bytes without Foundation (the readers keep `require "flow"` light): what
/// `flow.open` reads and an HTML-like label's `<IMG>` (`DOTImage`).
public enum FileBytes {
    /// The bytes of file `path`: nil when it cannot be opened or read, `.some(nil)` when it
    /// holds more than `limit` bytes (reading stops there).
    public static func read(_ path: String, limit: Int = .max) -> [UInt8]?? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buffer, 1, buffer.count, f)
            if n > 0 { bytes.append(contentsOf: buffer[0..<n]) }
            if bytes.count > limit { return .some(nil) }
            if n < buffer.count {
                if ferror(f) != 0 { return nil }
                break
            }
        }
        return bytes
    }
}
