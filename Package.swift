// swift-tools-version:6.1
import PackageDescription

/// Detent: a real-time-safe audio parameter host. The module split is the pure/I-O split:
/// `DSP` and `KnobKit` are pure and exhaustively tested; the rest are thin shells over C
/// libraries and the terminal.
let package = Package(
    name: "Detent",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "detent", targets: ["detent"]),
        .library(name: "DSP", targets: ["DSP"]),
        .library(name: "KnobKit", targets: ["KnobKit"]),
        .library(name: "Presets", targets: ["Presets"]),
        .library(name: "AudioFile", targets: ["AudioFile"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CJack", pkgConfig: "jack",
            providers: [.apt(["libjack-jackd2-dev"])]),
        .systemLibrary(
            name: "CSndfile", pkgConfig: "sndfile",
            providers: [.apt(["libsndfile1-dev"])]),
        .target(name: "CRealtime"),

        .target(name: "DSP", dependencies: ["CRealtime"]),
        .target(name: "KnobKit", dependencies: ["DSP"]),
        .target(name: "Presets", dependencies: ["DSP"]),
        .target(name: "AudioFile", dependencies: ["CSndfile", "DSP"]),
        .target(name: "JackHost", dependencies: ["CJack", "CRealtime", "DSP"]),

        .executableTarget(
            name: "detent",
            dependencies: [
                "DSP", "Presets", "AudioFile", "JackHost",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        .testTarget(name: "DSPTests", dependencies: ["DSP"]),
        .testTarget(name: "KnobKitTests", dependencies: ["KnobKit"]),
        .testTarget(name: "PresetsTests", dependencies: ["Presets"]),
        .testTarget(name: "AudioFileTests", dependencies: ["AudioFile"]),
        .testTarget(name: "DetentCLITests", dependencies: ["DSP"]),
        .testTarget(name: "JackHostTests", dependencies: ["JackHost", "CJack", "CRealtime", "DSP"]),
    ]
)
