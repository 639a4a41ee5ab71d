import CLua
import CLuaShims

/// A bound type whose userdata *name* an item of an owner object instead of holding a Swift
/// object: a handle, like a Node or an Edge of a Store (lua-api §2, §3).
///
///     let nodeClass = LuaHandleClass("flow.Node", name: "Node", owner: storeClass)
///     nodeClass.register(L, methods: [...], getters: [...], readOnlyHints: [...], tostring: f)
///     nodeClass.push(L, owner: 1, key: idIndex)
///     let h = try nodeClass.check(L, 1)      // h.key: the id's bytes; try h.owner(): the box
///
/// A handle userdata has an empty block and no `__gc`/`__close`: making one is a userdata
/// and a few API calls, and the collector frees it like a table (no finaliser, no second
/// cycle). Its two user values:
///
///  1. the owner's userdata (an instance of `owner`, a `LuaClass`): keeps the owner alive;
///  2. the item's key, a Lua string (the node id).
///
/// Every use reaches the owner's object through user value 1: the object pointer in that
/// userdata's block, which is nil once the owner was closed or collected. A handle keeps no
/// pointer of its own, so nothing can dangle: a handle that outlives its owner (even one a
/// finaliser resurrects after the owner's `__gc` ran) raises `attempt to use a closed Store`.
/// The user values are checked on each use (a userdata of the owner's class, a string key),
/// so a handle whose user values were replaced (`debug.setuservalue`) reads as closed too.
///
/// The metatable is registered under `registryName` and also in the registry under a light
/// userdata key, so pushing and checking need no look-up by name. It has what a `LuaClass`
/// metatable has except `__gc` and `__close`: `__name`, `__index` (methods, then getters;
/// unknown fields raise), `__newindex` (read-only hints), `__methods`/`__fields` (completion
/// and `help`), the `__tostring` the binding gives, and `__eq`: handles of the same class,
/// owner userdata and key are equal (so a handle equals a fresh one made after its cache
/// entry was cleared, e.g. while a finaliser resurrected it).
public struct LuaHandleClass<Owner: AnyObject>: Sendable {
    /// Registry name of the metatable, e.g. "flow.Node".
    public let registryName: StaticString
    /// Public type name, e.g. "Node": `__name`, error messages and `flow.type`.
    public let name: StaticString
    /// The class of the owners' userdata (user value 1).
    public let owner: LuaClass<Owner>

    public init(_ registryName: StaticString, name: StaticString, owner: LuaClass<Owner>) {
        self.registryName = registryName
        self.name = name
        self.owner = owner
    }

    /// The registry key (light userdata) of the metatable.
    @inline(__always) var metatableKey: UnsafeRawPointer { UnsafeRawPointer(registryName.utf8Start) }

    // MARK: Registration

    /// Creates the metatable in `L`'s state (idempotent). Call it from a module installer.
    /// Fields are read-only (getters only); `tostring` is `__tostring` (it must never raise).
    public func register(
        _ L: OpaquePointer, methods: [LuaMethod], getters: [LuaMethod],
        readOnlyHints: [String: String] = [:], tostring: LuaFunction
    ) {
        let cName = UnsafeRawPointer(registryName.utf8Start).assumingMemoryBound(to: CChar.self)
        guard luaL_newmetatable(L, cName) != 0 else {
            flua_pop(L, 1)
            return
        }
        let mt = lua_gettop(L)
        luaPushFunction(L, tostring); lua_setfield(L, mt, "__tostring")
        luaPushFunction(L, LuaHandles.eq); lua_setfield(L, mt, "__eq")
        LuaMetatables.fill(
            L, mt, name: name.description, methods: methods, getters: getters, setters: [],
            readOnlyHints: readOnlyHints, strict: true)
        lua_pushvalue(L, mt)
        lua_rawsetp(L, FLUA_REGISTRYINDEX, metatableKey)
        LuaTypes.add(L, mt, name: name.description)
        flua_pop(L, 1)  // mt
    }

    // MARK: Pushing

    /// Pushes a new handle of the key at stack index `key` (a Lua string) of the owner
    /// userdata at `owner`. The one place that makes handle userdata; keeping one handle per
    /// key is the caller's (the store binding's `LuaHandleCache`). Indices are absolute
    /// (positive). `metatable` is a registry reference (`luaL_ref`) to the class's metatable
    /// that the caller keeps (an integer key: a cheaper look-up than the light userdata
    /// one), or 0 to look it up by its light userdata key.
    @inline(__always)
    public func push(_ L: OpaquePointer, owner: Int32, key: Int32, metatable: Int32 = 0) {
        _ = lua_newuserdatauv(L, 0, 2)
        if metatable > 0 {
            lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(metatable))
        } else {
            pushMetatable(L)
        }
        lua_setmetatable(L, -2)
        lua_pushvalue(L, owner)
        lua_setiuservalue(L, -2, 1)
        lua_pushvalue(L, key)
        lua_setiuservalue(L, -2, 2)
    }

    /// Pushes the class's metatable (nil when it is not registered in this state).
    @inline(__always)
    public func pushMetatable(_ L: OpaquePointer) {
        lua_rawgetp(L, FLUA_REGISTRYINDEX, metatableKey)
    }

    // MARK: Reading

    /// True when the value at `index` is a handle of this class (its metatable is the
    /// class's).
    @inline(__always)
    public func isInstance(_ L: OpaquePointer, _ index: Int32) -> Bool {
        guard lua_type(L, index) == LUA_TUSERDATA, lua_getmetatable(L, index) != 0 else { return false }
        lua_rawgetp(L, FLUA_REGISTRYINDEX, metatableKey)
        let same = lua_rawequal(L, -1, -2) != 0
        flua_pop(L, 2)
        return same
    }

    /// The handle at `index`, or nil when the value is not a handle of this class. Never
    /// raises. Pushes the handle's user values (the owner userdata, then the key), which
    /// stay on the stack: the key's bytes are valid while it is there.
    @inline(__always)
    public func test(_ L: OpaquePointer, _ index: Int32) -> LuaHandle<Owner>? {
        guard isInstance(L, index) else { return nil }
        return LuaHandle(L, index, owner)
    }

    /// `__tostring` of a handle at index 1: `<Name> <key> (<detail>)` with the detail
    /// `describe` gives for the live item, `<Name> <key> (removed)` when the item is gone
    /// (nil) or the owner is closed, `?` for anything else. Never raises.
    @inline(__always)
    public func pushDescription(_ L: OpaquePointer, _ describe: (Owner, UnsafeRawBufferPointer) -> String?) -> Int32 {
        let s = LuaStack(L)
        guard let h = test(L, 1) else {
            s.push("?")
            return 1
        }
        let detail = h.object?._withUnsafeGuaranteedRef { describe($0, h.key) } ?? "removed"
        s.push("\(name.description) \(h.keyString) (\(detail))")
        return 1
    }

    /// The handle at `index` (see `test`), or a type error (`Node expected, got table`).
    /// Its owner may be closed: `owner()` tells.
    @inline(__always)
    public func check(_ L: OpaquePointer, _ index: Int32) throws(LuaError) -> LuaHandle<Owner> {
        guard let h = test(L, index) else { throw .type(index, expected: name.description) }
        return h
    }

    /// The handle at `index` and its owner's object, or the error (not a handle of this
    /// class; a closed owner).
    @inline(__always)
    public func checkOwned(_ L: OpaquePointer, _ index: Int32) throws(LuaError) -> (LuaHandle<Owner>, Unmanaged<Owner>) {
        let h = try check(L, index)
        return (h, try h.owner())
    }

    /// The error for a handle whose item is not in its owner (now): `node 'a' no longer
    /// exists`.
    public func gone(_ h: LuaHandle<Owner>) -> LuaError {
        .message("\(name.description.lowercased()) '\(h.keyString)' no longer exists")
    }
}

/// A handle read from the stack by `LuaHandleClass.test`/`check`: its owner's object and
/// the bytes of its key. Its user values are on the stack at `ownerIndex` and `keyIndex`.
public struct LuaHandle<Owner: AnyObject> {
    /// The owner's object, nil when the owner userdata was closed or collected (or user
    /// value 1 is not one). Unretained, valid while the owner userdata is open: take a
    /// strong reference (`takeUnretainedValue()`) across anything that may run Lua code.
    public let object: Unmanaged<Owner>?
    /// The key's bytes (valid while the key string is on the stack at `keyIndex`; empty
    /// when user value 2 is not a string).
    public let key: UnsafeRawBufferPointer
    /// Stack index of the owner userdata (user value 1); the key is right above it.
    public let ownerIndex: Int32
    let ownerName: StaticString

    @inline(__always)
    init(_ L: OpaquePointer, _ index: Int32, _ ownerClass: LuaClass<Owner>) {
        let i = index > 0 ? index : lua_absindex(L, index)
        lua_getiuservalue(L, i, 1)
        ownerIndex = lua_gettop(L)
        var len = 0
        if lua_getiuservalue(L, i, 2) == LUA_TSTRING, let p = lua_tolstring(L, -1, &len) {
            key = UnsafeRawBufferPointer(start: p, count: len)
            object = ownerClass.userdata(L, ownerIndex)?
                .load(as: UnsafeMutableRawPointer?.self).map { Unmanaged<Owner>.fromOpaque($0) }
        } else {
            key = UnsafeRawBufferPointer(start: nil, count: 0)
            object = nil
        }
        ownerName = ownerClass.name
    }

    /// Stack index of the key string (user value 2).
    @inline(__always) public var keyIndex: Int32 { ownerIndex + 1 }

    /// The key as a Swift string (for messages and APIs that take one).
    public var keyString: String { decodeUTF8(key) }

    /// The owner's object, or `attempt to use a closed Store`.
    @inline(__always)
    public func owner() throws(LuaError) -> Unmanaged<Owner> {
        guard let object else { throw .message("attempt to use a closed \(ownerName.description)") }
        return object
    }
}

/// The metamethods shared by every handle class. They never raise.
enum LuaHandles {
    /// `__eq`: handles with the same metatable (class), the same owner userdata and the same
    /// key (byte-equal strings).
    static let eq: LuaFunction = { L in
        let L = L!
        var equal = false
        if lua_type(L, 1) == LUA_TUSERDATA, lua_type(L, 2) == LUA_TUSERDATA,
            lua_getmetatable(L, 1) != 0, lua_getmetatable(L, 2) != 0
        {
            if lua_rawequal(L, -1, -2) != 0 {
                lua_getiuservalue(L, 1, 1)
                lua_getiuservalue(L, 2, 1)
                lua_getiuservalue(L, 1, 2)
                lua_getiuservalue(L, 2, 2)
                equal = lua_type(L, -1) == LUA_TSTRING && lua_rawequal(L, -1, -2) != 0
                    && lua_type(L, -3) == LUA_TUSERDATA && lua_rawequal(L, -3, -4) != 0
            }
        }
        lua_pushboolean(L, equal ? 1 : 0)
        return 1
    }
}
