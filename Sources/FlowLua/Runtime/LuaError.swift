import CLua
import CLuaShims
import FlowCore

/// What a bound Swift function throws to make the trampoline raise a Lua error.
///
/// Any other error is translated by `LuaErrors.code(for:_:)`: a `FlowError` is raised as its
/// `description` (`moveNode: no node with id 'x'`), prefixed with the caller's position like
/// `luaL_error`; anything else as its `String(describing:)`.
public enum LuaError: Error, Equatable {
    /// `bad argument #k to 'f' (message)`: formatted by C's `luaL_argerror`, which also
    /// applies the colon-call adjustment (`calling 'f' on bad self`).
    case argument(Int32, String)
    /// `bad argument #k to 'f' (<expected> expected, got <type>)`: `luaL_typeerror`'s
    /// message (it honours `__name`), raised as an argument error.
    case type(Int32, expected: String)
    /// A message raised like `luaL_error`: the caller's position is prefixed.
    case message(String)
    /// The value on top of the stack is raised unchanged (error tables stay tables). Used to
    /// propagate an error from a `lua_pcall` the Swift code made, e.g. an interrupt.
    case valueOnStack
}

/// The one place where a Swift error becomes a Lua error.
public enum LuaErrors {
    /// Pushes what the trampoline needs for `error` and returns the code to return from the
    /// Swift function.
    public static func code(for error: any Error, _ L: OpaquePointer) -> Int32 {
        switch error {
        case let e as LuaError:
            switch e {
            case .argument(let k, let message):
                lua_pushstring(L, message)
                return flua_argerror_code(k)
            case .type(let k, let expected):
                flua_pushtypemessage(L, k, expected)
                return flua_argerror_code(k)
            case .message(let message):
                lua_pushstring(L, message)
                return FLUA_ERROR
            case .valueOnStack:
                return FLUA_RAISE
            }
        case let e as FlowError:
            // an error the store made without knowing the call (a limit checked at the
            // commit) is named after the function the script called
            if e.operation.isEmpty, flua_pushfunctionname(L) != 0 {
                let name = String(cString: lua_tolstring(L, -1, nil))
                flua_pop(L, 1)
                lua_pushstring(L, "\(name): \(e.message)")
            } else {
                lua_pushstring(L, e.description)
            }
            return FLUA_ERROR
        default:
            lua_pushstring(L, String(describing: error))
            return FLUA_ERROR
        }
    }

    /// The text `luaL_typeerror` would use for the value at `index` ("number expected, got
    /// string"), computed without raising.
    public static func typeMessage(_ L: OpaquePointer, _ index: Int32, expected: String) -> String {
        let i = lua_absindex(L, index)
        let s = String(cString: flua_pushtypemessage(L, i, expected))
        flua_pop(L, 1)
        return s
    }

    /// `; did you mean 'position'?` when one of `known` is a likely misspelling of `key`
    /// (the measure of the binding's "has no field" errors, `flua_nearestword`), else "".
    public static func suggestion(for key: String, among known: [String]) -> String {
        let words = known.joined(separator: " ")
        let match: String? = key.withCString { k in
            words.withCString { w in
                var len = 0
                guard let p = flua_nearestword(k, key.utf8.count, w, &len) else { return nil }
                return String(decoding: UnsafeRawBufferPointer(start: p, count: len), as: UTF8.self)
            }
        }
        return match.map { "; did you mean '\($0)'?" } ?? ""
    }
}
