import CLua
import CLuaShims
import FlowCore

// For Swift hosts: the FlowStore behind a Lua Store value, so the host can observe its
// changes and read or draw it in Swift (docs/embedding.md).

extension FlowStoreBinding {
    /// The store of the Store userdata at stack index `index`; nil for any other value and
    /// for a closed store. Never raises, runs no Lua code.
    public static func store(_ L: OpaquePointer, at index: Int32) -> LuaFlowStore? {
        guard let box = storeClass.test(L, index), !box.isClosed else { return nil }
        return box.store
    }
}

extension LuaHost {
    /// The store global `name` holds (read raw), or nil when it holds no open Store.
    public func store(global name: String) -> LuaFlowStore? {
        pushGlobal(name)
        defer { flua_pop(L, 1) }
        return FlowStoreBinding.store(L, at: -1)
    }
}
