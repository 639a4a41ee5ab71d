/// The extension points of the binding runtime: the store binding (and embedders) add to
/// these lists; nothing else needs to change. Configure them before creating a `LuaHost` or
/// before `require "flow"` runs. Not thread-safe (set them at start-up).
public enum FlowHooks {
    /// A module installer: called by `openFlowModule` with the module table on top of the
    /// stack; it adds fields (`flow.newStore`, `flow.open`, `flow.decode`, …) and registers
    /// bound types (`LuaClass.register`). It must not raise (use only non-raising API); the
    /// stack is reset after each installer.
    public typealias ModuleInstaller = (OpaquePointer) -> Void

    /// Run in order by `openFlowModule`. The store binding appends its installer here.
    nonisolated(unsafe) public static var moduleInstallers: [ModuleInstaller] = [FlowBaseModule.install, FlowStoreBinding.install]

    /// Session setup, run by flowrepl (`LuaHost.runSessionSetup`) after the libraries,
    /// `flow` and `help` exist and before LUA_INIT, `-e`, `-l`, the script and the prompt.
    /// The store binding adds one that creates the global `store` (a fresh store). A setup
    /// must not raise; run Lua code through `host.run(string:)`.
    nonisolated(unsafe) public static var sessionSetup: [(LuaHost) -> Void] = [FlowStoreBinding.sessionSetup]

    /// Id completion in the REPL: called when the cursor is inside a string literal that is
    /// an argument of a call, e.g. `store:node("a|` or `store:connect("a", "|`. Return the
    /// candidate ids (all of them: the REPL filters by prefix). nil: no id completion.
    nonisolated(unsafe) public static var idCompletion: ((IDCompletionRequest) -> [String])? = FlowStoreBinding.completeID
}

/// What the REPL knows when it asks for id candidates.
public struct IDCompletionRequest {
    /// The Lua state (the REPL's main state).
    public let L: OpaquePointer
    /// Stack index of the receiver of a method call (`store` in `store:node("`), resolved
    /// with raw access only; 0 for a plain function call (`f("`).
    public let receiver: Int32
    /// The receiver expression as typed (`store`, `s.inner`); "" for a plain call.
    public let receiverExpression: String
    /// The function or method name (`node`, `moveNode`, `flow.open`).
    public let function: String
    /// Which argument the string is (1-based, not counting the receiver).
    public let argument: Int
    /// The text typed so far inside the quotes.
    public let prefix: String

    public init(L: OpaquePointer, receiver: Int32, receiverExpression: String, function: String, argument: Int, prefix: String) {
        self.L = L
        self.receiver = receiver
        self.receiverExpression = receiverExpression
        self.function = function
        self.argument = argument
        self.prefix = prefix
    }
}
