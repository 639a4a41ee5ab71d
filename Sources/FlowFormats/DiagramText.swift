import FlowCore

/// Text given as bytes (a Lua string, a file), for the readers.
public enum DiagramText {
    /// The bytes as a string; invalid UTF-8 throws `invalidDocument` under `operation`,
    /// naming `what` and the offset of the first bad byte (from 0). Repairing the bytes
    /// instead would turn distinct ids into the same one (each bad sequence reads as U+FFFD).
    public static func string(_ bytes: [UInt8], operation: String, what: String = "text") throws(FlowError) -> String {
        if let bad = firstInvalidUTF8(bytes) {
            throw .invalidDocument(operation, "\(what) is not valid UTF-8 (invalid byte at offset \(bad))")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The offset of the first byte that does not start a valid UTF-8 sequence; nil when
    /// every byte is valid.
    public static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var offset = 0
        var it = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        while true {
            switch parser.parseScalar(from: &it) {
            case .valid(let s): offset += s.count
            case .error: return offset
            case .emptyInput: return nil
            }
        }
    }
}
