import FlowCore

/// Text given as bytes (a Lua string, a file), for the readers.
public enum DiagramText {
    /// The bytes as a string; invalid UTF-8 throws `invalidDocument` under `operation`,
    /// naming `what` and the offset of the first bad byte (from 0). Repairing the bytes
    /// instead would turn distinct ids into the same one (each bad sequence reads as U+FFFD).
    /// A DOT graph that declares `charset=latin1` (or another of Graphviz's names for
    /// ISO-8859-1) and is not valid UTF-8 is read as Latin-1, byte for character, as
    /// Graphviz reads it.
    public static func string(_ bytes: [UInt8], operation: String, what: String = "text") throws(FlowError) -> String {
        if let bad = firstInvalidUTF8(bytes) {
            if declaresLatin1(bytes) { return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) })) }
            throw .invalidDocument(operation, "\(what) is not valid UTF-8 (invalid byte at offset \(bad))")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Graphviz's names for ISO-8859-1 in the `charset` attribute.
    static let latin1Names: Set<String> = ["latin1", "latin-1", "l1", "iso-8859-1", "iso_8859-1", "iso8859-1", "iso-ir-100"]

    /// Whether the bytes hold a `charset = NAME` (NAME quoted or not) naming ISO-8859-1.
    static func declaresLatin1(_ bytes: [UInt8]) -> Bool {
        let lower = bytes.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
        let key = Array("charset".utf8)
        var i = 0
        while i + key.count <= lower.count {
            defer { i += 1 }
            guard lower[i..<(i + key.count)].elementsEqual(key) else { continue }
            var j = i + key.count
            func skipBlanks() { while j < lower.count && (lower[j] == 32 || lower[j] == 9) { j += 1 } }
            skipBlanks()
            guard j < lower.count, lower[j] == UInt8(ascii: "=") else { continue }
            j += 1
            skipBlanks()
            if j < lower.count && lower[j] == UInt8(ascii: "\"") { j += 1 }
            var name: [UInt8] = []
            while j < lower.count, name.count < 16, lower[j] == 45 || lower[j] == 95 || (lower[j] >= 48 && lower[j] <= 57) || (lower[j] >= 97 && lower[j] <= 122) {
                name.append(lower[j])
                j += 1
            }
            if latin1Names.contains(String(decoding: name, as: UTF8.self)) { return true }
        }
        return false
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
