import AudioEngine
import Parameters
import LV2
import Testing
import TestSupport

/// Real plug-ins through the engine: the same output for every block size, smoothing that
/// removes the zipper, and every hostable effect running.
@Suite("Plug-in rendering")
struct PluginRenderTests {
    static func engine(_ uri: String, values: [String: Double] = [:], channels: Int = 1,
                       maxFrames: Int, changes: Int = 64) throws -> (Engine, ParameterTable) {
        let processor = try Processor.plugin(PluginSearch.find(uri))
        let table = processor.table
        var initial: [ParameterIndex: Double] = [:]
        for (id, value) in values { initial[try table.index(of: id)] = value }
        let engine = Engine(processor: processor, initialValues: initial, queueCapacity: changes)
        try engine.prepare(sampleRate: 48_000, maxFrames: maxFrames, channels: channels)
        return (engine, table)
    }

    @Test("a render with moving controls is the same for every block size, 1 … 65536",
          arguments: ["http://plugin.org.uk/swh-plugins/buttlow_iir", "http://plugin.org.uk/swh-plugins/butthigh_iir",
                      "http://drobilla.net/plugins/mda/Overdrive", "urn:zamaudio:ZamEQ2"])
    func blockSizeInvariance(uri: String) throws {
        let frames = 48_000
        let input = [Signal.noise(frames: frames, seed: 7)]
        var reference: [[Float]]?
        for block in [1, 7, 64, 256, 1000, 4096, 65_536] {
            let (engine, table) = try Self.engine(uri, maxFrames: block)
            // Every continuous control glides to another value at odd frames; stepped ones jump.
            var changes: [ParameterChange] = []
            for (n, id) in table.ids.enumerated() {
                let spec = table[id]
                let target = spec.taper.value(atNormalized: 0.3 + 0.1 * Double(n % 5), in: spec.range)
                changes.append(ParameterChange(id, spec.clamp(target), frame: Int64(1_001 + 3_777 * n),
                                               rampFrames: Int32(9_000)))
            }
            let (output, queued) = EngineRun.render(engine, input, blockSize: block, changes: changes)
            #expect(queued)
            #expect(engine.telemetry.snapshot().sanitizedOutputSamples == 0, "the plug-in itself put out finite audio")
            if let reference {
                #expect(output == reference, "block size \(block) differs from block size 1")
            } else {
                reference = output
            }
        }
    }

    @Test("a mono plug-in on stereo runs once per channel with linked controls")
    func monoPerChannel() throws {
        let left = Signal.noise(frames: 4_800, seed: 1), right = Signal.noise(frames: 4_800, seed: 2)
        let (stereo, _) = try Self.engine("http://plugin.org.uk/swh-plugins/buttlow_iir", values: ["cutoff": 800],
                                          channels: 2, maxFrames: 512)
        let both = EngineRun.render(stereo, [left, right], blockSize: 512).output
        for (channel, signal) in [left, right].enumerated() {
            let (mono, _) = try Self.engine("http://plugin.org.uk/swh-plugins/buttlow_iir", values: ["cutoff": 800],
                                            maxFrames: 512)
            #expect(EngineRun.render(mono, [signal], blockSize: 512).output[0] == both[channel])
        }
    }

    @Test("a mono-to-stereo plug-in on mono: both outputs folded into the one channel")
    func foldedChannels() throws {
        let input = [Signal.noise(frames: 4_800, seed: 3)]
        let (engine, _) = try Self.engine("http://plugin.org.uk/swh-plugins/split", maxFrames: 256)
        let output = EngineRun.render(engine, input, blockSize: 256).output
        // The splitter copies its input to both outputs: their mean is the input.
        for i in 0..<input[0].count { #expect(abs(output[0][i] - input[0][i]) < 1e-6) }
    }

    /// Every hostable effect of the packages renders one second of noise, in blocks of 256,
    /// with the channels it asks for: instantiation, features and ports all hold, and the
    /// kernel puts out finite audio.
    @Test("every hostable effect renders a second of noise with finite output")
    func everyEffectRuns() throws {
        var failures: [String] = []
        var broken: [(uri: String, reason: String)] = []
        var unclean: [String] = []
        var uninitialised: [String] = []
        var silent: [String] = []
        var ran = 0
        for plugin in PluginCatalogTests.effects where plugin.isHostable {
            let channels = max(1, plugin.audioInputs.count)
            let input = (0..<channels).map { Signal.noise(frames: 48_000, seed: UInt64($0 + 1), amplitude: 0.25) }
            do {
                let (engine, _) = try Self.engine(plugin.uri, channels: channels, maxFrames: 256)
                let (output, _) = EngineRun.render(engine, input, blockSize: 256)
                ran += 1
                // At its default values; a gate, a sampler without a sample, a convolver
                // without an impulse response put out nothing, as they should.
                if !output.contains(where: { $0.contains { abs($0) > 1e-6 } }) { silent.append(plugin.uri) }
                // The engine writes non-finite and denormal samples as silence, so the file is
                // always clean; what the plug-in itself put out is in the count.
                if engine.telemetry.snapshot().sanitizedOutputSamples > 0 {
                    // Some plug-ins read memory they never initialise (lv2apply gives the same
                    // garbage under MALLOC_PERTURB_): flagged in one render of three and clean
                    // in another, they are theirs to fix, not a fault of the host.
                    let again = try (0..<2).map { _ in
                        let (engine, _) = try Self.engine(plugin.uri, channels: channels, maxFrames: 256)
                        _ = EngineRun.render(engine, input, blockSize: 256)
                        return engine.telemetry.snapshot().sanitizedOutputSamples > 0
                    }
                    if again.allSatisfy({ $0 }) { unclean.append(plugin.uri) } else { uninitialised.append(plugin.uri) }
                }
            } catch PluginError.libraryFailed(_, let reason) {
                // Debian's swh-lv2 ships two libraries linked without FFTW: their packaging,
                // reported with the loader's reason; no other failure is allowed.
                broken.append((plugin.uri, reason))
            } catch {
                failures.append("\(plugin.uri): \(error)")
            }
        }
        print("\(ran - silent.count) of \(ran) effects put out sound from a second of noise at their default values")
        #expect(failures.isEmpty, "\(failures)")
        #expect(Set(broken.map(\.uri)) == Self.unloadable, "libraries that cannot be loaded: \(broken)")
        #expect(broken.allSatisfy { $0.reason.contains("undefined symbol: fftw") }, "\(broken)")
        #expect(Set(silent) == Set(Self.silentAtDefaults.keys),
                "silent from a second of noise at their defaults: \(silent.sorted()); named: \(Self.silentAtDefaults.keys.sorted())")
        // Flagged in every one of three renders: the absurd ones always are; one reading memory
        // it never initialises may be, in a busy process, or may be clean in all three.
        let flagged = Set(unclean).union(uninitialised)
        #expect(flagged.subtracting(Self.absurd.keys).subtracting(Self.uninitialisedMemory.keys).isEmpty,
                "put out NaN, infinity, denormals or beyond ±1e6: \(flagged.sorted())")
        #expect(Set(Self.absurd.keys).subtracting(unclean).isEmpty, "named for absurd output, but clean now: \(Set(Self.absurd.keys).subtracting(unclean).sorted())")
        if !uninitialised.isEmpty { print("plug-ins whose output depended on memory they never initialise: \(uninitialised)") }
    }

    /// Debian's swh-lv2 ships these two libraries linked without FFTW: their packaging; the
    /// loader's reason is what Detent says.
    static let unloadable: Set<String> = ["http://plugin.org.uk/swh-plugins/pitchScaleHQ", "http://plugin.org.uk/swh-plugins/mbeq"]

    /// The effects that put out nothing from a second of noise at their default values, and why.
    static let silentAtDefaults: [String: String] = [
        "http://plugin.org.uk/swh-plugins/allpass_l": "delay and decay time 0",
        "http://plugin.org.uk/swh-plugins/lookaheadLimiter": "a second of lookahead (delay) at its defaults",
        "http://plugin.org.uk/swh-plugins/rateShifter": "reads its buffer a second behind: silent for the first second",
        "http://plugin.org.uk/swh-plugins/tapeDelay": "dry level and taps 2 to 4 at −90 dB, tap 1 at distance 0",
        "http://lsp-plug.in/plugins/lv2/latency_meter": "a meter: silent until asked to measure",
        "http://lsp-plug.in/plugins/lv2/profiler_mono": "a profiler: silent until asked to measure",
        "http://lsp-plug.in/plugins/lv2/profiler_stereo": "a profiler: silent until asked to measure",
        "http://gareus.org/oss/lv2/convoLV2#Mono": "a convolver without an impulse response",
        "http://gareus.org/oss/lv2/convoLV2#MonoToStereo": "a convolver without an impulse response",
        "http://gareus.org/oss/lv2/convoLV2#Stereo": "a convolver without an impulse response",
        "http://gareus.org/oss/lv2/zeroconvolv#CfgMono": "a convolver without an impulse response",
        "http://gareus.org/oss/lv2/zeroconvolv#CfgMonoToStereo": "a convolver without an impulse response",
        "http://gareus.org/oss/lv2/zeroconvolv#CfgStereo": "a convolver without an impulse response",
        "http://gareus.org/oss/lv2/zeroconvolv#Mono": "a convolver without an impulse response",
        "http://gareus.org/oss/lv2/zeroconvolv#MonoToStereo": "a convolver without an impulse response",
        "http://gareus.org/oss/lv2/zeroconvolv#Stereo": "a convolver without an impulse response",
    ]

    /// Put out samples beyond ±1e6 from stereo noise at their defaults, in every render: the
    /// engine passes the slot's input on and counts them (docs/plugins.md).
    static let absurd: [String: String] = [
        "http://plugin.org.uk/swh-plugins/bodeShifterCV": "beyond ±1e6 from noise",
        "http://plugin.org.uk/swh-plugins/surroundEncoder": "beyond ±1e6 from noise",
    ]

    /// Read memory they never initialise (lv2apply gives the same garbage under
    /// MALLOC_PERTURB_): flagged in some renders and clean in others, theirs to fix.
    static let uninitialisedMemory: [String: String] = [
        "http://plugin.org.uk/swh-plugins/dcRemove": "state left by malloc (LV2CatalogueTests)",
        "http://plugin.org.uk/swh-plugins/const": "differs from one run to the next",
        "http://plugin.org.uk/swh-plugins/chebstortion": "reads uninitialised memory",
        "http://drobilla.net/plugins/mda/BeatBox": "reads uninitialised memory",
        "http://plugin.org.uk/swh-plugins/harmonicGen": "state left by malloc (LV2CatalogueTests)",
        "http://plugin.org.uk/swh-plugins/valve": "state left by malloc (LV2CatalogueTests)",
        "http://plugin.org.uk/swh-plugins/zm1": "state left by malloc (LV2CatalogueTests)",
        "http://plugin.org.uk/swh-plugins/freqTracker": "state left by malloc (LV2CatalogueTests)",
        "http://plugin.org.uk/swh-plugins/gongBeater": "state left by malloc (LV2CatalogueTests)",
        "http://plugin.org.uk/swh-plugins/matrixSpatialiser": "state left by malloc (LV2CatalogueTests)",
        "http://plugin.org.uk/swh-plugins/ringmod_1i1o1l": "state left by malloc (LV2CatalogueTests)",
    ]
}
