import CLua
import CLuaShims

/// A bound Swift class, in the style of liolib.c / LÖVE: one metatable per type, registered
/// under a constant registry name; userdata hold one retained reference to the object.
///
///     let storeClass = LuaClass<StoreBox>("flow.Store", name: "Store")
///     storeClass.register(L, methods: [...], getters: [...], setters: [...])   // once per state
///     storeClass.pushCached(L, box)          // same userdata for the same object
///     let box = try args.object(1, storeClass)
///
/// The metatable has: `__name` (the public name, used by `luaL_typeerror` and `flow.type`),
/// `__index` (the methods table, or a C dispatcher when there are getters or the type is
/// strict: unknown fields raise `Store has no field 'x'`), `__newindex` (setters; other
/// names raise `field 'x' is read-only` or a hint), `__gc` and `__close` (release the
/// object; a closed userdata raises `attempt to use a closed Store`), `__tostring` (the
/// object's `CustomStringConvertible` description, else the name; never an address),
/// `__eq` (same object), plus `__methods`/`__fields` (the methods and getters tables, read
/// by the REPL's completion and `help`). Any of these can be overridden with `metamethods:`.
/// It also carries the class's mark (see `marker`), by which a userdata of the class
/// is recognised without a look-up by name. Userdata that name an item of an object rather
/// than hold one (Node and Edge handles) are a `LuaHandleClass`.
public struct LuaClass<Object: AnyObject>: Sendable {
    /// Registry key of the metatable, e.g. "flow.Store". A C string constant: no conversion
    /// per call.
    public let registryName: StaticString
    /// Public type name, e.g. "Store": `__name`, error messages and `flow.type`.
    public let name: StaticString

    public init(_ registryName: StaticString, name: StaticString) {
        self.registryName = registryName
        self.name = name
    }

    @inline(__always) var cRegistryName: UnsafePointer<CChar> {
        UnsafeRawPointer(registryName.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    /// The key that marks a metatable of this class, the shared one and the instance ones
    /// (`pushBound`).
    @inline(__always) var marker: UnsafeRawPointer { UnsafeRawPointer(registryName.utf8Start) }

    // MARK: Registration

    /// Creates the metatable in `L`'s state (idempotent). Call it from a module installer.
    /// - getters: `name -> fn(self)`, read as fields (`store.nodeCount`).
    /// - setters: `name -> fn(self, value)`, for assignable fields (`store.onConnect = f`).
    /// - readOnlyHints: name -> full message raised when the field is assigned, e.g.
    ///   `["x": "field 'x' is read-only (use node:move)"]`.
    /// - strict: reading an unknown field raises instead of returning nil.
    public func register(
        _ L: OpaquePointer, methods: [LuaMethod] = [], getters: [LuaMethod] = [],
        setters: [LuaMethod] = [], metamethods: [LuaMethod] = [],
        readOnlyHints: [String: String] = [:], strict: Bool = true
    ) {
        guard luaL_newmetatable(L, cRegistryName) != 0 else {
            flua_pop(L, 1)
            return
        }
        let mt = lua_gettop(L)
        // __gc first: Lua 5.4 marks a userdata for finalization only if its metatable has
        // __gc when setmetatable runs.
        luaPushFunction(L, LuaObjects.gc); lua_setfield(L, mt, "__gc")
        luaPushFunction(L, LuaObjects.gc); lua_setfield(L, mt, "__close")
        luaPushFunction(L, LuaObjects.tostring); lua_setfield(L, mt, "__tostring")
        luaPushFunction(L, LuaObjects.eq); lua_setfield(L, mt, "__eq")
        LuaMetatables.fill(
            L, mt, name: name.description, methods: methods, getters: getters, setters: setters,
            readOnlyHints: readOnlyHints, strict: strict)
        // the mark `userdata(_:_:)` recognises (instance metatables copy it)
        lua_pushboolean(L, 1)
        lua_rawsetp(L, mt, marker)
        for m in metamethods {
            luaPushFunction(L, m.function)
            lua_setfield(L, mt, m.name)
        }
        LuaTypes.add(L, mt, name: name.description)
        flua_pop(L, 1)  // mt
    }

    // MARK: Pushing

    /// Pushes a new userdata holding a strong reference to `object`. `userValue`: a stack
    /// index whose value becomes user value 1 (a value the object's userdata keeps alive);
    /// 0 for none.
    public func push(_ L: OpaquePointer, _ object: Object, userValue: Int32 = 0) {
        let uv = userValue == 0 ? 0 : lua_absindex(L, userValue)
        let ud = lua_newuserdatauv(L, MemoryLayout<UnsafeMutableRawPointer?>.size, 1)!
        ud.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
        let mt = fluaL_getmetatable(L, cRegistryName)
        assert(mt == LUA_TTABLE, "LuaClass \(registryName) used before register(_:)")
        lua_setmetatable(L, -2)
        if uv != 0 {
            lua_pushvalue(L, uv)
            lua_setiuservalue(L, -2, 1)
        }
        ud.storeBytes(of: Unmanaged<AnyObject>.passRetained(object).toOpaque(), as: UnsafeMutableRawPointer?.self)
    }

    /// Pushes a new userdata holding a strong reference to `object`, with a metatable of its
    /// own whose `__index` is a table of the class's methods bound to this userdata (see
    /// `flua_bind_instance`): a method look-up is a table look-up instead of a call to the
    /// C dispatcher, and a bound method finds its receiver with `boundSelf`. For types
    /// whose methods run in hot loops and that have few instances (a Store); the userdata
    /// is remembered in the cache of `pushCached`.
    public func pushBound(_ L: OpaquePointer, _ object: Object) {
        push(L, object)
        let mt = fluaL_getmetatable(L, cRegistryName)
        assert(mt == LUA_TTABLE, "LuaClass \(registryName) used before register(_:)")
        flua_bind_instance(L, -2, -1, marker)
        flua_pop(L, 1)
        // flow.type and the shared metamethods know the instance metatable by its name
        if lua_getmetatable(L, -1) != 0 {
            LuaTypes.add(L, -1, name: name.description)
            flua_pop(L, 1)
        }
        let ptr = Unmanaged<AnyObject>.passUnretained(object).toOpaque()
        LuaObjects.pushCache(L)
        lua_pushlightuserdata(L, ptr)
        lua_pushvalue(L, -3)
        lua_rawset(L, -3)
        flua_pop(L, 1)
    }

    /// The receiver of a method bound by `pushBound` when it is the userdata the method was
    /// bound to (one comparison, no retain: valid while the userdata is on the stack); nil
    /// otherwise (another receiver, a closed object, or a method not bound to an instance),
    /// and then `check(_:_:)` decides.
    @inline(__always)
    public func boundSelf(_ L: OpaquePointer, upvalue: Int32) -> Unmanaged<Object>? {
        guard lua_rawequal(L, 1, upvalue) != 0,
            let p = lua_touserdata(L, 1)?.load(as: UnsafeMutableRawPointer?.self)
        else { return nil }
        return Unmanaged<Object>.fromOpaque(p)
    }

    /// The userdata block at `index` if it is a userdata of this class: its metatable (the
    /// shared one, or an instance one made by `pushBound`, which copies it) carries the
    /// class's mark, and its block has the size of the object pointer. No look-up by name.
    @inline(__always)
    func userdata(_ L: OpaquePointer, _ index: Int32) -> UnsafeMutableRawPointer? {
        guard lua_type(L, index) == LUA_TUSERDATA,
            lua_rawlen(L, index) == MemoryLayout<UnsafeMutableRawPointer?>.size,
            lua_getmetatable(L, index) != 0
        else { return nil }
        let marked = lua_rawgetp(L, -1, marker) == LUA_TBOOLEAN
        flua_pop(L, 2)
        return marked ? lua_touserdata(L, index) : nil
    }

    /// Pushes the userdata already made for `object` if it is still alive, else a new one
    /// (remembered in a weak-valued cache in the registry). So `a == b` and table keys work.
    public func pushCached(_ L: OpaquePointer, _ object: Object, userValue: Int32 = 0) {
        let uv = userValue == 0 ? 0 : lua_absindex(L, userValue)
        let ptr = Unmanaged<AnyObject>.passUnretained(object).toOpaque()
        LuaObjects.pushCache(L)  // cache
        lua_pushlightuserdata(L, ptr)
        if lua_rawget(L, -2) == LUA_TUSERDATA, userdata(L, -1)?.load(as: UnsafeMutableRawPointer?.self) == ptr {
            lua_rotate(L, -2, 1)
            flua_pop(L, 1)
            return
        }
        flua_pop(L, 1)
        push(L, object, userValue: uv)
        lua_pushlightuserdata(L, ptr)
        lua_pushvalue(L, -2)
        lua_rawset(L, -4)
        lua_rotate(L, -2, 1)
        flua_pop(L, 1)
    }

    // MARK: Reading

    /// The object at `index` if it is a live userdata of this class. Never raises.
    @inline(__always)
    public func test(_ L: OpaquePointer, _ index: Int32) -> Object? {
        guard let ud = userdata(L, index),
            let p = ud.load(as: UnsafeMutableRawPointer?.self)
        else { return nil }
        return unsafeDowncast(Unmanaged<AnyObject>.fromOpaque(p).takeUnretainedValue(), to: Object.self)
    }

    /// The object at `index`, or a type error (`Store expected, got table`) / a closed error
    /// (`attempt to use a closed Store`).
    @inline(__always)
    public func check(_ L: OpaquePointer, _ index: Int32) throws(LuaError) -> Object {
        guard let ud = userdata(L, index) else {
            throw .type(index, expected: name.description)
        }
        guard let p = ud.load(as: UnsafeMutableRawPointer?.self) else {
            throw .message("attempt to use a closed \(name.description)")
        }
        return unsafeDowncast(Unmanaged<AnyObject>.fromOpaque(p).takeUnretainedValue(), to: Object.self)
    }

    /// True when the value at `index` is a userdata of this class (live or closed).
    public func isInstance(_ L: OpaquePointer, _ index: Int32) -> Bool {
        userdata(L, index) != nil
    }

    /// Releases the object of the userdata at `index` now; later use raises "closed".
    public func close(_ L: OpaquePointer, _ index: Int32) {
        guard let ud = userdata(L, index),
            let p = ud.load(as: UnsafeMutableRawPointer?.self)
        else { return }
        ud.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
        Unmanaged<AnyObject>.fromOpaque(p).release()
    }
}

/// The registry of bound types: metatable -> public name (for `flow.type`, help, completion).
public enum LuaTypes {
    /// Pushes the registry table of types (metatable -> name), creating it on first use. Its
    /// keys are weak: instance metatables (`pushBound`) go with their objects.
    public static func pushRegistry(_ L: OpaquePointer) {
        if lua_rawgetp(L, FLUA_REGISTRYINDEX, flua_key_types()) == LUA_TTABLE { return }
        flua_pop(L, 1)
        lua_createtable(L, 0, 4)
        lua_createtable(L, 0, 1)
        LuaStack(L).push("k")
        lua_setfield(L, -2, "__mode")
        lua_setmetatable(L, -2)
        lua_pushvalue(L, -1)
        lua_rawsetp(L, FLUA_REGISTRYINDEX, flua_key_types())
    }

    /// Records the metatable at `mt` as one of the type `name`.
    static func add(_ L: OpaquePointer, _ mt: Int32, name: String) {
        let mt = lua_absindex(L, mt)
        pushRegistry(L)
        lua_pushvalue(L, mt)
        LuaStack(L).push(name)
        lua_rawset(L, -3)
        flua_pop(L, 1)
    }

    /// The public name of the bound type of the value at `index` ("Store"), or nil when it
    /// is not a userdata of a registered type. Never raises.
    public static func name(_ L: OpaquePointer, _ index: Int32) -> String? {
        guard lua_type(L, index) == LUA_TUSERDATA, lua_getmetatable(L, index) != 0 else { return nil }
        pushRegistry(L)
        lua_rotate(L, -2, 1)  // types, mt
        lua_rawget(L, -2)
        defer { flua_pop(L, 2) }
        return lua_type(L, -1) == LUA_TSTRING ? LuaStack(L).string(at: -1) : nil
    }
}

/// The part of a bound type's metatable that `LuaClass` and `LuaHandleClass` share.
enum LuaMetatables {
    /// Sets `__name`, `__methods`, `__fields`, `__index` and `__newindex` of the metatable at
    /// `mt` (a table the caller made: the assignments are raw).
    static func fill(
        _ L: OpaquePointer, _ mt: Int32, name: String, methods: [LuaMethod], getters: [LuaMethod],
        setters: [LuaMethod], readOnlyHints: [String: String], strict: Bool
    ) {
        let s = LuaStack(L)
        let mt = lua_absindex(L, mt)
        s.push(name); lua_setfield(L, mt, "__name")

        lua_createtable(L, 0, Int32(clamping: methods.count))
        luaSetFunctions(L, methods, table: -1)
        lua_pushvalue(L, -1); lua_setfield(L, mt, "__methods")
        lua_createtable(L, 0, Int32(clamping: getters.count))
        luaSetFunctions(L, getters, table: -1)
        lua_pushvalue(L, -1); lua_setfield(L, mt, "__fields")
        // stack: mt, methods, getters
        if getters.isEmpty && !strict {
            lua_pushvalue(L, -2); lua_setfield(L, mt, "__index")
        } else {
            lua_pushvalue(L, -2)
            lua_pushvalue(L, -2)
            s.push(name)
            lua_pushboolean(L, strict ? 1 : 0)
            lua_pushcclosure(L, flua_index_dispatch, 4)
            lua_setfield(L, mt, "__index")
        }
        lua_createtable(L, 0, Int32(clamping: setters.count))
        luaSetFunctions(L, setters, table: -1)
        lua_createtable(L, 0, Int32(clamping: readOnlyHints.count))
        for (k, v) in readOnlyHints {
            s.push(v)
            lua_setfield(L, -2, k)
        }
        s.push(name)
        lua_pushvalue(L, -4)  // getters (stack: methods, getters, setters, hints, name)
        lua_pushvalue(L, -6)  // methods
        lua_pushcclosure(L, flua_newindex_dispatch, 5)  // setters, hints, name, getters, methods
        lua_setfield(L, mt, "__newindex")
        flua_pop(L, 2)  // methods, getters
    }
}

/// The metamethods shared by every bound type. They never raise.
enum LuaObjects {
    /// The pointer slot of the userdata at `index`, if it is a userdata of a registered type.
    static func slot(_ L: OpaquePointer, _ index: Int32) -> UnsafeMutableRawPointer? {
        guard lua_type(L, index) == LUA_TUSERDATA,
            lua_rawlen(L, index) == MemoryLayout<UnsafeMutableRawPointer?>.size,
            lua_getmetatable(L, index) != 0
        else { return nil }
        LuaTypes.pushRegistry(L)
        lua_rotate(L, -2, 1)
        let known = lua_rawget(L, -2) == LUA_TSTRING
        flua_pop(L, 2)
        return known ? lua_touserdata(L, index) : nil
    }

    static func pushCache(_ L: OpaquePointer) {
        if lua_rawgetp(L, FLUA_REGISTRYINDEX, flua_key_cache()) == LUA_TTABLE { return }
        flua_pop(L, 1)
        lua_createtable(L, 0, 0)
        lua_createtable(L, 0, 1)
        LuaStack(L).push("v")
        lua_setfield(L, -2, "__mode")
        lua_setmetatable(L, -2)
        lua_pushvalue(L, -1)
        lua_rawsetp(L, FLUA_REGISTRYINDEX, flua_key_cache())
    }

    static func typeName(_ L: OpaquePointer, _ index: Int32) -> String {
        LuaTypes.name(L, index) ?? "object"
    }

    static let gc: LuaFunction = { L in
        let L = L!
        guard let ud = slot(L, 1), let p = ud.load(as: UnsafeMutableRawPointer?.self) else { return 0 }
        ud.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
        Unmanaged<AnyObject>.fromOpaque(p).release()
        return 0
    }

    static let tostring: LuaFunction = { L in
        let L = L!
        let s = LuaStack(L)
        guard let ud = slot(L, 1) else {
            s.push("?")
            return 1
        }
        let name = typeName(L, 1)
        if let p = ud.load(as: UnsafeMutableRawPointer?.self) {
            let object = Unmanaged<AnyObject>.fromOpaque(p).takeUnretainedValue()
            if let d = object as? CustomStringConvertible { s.push(d.description) } else { s.push(name) }
        } else {
            s.push("\(name) (closed)")
        }
        return 1
    }

    static let eq: LuaFunction = { L in
        let L = L!
        guard let a = slot(L, 1), let b = slot(L, 2),
            lua_getmetatable(L, 1) != 0
        else {
            lua_pushboolean(L, 0)
            return 1
        }
        guard lua_getmetatable(L, 2) != 0 else {
            lua_pushboolean(L, 0)
            return 1
        }
        let sameType = lua_rawequal(L, -1, -2) != 0
        flua_pop(L, 2)
        let pa = a.load(as: UnsafeMutableRawPointer?.self)
        let pb = b.load(as: UnsafeMutableRawPointer?.self)
        lua_pushboolean(L, sameType && pa != nil && pa == pb ? 1 : 0)
        return 1
    }
}
