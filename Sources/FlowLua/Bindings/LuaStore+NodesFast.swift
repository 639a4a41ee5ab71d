import CLua
import CLuaShims
import FlowCore

// The fast entries of addNode and moveNode, next to their general functions in
// LuaStore+Nodes.swift.

extension FlowStoreBinding {
    /// The fast entry of `addNode` (see `flua_FastFields`): `store:addNode{id=, x=, y=,
    /// width=, height=}` on the store the method is bound to, the table read in C. The
    /// node is built from the fields and moved into the store; the id string Lua already
    /// has (stack slot 3) keys the handle. Declines (nothing done) on an id that is not
    /// ASCII, which the general reader refuses (invalid UTF-8) or spells canonically (D24);
    /// the store's own errors (a duplicate id, a
    /// coordinate that is not finite) are returned as codes.
    static let addNodeFast: flua_FastFields = { L, object, fields in
        let L = L.unsafelyUnwrapped
        let f = fields.unsafelyUnwrapped.pointee
        return withFastEntryBox(object) { box in addNodeNow(L, box, f) }
    }

    /// The body of `addNodeFast`.
    @inline(__always)
    private static func addNodeNow(_ L: OpaquePointer, _ box: LuaStoreBox, _ f: flua_Fields) -> Int32 {
        let id: String
        if f.given & 1 != 0 {
            let bytes = UnsafeRawBufferPointer(start: f.s, count: f.len)  // the string stays on the stack
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return FLUA_FALLBACK }
            id = decodeUTF8(bytes)
        } else {
            id = box.store.nextNodeID()
            LuaStack(L).push(id)
            flua_replace(L, 3)
        }
        var size = LuaFlowNode.defaultSize
        if f.given & 8 != 0 { size.width = f.v.2 }
        if f.given & 16 != 0 { size.height = f.v.3 }
        let position = Point(f.given & 2 != 0 ? f.v.0 : 0, f.given & 4 != 0 ? f.v.1 : 0)
        // without a width or a height the node is sized to its title (its id)
        let node = LuaFlowNode(id: id, position: position, size: size, data: .null, autoSize: f.given & 24 == 0)
        let slot: Int32, runs = box.callbackRuns
        do {
            slot = try box.run(L, moving: consume node) { n throws in try box.store.add(n) }
        } catch {
            return LuaErrors.code(for: error, L)
        }
        box.pushAdded(.node, L, slot: slot, idAt: 3, since: runs)
        return 1
    }

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
