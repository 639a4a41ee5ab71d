// swift-tools-version:6.1
import PackageDescription

// Layers, one direction: FlowCore (pure Swift) <- FlowLua (binding) <- flowrepl (host).
// FlowRender, FlowLayout and FlowRouting depend on FlowCore only. No target links liblua
// except the executables and the test targets: the loadable module `libflow.so` must bind
// to the host's Lua. (docs/architecture.md draws the targets.)
let luaLink: [LinkerSetting] = [.linkedLibrary("lua5.4")]
// No library target has unsafe flags: SwiftPM refuses them in a package that others
// depend on by version
// (docs/embedding.md). What cross-module optimisation and unchecked exclusivity did for
// the binding, FlowCore does with attributes (see FlowStore's documentation).
//
// The executable nobody depends on (flowrepl) may keep them: a dependent package that builds
// the library products still builds (scripts/check-embedding verifies it). The Lua modules
// for the stock lua5.4 are linked with their flags by scripts/build-module instead. flowrepl carries
// the Swift standard library inside it: loading and relocating libswiftCore.so is most of
// a Swift program's start-up. (The `flow` module it uses is linked in, never loaded with
// require, so the process has one Swift runtime.)
//
// flowrepl links neither workspaces (FlowLuaWorkspace: GRDB, SQLite, Foundation) nor the
// live preview (FlowReplPreview: SwiftNIO, Hummingbird, FoundationEssentials): they are the
// modules flowrepl-workspace.so and flowrepl-preview.so beside it, loaded on first use and
// bound to flowrepl's runtime and code. scripts/build-flowrepl links them from the objects
// of the products FlowReplWorkspace and FlowReplPreview, and links a release flowrepl again
// with its runtime exported, into .build/release/repl (docs/architecture.md, "The targets").
//
// It is linked as a fixed-address (non-PIE) executable: no relative relocations for the
// loader to apply, and dirty pages, at every start (docs/performance.md, "Live preview").
let staticStdlib: [LinkerSetting] = [
    .unsafeFlags(["-static-stdlib", "-Xlinker", "-no-pie"], .when(configuration: .release))
]

// flowrepl's modules bind to its code and Swift runtime: a debug flowrepl exports its symbols
// (the runtime is the toolchain's shared one); scripts/build-flowrepl links a release
// flowrepl again with its runtime exported too, which -static-stdlib hides.
let exported: [LinkerSetting] = [.unsafeFlags(["-Xlinker", "--export-dynamic"], .when(configuration: .debug))]

let package = Package(
    name: "FlowScript",
    products: [
        .library(name: "FlowCore", targets: ["FlowCore"]),
        .library(name: "FlowRender", targets: ["FlowRender"]),
        .library(name: "FlowLayout", targets: ["FlowLayout"]),
        .library(name: "FlowRouting", targets: ["FlowRouting"]),
        .library(name: "FlowFormats", targets: ["FlowFormats"]),
        .library(name: "FlowLua", targets: ["FlowLua"]),
        .library(name: "FlowLuaWorkspace", targets: ["FlowLuaWorkspace"]),
        .library(name: "flow", type: .dynamic, targets: ["FlowModule"]),
        .library(name: "FlowStorage", targets: ["FlowStorage"]),
        .library(name: "FlowPostgres", targets: ["FlowPostgres"]),
        // flowrepl's live preview and workspaces as modules it loads on first use. SwiftPM
        // links these products only to list their objects: scripts/build-flowrepl links
        // them into flowrepl-preview.so and flowrepl-workspace.so, which bind to flowrepl's
        // own runtime and code. Not for other packages.
        .library(name: "FlowReplPreview", type: .dynamic, targets: ["FlowReplPreview"]),
        .library(name: "FlowReplWorkspace", type: .dynamic, targets: ["FlowLuaWorkspace"]),
        .executable(name: "flowrepl", targets: ["flowrepl"]),
    ],
    dependencies: [
        // SQLite through GRDB for workspaces (FlowStorage); SQLite itself is Debian's
        // libsqlite3-dev (scripts/setup).
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        // The live preview's web server (FlowPreview only). Default traits off: no full
        // Foundation, no swift-configuration.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
    ],
    targets: [
        // Core library
        .target(name: "FlowCore"),
        .target(name: "FlowRender", dependencies: ["FlowCore"]),
        .target(name: "FlowLayout", dependencies: ["FlowCore"]),
        .target(name: "FlowRouting", dependencies: ["FlowCore"]),
        .target(name: "FlowFormats", dependencies: ["FlowCore", "FlowLayout"]),
        // Workspaces: diagrams persisted in SQLite, every change batch as it happens
        .target(name: "FlowStorage", dependencies: ["FlowCore", .product(name: "GRDB", package: "GRDB.swift")]),
        // Shared workspaces in PostgreSQL (docs/collaboration.md), through Debian's libpq
        // (libpq-dev for its header): CLibPQ loads libpq with dlopen when a PostgreSQL
        // workspace is first opened, so no process that does not open one maps it.
        .target(name: "CLibPQ"),
        .target(name: "FlowPostgres", dependencies: ["FlowCore", "FlowStorage", "CLibPQ"]),
        // Live preview: a web server showing a store's picture and taking clicks and drags
        // back (docs/preview.md). Knows no Lua; flowrepl wires it to the prompt.
        .target(
            name: "FlowPreview",
            dependencies: [
                "FlowCore", "FlowRender",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            ]),

        // Lua binding
        .systemLibrary(name: "CLua", providers: [.apt(["liblua5.4-dev"])]),
        .systemLibrary(name: "CReadline", providers: [.apt(["libreadline-dev"])]),
        .target(name: "CLuaShims", dependencies: ["CLua"]),
        // flowbench's C helpers (clock, cache eviction, heap size): no library ships them
        .target(name: "CBenchShims", dependencies: ["CLua"]),
        // The binding carries no Foundation, no SQLite: `flow.workspace` loads the module
        // `flow.workspace` (FlowLuaWorkspace) on its first call (docs/embedding.md).
        .target(name: "FlowLua", dependencies: ["FlowCore", "FlowRender", "FlowLayout", "FlowRouting", "FlowFormats", "CLua", "CLuaShims"]),
        // `require "flow.workspace"`: the Workspace type over FlowStorage. flowrepl loads it
        // as flowrepl-workspace.so (scripts/build-flowrepl); for the stock lua5.4,
        // scripts/build-module links it as flow/workspace.so against flow.so.
        .target(name: "FlowLuaWorkspace", dependencies: ["FlowLua", "FlowStorage", "FlowPostgres", "FlowCore", "CLua", "CLuaShims"]),
        .target(name: "FlowModule", dependencies: ["FlowLua", "CLuaShims"]),
        // The REPL's session: `help` and its entries, Tab completion, the globals `store`,
        // `save` and `open`. A target, not a product: only flowrepl and the tests use it.
        .target(name: "FlowSession", dependencies: ["FlowLua", "FlowCore", "CLua", "CLuaShims"]),
        // flowrepl's live preview (`preview()`, `--serve`, `--watch`) over FlowPreview: the
        // module flowrepl-preview.so that flowrepl loads on first use (scripts/build-flowrepl).
        .target(
            name: "FlowReplPreview",
            dependencies: ["FlowPreview", "FlowSession", "FlowLua", "FlowCore", "FlowRender", "CLua", "CLuaShims"]),

        // Host
        .executableTarget(
            name: "flowrepl",
            dependencies: ["FlowLua", "FlowSession", "FlowFormats", "FlowRender", "FlowCore", "CLua", "CLuaShims", "CReadline"],
            linkerSettings: luaLink + staticStdlib + exported),

        // Benchmarks (release-built, run by scripts/bench; not part of the tests)
        .executableTarget(
            name: "flowbench",
            dependencies: [
                "FlowCore", "FlowRender", "FlowLayout", "FlowRouting", "FlowFormats", "FlowLua", "FlowStorage", "FlowPostgres",
                .product(name: "GRDB", package: "GRDB.swift"), "CLua", "CLuaShims", "CBenchShims",
                "TestSupport",  // the seeded random graphs of the growth series
            ],
            linkerSettings: luaLink),

        // Tests
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "FlowCoreTests", dependencies: ["FlowCore", "TestSupport"]),
        .testTarget(name: "FlowLayoutTests", dependencies: ["FlowLayout", "FlowCore", "TestSupport"]),
        .testTarget(name: "FlowRoutingTests", dependencies: ["FlowRouting", "FlowLayout", "FlowCore", "TestSupport"]),
        .testTarget(
            name: "FlowRenderTests", dependencies: ["FlowRender", "FlowLayout", "FlowCore", "FlowRouting", "TestSupport"],
            exclude: ["Golden"]),
        .testTarget(
            name: "FlowStorageTests",
            dependencies: ["FlowStorage", "FlowPostgres", "FlowCore", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(
            name: "FlowFormatsTests", dependencies: ["FlowFormats", "FlowLayout", "FlowRender", "FlowCore", "TestSupport"],
            exclude: ["Golden"]),
        .testTarget(
            name: "FlowLuaTests", dependencies: ["FlowLua", "FlowLuaWorkspace", "FlowSession", "CLua", "CLuaShims"],
            linkerSettings: luaLink),
        .testTarget(name: "FlowReplTests", dependencies: []),
        .testTarget(name: "FlowPreviewTests", dependencies: ["FlowPreview"]),
    ]
)
