// Finding and replacing text without Foundation (the readers keep `require "flow"` light).

extension String {
    /// Every occurrence of `target` replaced (no Foundation).
    func replacing(_ target: String, _ with: String) -> String {
        guard !target.isEmpty, self.contains(target.first!) else { return self }
        var out = ""
        var rest = Substring(self)
        while let r = rest.firstRange(of: target) {
            out += rest[..<r.lowerBound]
            out += with
            rest = rest[r.upperBound...]
        }
        return out + rest
    }
}

extension Substring {
    func firstRange(of target: String) -> Range<Substring.Index>? {
        var i = startIndex
        while i < endIndex {
            if self[i...].hasPrefix(target) { return i..<index(i, offsetBy: target.count) }
            i = index(after: i)
        }
        return nil
    }
}
