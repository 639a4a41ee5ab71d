import CLua
import CLuaShims

/// A Lua-callable Swift function. It has the C signature of `lua_CFunction`, but it is never
/// registered directly: it is called through the C trampoline (`flua_trampoline`), and it
/// returns a *code* instead of raising (see `luaGuarded` and docs/binding-internals.md).
///
/// Write every bound function as a non-capturing literal whose body is `luaGuarded`:
///
///     let moveNode: LuaFunction = { L in luaGuarded(L) { args in
///         let store = try args.object(1, LuaStoreClass)
///         try store.moveNode(try args.id(2), to: try args.point(3).point)
///         return 0
///     }}
public typealias LuaFunction = @convention(c) (OpaquePointer?) -> Int32

/// A name and a Swift function, for registration tables (methods, getters, module functions).
public struct LuaMethod: Sendable {
    public let name: String
    public let function: LuaFunction
    /// For a method called in hot loops as `obj:m(string, number, number)`: its one Swift
    /// function, which runs every call, given the arguments when C read them (see
    /// `flua_SNNFunction`); nil for most. Such a method is a Store method (`addMethods`); its
    /// `function` only reports that.
    public let snn: flua_SNNFunction?
    /// For a method whose argument is a table of known keys: its one Swift function, which
    /// runs every call, and the keys C reads for it (see `flua_FieldsFunction`: key 0 takes a
    /// string, the others numbers, or strings when `strings`); nil for most. A Store method
    /// too.
    public let fields: (function: flua_FieldsFunction, keys: [String], strings: Bool)?

    public init(_ name: String, _ function: LuaFunction) {
        self.name = name
        self.function = function
        self.snn = nil
        self.fields = nil
    }

    /// A method whose common call is `obj:m(string, number, number)` (see `snn`).
    public init(_ name: String, snn function: flua_SNNFunction) {
        self.name = name
        self.function = LuaMethod.boundOnly
        self.snn = function
        self.fields = nil
    }

    /// A method whose argument is a table of these keys, read in C where it can be (see
    /// `fields`).
    public init(_ name: String, fields function: flua_FieldsFunction, keys: [String], strings: Bool = false) {
        self.name = name
        self.function = LuaMethod.boundOnly
        self.snn = nil
        self.fields = (function, keys, strings)
    }

    /// The `function` of an SNN or fields method: such a method is pushed with its reader
    /// (`flua_pushsnnmethod`, `flua_pushfieldsmethod`), never as a plain function.
    private static let boundOnly: LuaFunction = { L in
        luaGuarded(L) { _ in throw LuaError.message("this method can only be called on its object") }
    }
}

/// Runs the body of a bound function and turns anything it throws into a trampoline code.
/// All Swift values of the body are released before this returns, so the C trampoline can
/// raise the Lua error safely. The body returns the number of results it pushed.
@inline(__always)
public func luaGuarded(_ L: OpaquePointer?, _ body: (LuaArgs) throws -> Int32) -> Int32 {
    let L = L.unsafelyUnwrapped
    do {
        return try body(LuaArgs(L))
    } catch {
        return LuaErrors.code(for: error, L)
    }
}

/// Pushes `f` as a Lua function (a closure of the C trampoline). `upvalues` values on top of
/// the stack become its extra upvalues, readable with `args.upvalue(1)`, ….
@inline(__always)
public func luaPushFunction(_ L: OpaquePointer, _ f: LuaFunction, upvalues: Int32 = 0) {
    if upvalues == 0 {
        flua_pushswiftfunction(L, f)
    } else {
        flua_pushswiftclosure(L, f, upvalues)
    }
}

/// Sets `t[name] = f` for each function, on the table at `index` (a table the caller made:
/// the assignment is raw, so no metamethod can run).
/// Each function is named `qualifier + name` for argument errors (see `flua_namefunction`).
public func luaSetFunctions(_ L: OpaquePointer, _ functions: [LuaMethod], table index: Int32, qualifier: String = "") {
    let t = lua_absindex(L, index)
    for m in functions {
        luaPushFunction(L, m.function)
        flua_namefunction(L, qualifier + m.name)
        lua_setfield(L, t, m.name)
    }
}
