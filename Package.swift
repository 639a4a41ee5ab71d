// swift-tools-version:6.0
import PackageDescription

// Layers, one direction: FlowCore (pure Swift) <- FlowLua (binding) <- flowrepl (host).
// FlowRender depends on FlowCore only. No target links liblua except the executables and
// the test targets: the loadable module `libflow.so` must bind to the host's Lua.
let luaLink: [LinkerSetting] = [.linkedLibrary("lua5.4")]
// FlowStore is generic over its payload; cross-module optimisation lets the binding use
// specialised code for FlowStore<JSONValue> instead of generic metadata on every call.
// Exclusivity is enforced statically; the dynamic checks cost a tenth of a moveNode.
let optimized: [SwiftSetting] = [
    .unsafeFlags(["-cross-module-optimization", "-enforce-exclusivity=unchecked"], .when(configuration: .release))
]

// The library and host targets use neither Swift Concurrency nor Regex, so they do not
// import them implicitly: flowrepl and libflow.so then load four fewer shared libraries at
// start-up (libswift_Concurrency, libdispatch, libswift_StringProcessing, ...).
let lean: [SwiftSetting] = [
    .unsafeFlags([
        "-Xfrontend", "-disable-implicit-concurrency-module-import",
        "-Xfrontend", "-disable-implicit-string-processing-module-import",
    ])
]

// flowrepl carries the Swift standard library inside it: loading and relocating
// libswiftCore.so is most of a Swift program's start-up. (The `flow` module it uses is
// linked in, never loaded with require, so the process has one Swift runtime.)
let staticStdlib: [LinkerSetting] = [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]

let package = Package(
    name: "FlowScript",
    products: [
        .library(name: "FlowCore", targets: ["FlowCore"]),
        .library(name: "FlowRender", targets: ["FlowRender"]),
        .library(name: "FlowLayout", targets: ["FlowLayout"]),
        .library(name: "FlowFormats", targets: ["FlowFormats"]),
        .library(name: "FlowLua", targets: ["FlowLua"]),
        .library(name: "flow", type: .dynamic, targets: ["FlowModule"]),
        .executable(name: "flowrepl", targets: ["flowrepl"]),
    ],
    targets: [
        // Core library
        .target(name: "FlowCore", swiftSettings: optimized + lean),
        .target(name: "FlowRender", dependencies: ["FlowCore"], swiftSettings: lean),
        .target(name: "FlowLayout", dependencies: ["FlowCore"], swiftSettings: lean),
        .target(name: "FlowFormats", dependencies: ["FlowCore", "FlowLayout"], swiftSettings: lean),

        // Lua binding
        .systemLibrary(name: "CLua", providers: [.apt(["liblua5.4-dev"])]),
        .systemLibrary(name: "CReadline", providers: [.apt(["libreadline-dev"])]),
        .target(name: "CLuaShims", dependencies: ["CLua"]),
        .target(name: "FlowLua", dependencies: ["FlowCore", "FlowRender", "FlowLayout", "FlowFormats", "CLua", "CLuaShims"], swiftSettings: lean),
        .target(name: "FlowModule", dependencies: ["FlowLua"], swiftSettings: lean),

        // Host
        .executableTarget(
            name: "flowrepl",
            dependencies: ["FlowLua", "CLua", "CLuaShims", "CReadline"],
            swiftSettings: lean,
            linkerSettings: luaLink + staticStdlib),

        // Benchmarks (release-built, run by scripts/bench; not part of the tests)
        .executableTarget(
            name: "flowbench",
            dependencies: ["FlowCore", "FlowRender", "FlowLayout", "FlowFormats", "FlowLua", "CLua", "CLuaShims"],
            linkerSettings: luaLink),

        // Tests
        .testTarget(name: "FlowCoreTests", dependencies: ["FlowCore"]),
        .testTarget(name: "FlowLayoutTests", dependencies: ["FlowLayout", "FlowCore"]),
        .testTarget(name: "FlowFormatsTests", dependencies: ["FlowFormats", "FlowLayout", "FlowCore"]),
        .testTarget(name: "FlowRenderTests", dependencies: ["FlowRender", "FlowLayout", "FlowCore"], exclude: ["Golden"]),
        .testTarget(
            name: "FlowLuaTests", dependencies: ["FlowLua", "CLua", "CLuaShims"],
            linkerSettings: luaLink),
        .testTarget(name: "FlowReplTests", dependencies: []),
    ]
)
