import CLua

/// The extension point of the binding runtime: the store binding (and embedders) add to
/// the module's installers; nothing else needs to change. (The REPL's session globals, help
/// and completion are FlowSession's.) Configure them before creating a `LuaHost` or
/// before `require "flow"` runs. Not thread-safe (set them at start-up).
public enum FlowHooks {
    /// A module installer: called by `openFlowModule` with the module table on top of the
    /// stack; it adds fields (`flow.newStore`, `flow.open`, `flow.decode`, …) and registers
    /// bound types (`LuaClass.register`). It must not raise (use only non-raising API); the
    /// stack is reset after each installer.
    public typealias ModuleInstaller = (OpaquePointer) -> Void

    /// Run in order by `openFlowModule`. The store binding appends its installer here.
    nonisolated(unsafe) public static var moduleInstallers: [ModuleInstaller] = [FlowBaseModule.install, FlowStoreBinding.install]

    /// Modules a `LuaHost` puts in `package.preload` (nothing of them runs before a script
    /// requires them). A Swift host adds `("flow.workspace", openFlowWorkspaceModule)`
    /// (FlowLuaWorkspace), which `flow.workspace` requires on its first call; flowrepl adds
    /// a function that loads its module flowrepl-workspace.so and opens it.
    nonisolated(unsafe) public static var preloads: [(name: String, open: lua_CFunction)] = []

    /// Takes what other sessions committed to the process's shared workspaces (as change
    /// events) and returns how many batches came; nil until the module `flow.workspace`
    /// opens. flowrepl calls it before each line.
    nonisolated(unsafe) public static var syncSharedWorkspaces: (() -> Int)?

    /// The sockets of the process's shared workspaces' database connections that are up:
    /// readable when another session committed (then call `syncSharedWorkspaces`); nil until
    /// the module `flow.workspace` opens. flowrepl's waits for input poll them while the
    /// live preview runs, so its pages redraw on others' changes without a key pressed.
    nonisolated(unsafe) public static var sharedWorkspaceSockets: (() -> [Int32])?

    /// Whether one of the process's shared workspaces lost its connection: then those
    /// waits also call `syncSharedWorkspaces` once a second (it reconnects, writes what
    /// was kept and takes what others committed meanwhile).
    nonisolated(unsafe) public static var sharedWorkspacesOffline: (() -> Bool)?
}
