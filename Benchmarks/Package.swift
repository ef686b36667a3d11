// swift-tools-version:6.1
import PackageDescription

/// Benchmarks live in their own package (as in swift-nio) so the main package's dependencies
/// and CI build stay lean. Run from this folder: `swift package benchmark`.
let package = Package(
    name: "DetentBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Detent", path: ".."),
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The peer: a plain scalar state-variable filter loop in C, built with -O3.
        .target(
            name: "ReferenceSVF",
            cSettings: [.unsafeFlags(["-O3"])]),
        .executableTarget(
            name: "EngineBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "AudioEngine", package: "Detent"),
                .product(name: "Parameters", package: "Detent"),
                "ReferenceSVF",
            ],
            path: "Benchmarks/EngineBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]),
        // The knob panel's frames: bytes written and time for a full redraw and for small changes.
        .executableTarget(
            name: "PanelBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "TerminalPanel", package: "Detent"),
                .product(name: "Presets", package: "Detent"),
                .product(name: "Parameters", package: "Detent"),
            ],
            path: "Benchmarks/PanelBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]),
    ]
)
