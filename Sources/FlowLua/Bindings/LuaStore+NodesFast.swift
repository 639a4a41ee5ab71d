import CLua
import CLuaShims
import FlowCore

// The fast entry of moveNode, next to its general function in LuaStore+Nodes.swift.

extension FlowStoreBinding {
    /// The fast entry of `moveNode` (see `flua_FastSNN`): `store:moveNode(id, x, y)` on the
    /// store the method is bound to, with the id looked up from Lua's own bytes (no Swift
    /// string made). Declines (nothing done) when no node has the id: the general `moveNode`
    /// then raises the error. The store's own errors (a coordinate that is not finite) are
    /// returned as codes, as any bound function returns them.
    static let moveNodeFast: flua_FastSNN = { L, object, bytes, len, x, y in
        let L = L.unsafelyUnwrapped
        let id = UnsafeRawBufferPointer(start: bytes, count: len)  // the string stays on the stack
        guard isValidUTF8(id) else { return FLUA_FALLBACK }  // the general entry refuses it (D24)
        return withFastEntryBox(object) { box in
            do {
                guard let moved = try box.run(L, { try box.store.moveNode(utf8: id, to: Point(x, y)) }) else {
                    return FLUA_FALLBACK
                }
                return moved ? 1 : 0
            } catch {
                return LuaErrors.code(for: error, L)
            }
        }
    }
}
