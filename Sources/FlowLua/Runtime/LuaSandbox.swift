import CLua
import CLuaShims
import FlowCore

/// The limits of a sandboxed Lua state (`LuaHost(sandbox:)`, `flowrepl --sandbox`,
/// `flow.sandbox`). What a sandbox allows is in docs/sandbox.md; 0 turns a limit off.
public struct SandboxLimits: Sendable, Equatable {
    /// Bytes the scripts may allocate beyond what the fresh state holds (its libraries and
    /// `flow`), enforced by the state's allocator.
    public var memory: Int
    /// Lua VM instructions per run (a chunk, a `flow.sandbox` call), counted by a hook.
    public var instructions: Int
    /// Seconds per run, looked at by the same hook.
    public var seconds: Double
    /// Estimated worst-case steps of one `string.find`/`match`/`gmatch`/`gsub` call; a call
    /// whose bound is larger is refused before it starts (the matcher runs in C, where no
    /// hook can stop it).
    public var patternSteps: Double
    /// What every store made in the sandbox may hold (its `StoreLimits`): nodes, edges, and
    /// the UTF-8 bytes of a node title or an edge label. The store's own memory is Swift's,
    /// outside the allocator's cap: these bound it.
    public var nodes: Int
    public var edges: Int
    public var labelBytes: Int
    /// Bytes of one picture (`store:svg()`).
    public var pictureBytes: Int

    public static let defaults = SandboxLimits(
        memory: 64 << 20, instructions: 100_000_000, seconds: 10, patternSteps: 1e8,
        nodes: 100_000, edges: 100_000, labelBytes: 10_000, pictureBytes: 64 << 20)

    public init(
        memory: Int, instructions: Int, seconds: Double, patternSteps: Double,
        nodes: Int = 100_000, edges: Int = 100_000, labelBytes: Int = 10_000, pictureBytes: Int = 64 << 20
    ) {
        self.memory = memory
        self.instructions = instructions
        self.seconds = seconds
        self.patternSteps = patternSteps
        self.nodes = nodes
        self.edges = edges
        self.labelBytes = labelBytes
        self.pictureBytes = pictureBytes
    }

    /// The store limits these give.
    var storeLimits: StoreLimits { StoreLimits(nodes: nodes, edges: edges, labelBytes: labelBytes) }
}

/// The store limits of a sandboxed state, kept in its registry for the binding: every
/// store made there gets them, and `svg` keeps to the picture size.
enum SandboxStoreLimits {
    static let key = "flow.storeLimits"

    /// Records `limits` in the state's registry.
    static func install(_ L: OpaquePointer, _ limits: SandboxLimits) {
        let s = LuaStack(L)
        lua_createtable(L, 0, 4)
        for (name, value) in [
            ("nodes", limits.nodes), ("edges", limits.edges), ("labelBytes", limits.labelBytes),
            ("pictureBytes", limits.pictureBytes),
        ] {
            s.push(value)
            s.setField(name)
        }
        lua_setfield(L, FLUA_REGISTRYINDEX, key)
    }

    /// The limits recorded in the state of `L`, nil outside a sandbox. Never raises.
    static func read(_ L: OpaquePointer) -> (store: StoreLimits, pictureBytes: Int)? {
        guard lua_getfield(L, FLUA_REGISTRYINDEX, key) == LUA_TTABLE else {
            flua_pop(L, 1)
            return nil
        }
        func field(_ name: String) -> Int {
            lua_getfield(L, -1, name)
            let v = Int(lua_tointegerx(L, -1, nil))
            flua_pop(L, 1)
            return v
        }
        let limits = StoreLimits(nodes: field("nodes"), edges: field("edges"), labelBytes: field("labelBytes"))
        let picture = field("pictureBytes")
        flua_pop(L, 1)
        return (limits, picture)
    }
}

/// The sandbox's accounting: the C struct the allocator and the hook share (it must outlive
/// the state, so it is allocated here and freed after `lua_close`, and after the last
/// store that counts against it). The stores' nodes and edges count against the memory cap
/// (`MemoryBudget`), and every run's long Swift calls stop at its time limit (`WorkLimit`).
final class LuaSandboxState: MemoryBudget {
    let pointer: UnsafeMutablePointer<flua_Sandbox>
    let limits: SandboxLimits

    init(_ limits: SandboxLimits) {
        self.limits = limits
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: flua_Sandbox())
        pointer.pointee.instructionLimit = Int64(limits.instructions)
        pointer.pointee.timeLimit = limits.seconds
        pointer.pointee.patternLimit = limits.patternSteps
    }

    deinit {
        flua_sandbox_release(pointer)
        pointer.deallocate()
    }

    static let attachmentKey = "flow.sandbox"

    /// The sandbox of the state whose context is `context`; nil outside a sandbox.
    static func of(_ context: LuaContext) -> LuaSandboxState? {
        context.attachments[attachmentKey] as? LuaSandboxState
    }

    /// Makes this the sandbox of the state whose context is `context`.
    func attach(to context: LuaContext) { context.attachments[Self.attachmentKey] = self }

    // MemoryBudget: bytes held outside the state, under the same cap as its memory.
    func take(_ bytes: Int) -> Bool { flua_sandbox_take(pointer, Int64(bytes)) != 0 }
    var limit: Int { limits.memory }

    /// The work limit of a run that starts now: the run's time limit, which, once a long
    /// Swift call finds it spent, ends the run as the hook does (the call returns, then
    /// raises the time-limit error); nil without a time limit.
    func workLimit() -> WorkLimit? {
        guard limits.seconds > 0 else { return nil }
        nonisolated(unsafe) let sandbox = pointer
        return WorkLimit(seconds: limits.seconds) {
            if sandbox.pointee.exceeded == 0 { sandbox.pointee.exceeded = 2 }
        }
    }

    /// Creates the state (no memory cap until `arm`).
    func newState() -> OpaquePointer? { flua_sandbox_newstate(pointer) }

    /// Turns the memory cap on: `limits.memory` bytes beyond what the state holds now.
    func arm() {
        let p = pointer.pointee
        pointer.pointee.memoryLimit = limits.memory > 0 ? p.memoryUsed + limits.memory : 0
    }

    /// The fields of `flow` a sandbox keeps: an allowlist, so what reaches outside the state
    /// (`flow.open` and every other function with a path, `flow.sandbox`, whose state has a
    /// cap of its own) is gone, and so is any field added later until it is listed here.
    static let keptModuleFields: Set<String> = ["version", "null", "type", "newStore", "decode", "observe"]
    /// The Store methods that reach the file system, removed in a sandbox.
    static let removedStoreMethods = ["save"]

    /// Cuts the standard libraries and `flow` down to the sandbox's (see docs/sandbox.md).
    func restrict(_ L: OpaquePointer) -> Int32 {
        let status = flua_sandbox_restrict(L, pointer)
        guard status == LUA_OK else { return status }
        SandboxStoreLimits.install(L, limits)
        let s = LuaStack(L)
        if lua_getfield(L, FLUA_REGISTRYINDEX, "flow.Store") == LUA_TTABLE,
            lua_getfield(L, -1, "__methods") == LUA_TTABLE
        {
            for name in Self.removedStoreMethods {
                lua_pushnil(L)
                s.setField(name)
            }
        }
        lua_settop(L, 0)
        lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(LUA_RIDX_GLOBALS))
        if lua_getfield(L, -1, "flow") == LUA_TTABLE {
            var removed: [String] = []
            lua_pushnil(L)
            while lua_next(L, -2) != 0 {
                if lua_type(L, -2) == LUA_TSTRING, let key = s.string(at: -2), !Self.keptModuleFields.contains(key) {
                    removed.append(key)
                }
                flua_pop(L, 1)
            }
            for name in removed {
                lua_pushnil(L)
                s.setField(name)
            }
        }
        lua_settop(L, 0)
        return LUA_OK
    }

    /// After a run that ended without an error: whether it spent a budget all the same (it
    /// caught the limit error and ended before the hook looked again). If so its results
    /// (from stack index `base` on) give way to the limit error, so that such a run fails as
    /// every other run past a limit does.
    func spent(_ L: OpaquePointer, resultsFrom base: Int32) -> Bool {
        guard pointer.pointee.exceeded != 0 else { return false }
        lua_settop(L, base - 1)
        return flua_sandbox_spent(L, pointer) != 0
    }

    /// Starts a run: fresh instruction and time budgets.
    func begin(_ L: OpaquePointer) { flua_sandbox_begin(L, pointer) }

    /// Bytes the state holds now, and the most it held.
    var memoryUsed: Int { pointer.pointee.memoryUsed }
    var memoryPeak: Int { pointer.pointee.memoryPeak }
    var memoryLimit: Int { pointer.pointee.memoryLimit }
}
