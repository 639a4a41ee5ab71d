import Glibc

/// Everything left to read from `f`; nil when reading failed.
func readAll(_ f: UnsafeMutablePointer<FILE>) -> [UInt8]? {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&chunk, 1, chunk.count, f)
        if n > 0 { bytes += chunk.prefix(n) }
        if n < chunk.count { break }
    }
    return ferror(f) != 0 ? nil : bytes
}
