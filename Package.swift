// swift-tools-version:6.1
import PackageDescription

/// Detent (MIT licence, see LICENSE): a real-time-safe audio parameter host for Linux (the only system it supports).
/// `Parameters`, `AudioEngine` and `KnobKit` are pure (no system calls) and tested exhaustively; every other module
/// reaches the system through `Platform`. The library products are the modules meant for use from outside the
/// package; the rest declare what they share `package`, not `public` (docs/architecture.md draws the graph).
let package = Package(
    name: "Detent",
    products: [
        .executable(name: "detent", targets: ["detent"]),
        .executable(name: "detent-web", targets: ["detent-web"]),
        .library(name: "Parameters", targets: ["Parameters"]),
        .library(name: "TextFormats", targets: ["TextFormats"]),
        .library(name: "AudioEngine", targets: ["AudioEngine"]),
        .library(name: "KnobKit", targets: ["KnobKit"]),
        .library(name: "Presets", targets: ["Presets"]),
        .library(name: "OfflineRender", targets: ["OfflineRender"]),
        .library(name: "LV2", targets: ["LV2"]),
        .library(name: "Ladspa", targets: ["Ladspa"]),
        .library(name: "PluginFormats", targets: ["PluginFormats"]),
        .library(name: "Control", targets: ["Control"]),
        .library(name: "TerminalPanel", targets: ["TerminalPanel"]),
        // The C interface the Python package loads (docs/python.md).
        .library(name: "DetentC", type: .dynamic, targets: ["DetentC"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        // The web panel's HTTP and WebSocket server. No traits: neither full Foundation nor
        // swift-configuration is needed.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // JACK, lilv, liblo and libebur128 are opened when first used, not when Detent starts
        // (a render needs none of them): each module defines the functions it calls, through
        // CPlatform's loader. libsndfile, which every render uses, is linked.
        .target(name: "CJack", dependencies: ["CPlatform"]),
        .systemLibrary(
            name: "CSndfile", pkgConfig: "sndfile",
            providers: [.apt(["libsndfile1-dev"])]),
        .target(name: "CLilv", dependencies: ["CPlatform"]),
        .target(name: "CLo", dependencies: ["CPlatform"]),
        // Avahi's client library, for announcing the web panel and OSC over mDNS.
        .target(name: "CAvahi", dependencies: ["CPlatform"]),
        .target(name: "CEbur128", dependencies: ["CPlatform"]),
        .target(name: "CRealtime"),
        // The audio-thread half of LV2 hosting: control values in, buffers connected, the
        // plug-in's run, worker responses out. Plain C over memory the Swift side prepares.
        .target(name: "CPluginKernel", dependencies: ["CRealtime"]),
        // The memory of the C kernel every plug-in format fills: its buffers, the channel rule
        // and the fields the formats share, laid out one way.
        .target(name: "KernelMemory", dependencies: ["CPluginKernel"]),
        // LADSPA and DSSI plug-ins through the same run loop: a bridge descriptor that calls the
        // LADSPA functions (or DSSI's run_synth, with MIDI as ALSA sequencer events), and dlopen.
        // Headers only from ladspa-sdk, dssi-dev and libasound2-dev: nothing more is linked.
        .target(name: "CLadspa", dependencies: ["CRealtime"]),
        // The GNU extensions Swift's Glibc module leaves out (thread names, monotonic waits).
        .target(name: "CPlatform"),
        // An isolated slot's shared block and its two halves: the host's proxy kernel (a run
        // is a futex wake and a bounded futex wait) and the slot process's serving loop.
        .target(name: "CSlot", dependencies: ["CRealtime"]),

        // The one layer over the operating system (Linux only): system calls retried on
        // interrupt, with errors that name the call; descriptors, files, pipes and sockets;
        // signals, threads, semaphores and the clock; the environment and the terminal;
        // child programs and shared libraries. docs/architecture.md lists what is where.
        .target(
            name: "Platform",
            dependencies: ["CPlatform", "CRealtime", "TextFormats", .product(name: "SystemPackage", package: "swift-system")]),

        // The text Detent reads and writes: JSON, text made safe for a terminal, aligned
        // tables. Standard library only.
        .target(name: "TextFormats"),
        // The parameter table as a value a processor provides: beneath everything else, so
        // naming a parameter never needs the engine.
        .target(name: "Parameters", dependencies: ["TextFormats"]),
        // The host's core, shared by live and offline: the engine and its event splitter, the
        // lock-free queue, smoothers, the processor contract, chains and the live hand-over,
        // and the built-in lowpass + gain as one kernel among others.
        .target(name: "AudioEngine", dependencies: ["Parameters", "CRealtime"]),
        .target(name: "KnobKit", dependencies: ["Parameters"]),
        .target(name: "Presets", dependencies: ["Parameters", "Platform", "TextFormats"], plugins: ["EmbedFactoryPresets"]),
        // The format-neutral catalogue: one entry per installed plug-in of any format, found by
        // one reference and listed together; each format module provides a `PluginFormat`.
        .target(name: "PluginFormats", dependencies: ["Parameters", "AudioEngine", "Presets", "Platform", "TextFormats"]),
        // LV2 plug-ins through lilv: discovery, a plug-in as a processor, the host features.
        .target(name: "LV2", dependencies: ["CLilv", "CPluginKernel", "KernelMemory", "CRealtime", "Parameters", "AudioEngine", "Presets", "Platform", "PluginFormats", "TextFormats"]),
        // LADSPA and DSSI plug-ins through dlopen over LADSPA_PATH and DSSI_PATH: discovery, the
        // range hints as a table, a plug-in as a processor run by CPluginKernel's loop.
        .target(name: "Ladspa", dependencies: ["CLadspa", "CPluginKernel", "KernelMemory", "CRealtime", "Parameters", "AudioEngine", "Presets", "Platform", "PluginFormats"]),
        // Formats whose plug-ins are binaries that must be opened to be read (VST2, VST3, CLAP):
        // the scan in child processes and its index, references, the table, the kernel's memory,
        // written once; each format module brings its folders, its reading and its bridge.
        .target(name: "BinaryPlugins", dependencies: ["CPluginKernel", "CPlatform", "KernelMemory", "CRealtime", "Parameters", "AudioEngine", "Presets", "Platform", "PluginFormats", "TextFormats"]),
        // The three binary formats, each a C bridge built against the interface headers of
        // Debian's dpf-source (CLAP: MIT; travesty's VST3 interfaces: ISC; a VST2 header: BSD)
        // and a module that reads and instantiates its plug-ins.
        .target(name: "CVst2", dependencies: ["CPluginKernel", "CRealtime"], cSettings: [.unsafeFlags(["-I/usr/share/dpf/distrho/src"])]),
        .target(name: "VST2", dependencies: ["CVst2", "BinaryPlugins", "CPluginKernel", "CRealtime", "AudioEngine", "Parameters", "Platform", "PluginFormats", "Presets"]),
        .target(name: "CVst3", dependencies: ["CPluginKernel", "CRealtime"], cSettings: [.unsafeFlags(["-I/usr/share/dpf/distrho/src"])]),
        .target(name: "VST3", dependencies: ["CVst3", "BinaryPlugins", "CPluginKernel", "CRealtime", "AudioEngine", "Parameters", "Platform", "PluginFormats", "Presets"]),
        .target(name: "CClap", dependencies: ["CPluginKernel", "CRealtime"], cSettings: [.unsafeFlags(["-I/usr/share/dpf/distrho/src"])]),
        .target(name: "CLAP", dependencies: ["CClap", "BinaryPlugins", "CPluginKernel", "CRealtime", "AudioEngine", "Parameters", "Platform", "PluginFormats", "Presets"]),
        // Plug-ins in processes of their own: a slot's process started and watched, its proxy
        // kernel for the engine, and the serving side the `detent slot` command runs.
        .target(name: "Isolation", dependencies: ["CSlot", "CRealtime", "CPlatform", "AudioEngine", "Parameters", "Platform", "TextFormats"]),
        // OSC through liblo (routing, feedback, a server thread), and the session manager's
        // client (NSM speaks OSC).
        .target(name: "OSC", dependencies: ["CLo", "Parameters", "Platform", "TextFormats"]),
        // The offline renderer: sound files read and written (libsndfile), automation and MIDI
        // files, dither, loudness, the render stream from input to a whole output.
        .target(name: "OfflineRender", dependencies: ["CSndfile", "CEbur128", "Parameters", "AudioEngine", "Platform", "TextFormats"]),
        // What a live host is told and answers, whatever carries it (typed lines, OSC, the
        // panels): the command language, the status, MIDI mappings, presets by name. No JACK.
        .target(name: "Control", dependencies: ["Parameters", "AudioEngine", "Platform", "TextFormats"]),
        .target(name: "JackHost", dependencies: ["CJack", "CRealtime", "Parameters", "AudioEngine", "Platform", "Control"]),
        .target(name: "TerminalPanel", dependencies: ["KnobKit", "Parameters", "AudioEngine", "Presets", "Platform", "Control"]),
        // What the browser panel needs of a host, its settings and access rules, and the
        // lines that carry them between `detent` and `detent-web`: no network code, so
        // `detent` links this and never SwiftNIO (whose conformance records every command's
        // start-up would otherwise pay for).
        .target(name: "WebBridge", dependencies: ["Parameters", "AudioEngine", "Platform", "CPlatform", "TextFormats", "Control"]),
        // The browser panel and OSCQuery over HTTP and a WebSocket (`--http PORT`): one page
        // embedded as text, changes through the same host verbs as every other source.
        .target(name: "Web", dependencies: [
            "CAvahi", "Parameters", "AudioEngine", "Platform", "WebBridge", "TextFormats", "Control",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        // The live control plane: the host's state and the stamping of changes (`LiveHost`),
        // its change feed, and the surfaces' adapters over it — OSC, the browser panel's bridge,
        // the terminal panel's host, the session manager's session.
        .target(name: "Live", dependencies: [
            "Control", "AudioEngine", "Isolation", "JackHost", "Parameters", "Platform", "Presets", "OSC", "TerminalPanel", "TextFormats",
            "WebBridge", "CPlatform"]),

        // What a rig is made of, for whoever builds one (a render, a live host, the panels,
        // Python): processors found by reference in every format, a graph file, starting values,
        // and presets with the plug-in state kept beside them.
        .target(name: "Rig", dependencies: [
            "AudioEngine", "Parameters", "Presets", "Platform", "TextFormats", "LV2", "Ladspa", "PluginFormats", "BinaryPlugins", "VST2",
            "VST3", "CLAP"]),

        // What a render is asked and how it is carried out, whoever asks: the options (one
        // table every reader reads), the batch plan with manifests, variants and shards, worker
        // processes that contain a crashing plug-in, and the report.
        .target(name: "RenderJobs", dependencies: [
            "Rig", "OfflineRender", "AudioEngine", "Parameters", "Presets", "Platform", "TextFormats", "LV2", "Ladspa", "PluginFormats",
            "Isolation", "CPlatform"]),

        // The engine for callers in other languages, through C functions (`detent_chain_new`,
        // `detent_chain_process`, …): Python's `detent` package loads it in process.
        .target(name: "DetentC", dependencies: [
            "RenderJobs", "Rig", "OfflineRender", "AudioEngine", "Parameters", "Presets", "PluginFormats", "Platform", "TextFormats", "Isolation",
            "BinaryPlugins"]),

        // The command line as a library (every command, its options and errors), and the
        // executable that runs it.
        .target(
            name: "DetentCLI",
            dependencies: [
                "Parameters", "AudioEngine", "Presets", "OfflineRender", "Control", "JackHost", "TerminalPanel", "Platform", "LV2", "Ladspa",
                "PluginFormats", "OSC", "WebBridge", "TextFormats", "CPlatform", "CRealtime", "Live", "RenderJobs", "Rig", "Isolation",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(name: "detent", dependencies: ["DetentCLI"]),
        // The browser panel's server, a program of its own that `detent live --http` and
        // `detent panel --http` start beside them and answer over a socket pair.
        .executableTarget(name: "detent-web", dependencies: ["Web", "WebBridge", "Platform", "CPlatform"]),

        // The factory presets in `Presets/*.json` are compiled into the `Presets` module as
        // text, so `detent` finds them from any directory and after being copied elsewhere,
        // while the JSON files stay their single source.
        .executableTarget(name: "PresetEmbedder"),
        .plugin(name: "EmbedFactoryPresets", capability: .buildTool(), dependencies: ["PresetEmbedder"]),

        // Helpers shared by the test targets: a seeded random generator, test signals, the
        // block-wise engine driver every test compares against and the cookbook lowpass;
        // WAV bytes, JSON reading, temporary folders and the package's own folder; and what
        // runs programs — the child-process helper, the built `detent` found beside the
        // tests, and a private JACK server (started as programs: no JACK module here).
        .target(name: "TestSupport", dependencies: ["Parameters", "AudioEngine"], path: "Tests/Support"),
        .testTarget(name: "ParametersTests", dependencies: ["Parameters", "TextFormats", "TestSupport"]),
        .testTarget(name: "PlatformTests", dependencies: ["Platform", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "AudioEngineTests", dependencies: ["AudioEngine", "Parameters", "CRealtime", "TestSupport"]),
        .testTarget(name: "KnobKitTests", dependencies: ["KnobKit", "AudioEngine", "Parameters", "TestSupport"]),
        .testTarget(name: "PresetsTests", dependencies: ["Presets", "AudioEngine", "Parameters", "Platform", "TextFormats", "TestSupport"]),
        .testTarget(name: "OfflineRenderTests", dependencies: ["OfflineRender", "CSndfile", "AudioEngine", "Parameters", "Platform", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "ControlTests", dependencies: ["Control", "Parameters", "AudioEngine", "Platform", "TextFormats", "TestSupport"]),
        .testTarget(name: "JackHostTests", dependencies: [
            "JackHost", "Live", "Control", "CJack", "CRealtime", "AudioEngine", "Parameters", "Platform", "TextFormats", "LV2", "Ladspa", "PluginFormats", "Isolation", "CSlot", "Rig", "TestSupport"],
                    exclude: ["FaultPlugin"]),
        .testTarget(name: "TerminalPanelTests", dependencies: ["TerminalPanel", "Control", "AudioEngine", "KnobKit", "Parameters", "Presets", "TestSupport"], exclude: ["Golden"]),
        // A test-only processor of another shape than the built-in, through every front end.
        .testTarget(name: "ProcessorTests", dependencies: [
            "Parameters", "AudioEngine", "Presets", "OfflineRender", "Control", "KnobKit", "TerminalPanel", "TestSupport"]),
        // The panel's rules in process, and `detent live --http` through a WebSocket client of
        // the tests' own (plain sockets: frames sent as a browser sends them, and as none should).
        .testTarget(name: "WebTests", dependencies: ["Web", "WebBridge", "Parameters", "AudioEngine", "TextFormats", "Control", "Platform", "TestSupport"]),
        .testTarget(name: "OSCTests", dependencies: ["OSC", "Parameters", "Platform", "TestSupport"]),
        .testTarget(name: "LadspaTests", dependencies: ["Ladspa", "LV2", "PluginFormats", "CLadspa", "Parameters", "AudioEngine", "TestSupport"]),
        // VST2, VST3 and CLAP: the scan in a child process, and one plug-in's builds in every
        // format against its LV2 build (Plugins: binaries that fail as the scan is to survive).
        .testTarget(name: "BinaryFormatTests", dependencies: [
            "Rig", "BinaryPlugins", "CLAP", "VST2", "AudioEngine", "Parameters", "PluginFormats", "Presets", "TextFormats", "TestSupport"],
                    exclude: ["Plugins", "Fixtures"]),
        .testTarget(name: "LV2Tests", dependencies: ["LV2", "CPluginKernel", "CRealtime", "Parameters", "AudioEngine", "TestSupport"]),
        // ReferenceHost: a minimal LV2 host in C that the tests compile and compare renders with.
        .testTarget(name: "DetentCLITests", dependencies: [
            "DetentCLI", "RenderJobs", "Rig", "Parameters", "AudioEngine", "OfflineRender", "TextFormats", "TestSupport",
            .product(name: "ArgumentParser", package: "swift-argument-parser")],
                    exclude: ["ReferenceHost", "AuditPlugins"]),
    ]
)
