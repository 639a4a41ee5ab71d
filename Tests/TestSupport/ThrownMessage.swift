/// What `body` throws, as its description reads (a `FlowError`'s "op: message"), or
/// "no error" when it returns.
public func thrownMessage(_ body: () throws -> Void) -> String {
    do {
        try body()
        return "no error"
    } catch {
        return "\(error)"
    }
}
