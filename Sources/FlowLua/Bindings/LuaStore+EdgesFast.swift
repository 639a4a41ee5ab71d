import CLua
import CLuaShims
import FlowCore

// The fast entry of addEdge, next to its general function in LuaStore+Edges.swift.

extension FlowStoreBinding {
    /// The fast entry of `addEdge` (see `flua_pushfastmethod_strings`):
    /// `store:addEdge{id=, sourceNodeID=, targetNodeID=}` on the store the method is bound
    /// to, the table read in C. The edge gets the store's default path type, as the general
    /// reader gives it; the id string Lua already has (stack slot 3) keys the handle.
    /// Declines (nothing done) when a field is missing or a string is not ASCII, which the
    /// general reader reports or spells canonically; the store's own errors (a duplicate id, a
    /// missing node) are returned as codes.
    static let addEdgeFast: flua_FastFields = { L, object, fields in
        let L = L.unsafelyUnwrapped
        let f = fields.unsafelyUnwrapped.pointee
        guard f.given == 7 else { return FLUA_FALLBACK }
        let id = UnsafeRawBufferPointer(start: f.s, count: f.len)  // the string stays on the stack
        // the table holds these two while the call runs
        let source = UnsafeRawBufferPointer(start: f.strs.0, count: f.lens.0)
        let target = UnsafeRawBufferPointer(start: f.strs.1, count: f.lens.1)
        // ASCII only: the general reader refuses invalid UTF-8 and spells other ids
        // canonically (D24), and the handle is keyed by the id's bytes as given
        func ascii(_ b: UnsafeRawBufferPointer) -> Bool { b.allSatisfy { $0 < 0x80 } }
        guard ascii(id), ascii(source), ascii(target) else { return FLUA_FALLBACK }
        return withFastEntryBox(object) { box in addEdgeNow(L, box, id: id, source: source, target: target) }
    }

    /// The body of `addEdgeFast`, for ids of ASCII bytes.
    @inline(__always)
    private static func addEdgeNow(
        _ L: OpaquePointer, _ box: LuaStoreBox, id: UnsafeRawBufferPointer, source: UnsafeRawBufferPointer,
        target: UnsafeRawBufferPointer
    ) -> Int32 {
        let store = box.store
        let edge = FlowEdge(
            id: decodeUTF8(id), sourceNodeID: decodeUTF8(source), targetNodeID: decodeUTF8(target),
            pathType: store.defaultEdgePathType)
        let slot: Int32, runs = box.callbackRuns
        do {
            slot = try box.run(L, moving: consume edge) { e throws in try store.add(e) }
        } catch {
            return LuaErrors.code(for: error, L)
        }
        box.pushAdded(.edge, L, slot: slot, idAt: 3, since: runs)
        return 1
    }
}
