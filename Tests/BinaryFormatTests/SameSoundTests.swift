import AudioEngine
import Foundation
import Parameters
import PluginFormats
import Rig
import Testing
import TestSupport

/// One plug-in, every format, one sound: zam-plugins ships each of its 17 plug-ins as LV2,
/// VST2, VST3 and CLAP, built from one source, so at the same values each binary format must
/// give the LV2 build's samples.
// One format at a time: a test run once aborted ("double free or corruption") while the three
// formats' ZamVerb and ZamHeadX2 builds, whose convolvers run FFTW, rendered side by side in
// this process. Not yet understood (every instance is made, activated and freed under the
// plug-in lifecycle lock); the formats' renders do not overlap until it is.
@Suite("One plug-in sounds the same in every format", .serialized)
struct SameSoundTests {
    static let zam = ["ZamAutoSat", "ZaMaximX2", "ZamComp", "ZamCompX2", "ZamDelay", "ZamDynamicEQ", "ZamEQ2", "ZamGate", "ZamGateX2",
                      "ZamGEQ31", "ZamGrains", "ZamHeadX2", "ZamPhono", "ZamTube", "ZaMultiComp", "ZaMultiCompX2", "ZamVerb"]

    /// Builds that differ from their LV2 build, and why; the test fails should one stop
    /// differing (or another start).
    static let knownDifferences: [String: String] = [
        // DPF's CLAP wrapper makes a plug-in at the rate of the process's last activation (44.1
        // kHz before any), and ZamHeadX2 loads its head responses when made, before the host
        // can tell the rate, and keeps them: its CLAP build convolves with 44.1 kHz responses.
        "CLAP ZamHeadX2": "responses loaded at 44.1 kHz",
        // The same in DPF's VST3 wrapper (its VST3 output equals its CLAP output).
        "VST3 ZamHeadX2": "responses loaded at 44.1 kHz",
        // ZamGrains starts itself at a loop time of 1000 ms while it declares 160 ms. VST2 has
        // no declared defaults, so its table starts where the plug-in does; LV2 starts at 160.
        "VST2 ZamGrains": "starts at its own 1000 ms, not its declared 160 ms",
    ]

    /// VST2 has no side-chain bus: DPF's VST2 builds of the plug-ins with a side chain declare
    /// its channels as more main inputs (and do not answer the pin-properties query that could
    /// tell them apart). Fed the LV2 build's channel count (mono), the fold gives the side
    /// inputs a copy that these plug-ins ignore with their side chain off.
    static let knownBusDifferences: Set<String> = ["VST2 ZamComp", "VST2 ZamCompX2", "VST2 ZamGate", "VST2 ZamGateX2", "VST2 ZamDynamicEQ"]

    /// Each format's build of `name`.
    static func builds(_ name: String) -> [String: PluginEntry] {
        let entries = InstalledPlugins.catalogue.installed().entries.filter { $0.name == name }
        return Dictionary(entries.map { ($0.format, $0) }, uniquingKeysWith: { first, _ in first })
    }

    static func render(_ entry: PluginEntry, channels: Int) throws -> [[Float]] {
        let input = (0..<channels).map { Signal.noise(frames: 48_000, seed: UInt64($0 + 7), amplitude: 0.3) }
        return EngineRun.reference(input, processor: try entry.processor(), blockSize: 256)
    }

    @Test("each Zam plug-in as CLAP, VST3 or VST2 gives its LV2 build's samples", arguments: ["CLAP", "VST3", "VST2"])
    func sameAsLV2(format: String) throws {
        var same: [String] = [], different: [String: String] = [:], missing: [String] = []
        for name in Self.zam {
            let builds = Self.builds(name)
            guard let lv2 = builds["LV2"], let other = builds[format] else { missing.append(name); continue }
            let sameBuses = other.audioInputs == lv2.audioInputs && other.audioOutputs == lv2.audioOutputs
            #expect(sameBuses != Self.knownBusDifferences.contains("\(format) \(name)"),
                    "\(format) \(name): \(other.audioInputs) in, \(other.audioOutputs) out; LV2 \(lv2.audioInputs) in, \(lv2.audioOutputs) out")
            #expect(other.parameters == lv2.parameters, "\(format) \(name) has \(other.parameters) parameters, LV2 \(lv2.parameters)")
            let channels = max(1, lv2.audioInputs)
            let reference = try Self.render(lv2, channels: channels), output = try Self.render(other, channels: channels)
            let difference = zip(reference, output).map { a, b in zip(a, b).map { abs($0 - $1) }.max() ?? 0 }.max() ?? 0
            if difference <= 1e-6 { same.append(name) } else { different["\(format) \(name)"] = "\(difference)" }
        }
        #expect(missing.isEmpty, "not installed as LV2 and \(format): \(missing)")
        #expect(Set(different.keys) == Set(Self.knownDifferences.keys.filter { $0.hasPrefix(format + " ") }),
                "differences: \(different)")
        #expect(same.count + different.count == Self.zam.count)
    }
}

/// The same values, the same sound: a Zam plug-in's rows in every format have its LV2 build's
/// ranges (a VST2 row's read from its display text), so one set of values, given by row,
/// sounds alike in all four. Every row is set: the continuous ones three tenths of the way
/// along, the others to the LV2 build's default (VST2 has no declared defaults of its own).
@Suite("One plug-in takes the same values in every format", .serialized)
struct SameValuesTests {
    @Test("each Zam plug-in's rows, set to the same values by row, give its LV2 build's samples", arguments: ["CLAP", "VST3", "VST2"])
    func sameValues(format: String) throws {
        var different: [String: String] = [:], ranges: [String: String] = [:]
        var rowsSet = 0
        // (The builds known to sound otherwise at their defaults are left out: ZamGrains' VST2
        // build, started at its own loop time, still differs once told the LV2 build's.)
        for name in SameSoundTests.zam where SameSoundTests.knownDifferences["\(format) \(name)"] == nil {
            let builds = SameSoundTests.builds(name)
            guard let lv2Entry = builds["LV2"], let otherEntry = builds[format] else { continue }
            let lv2 = try lv2Entry.processor(), other = try otherEntry.processor()
            #expect(lv2.table.count == other.table.count, "\(format) \(name)")
            var values: [ParameterIndex: Double] = [:]
            for row in 0..<min(lv2.table.count, other.table.count) {
                let spec = lv2.table[ParameterIndex(row)], mine = other.table[ParameterIndex(row)]
                guard case .continuous = spec.kind else {
                    values[ParameterIndex(row)] = spec.defaultValue
                    continue
                }
                // CLAP gives no unit (DPF's texts are bare numbers); VST2 and VST3 give LV2's.
                let close = abs(mine.range.lowerBound - spec.range.lowerBound) <= 1e-6 * max(1, abs(spec.range.lowerBound))
                    && abs(mine.range.upperBound - spec.range.upperBound) <= 1e-6 * max(1, abs(spec.range.upperBound))
                if !close || (format != "CLAP" && mine.unit != spec.unit) {
                    ranges["\(format) \(name).\(mine.id)"] = "\(mine.range) \(mine.unit), LV2 \(spec.range) \(spec.unit)"
                }
                values[ParameterIndex(row)] = spec.taper.value(atNormalized: 0.3, in: spec.range)
                rowsSet += 1
            }
            let channels = max(1, lv2Entry.audioInputs)
            let input = (0..<channels).map { Signal.noise(frames: 48_000, seed: UInt64($0 + 11), amplitude: 0.3) }
            let reference = EngineRun.reference(input, processor: lv2, values: values, blockSize: 256)
            let output = EngineRun.reference(input, processor: other, values: values, blockSize: 256)
            let difference = zip(reference, output).map { a, b in zip(a, b).map { abs($0 - $1) }.max() ?? 0 }.max() ?? 0
            if difference > 1e-6 { different["\(format) \(name)"] = "\(difference)" }
        }
        #expect(ranges.isEmpty, "rows unlike LV2's: \(ranges)")
        #expect(different.isEmpty, "differences: \(different)")
        #expect(rowsSet >= 130, "\(rowsSet) continuous rows set")
    }
}

/// `--bpm` reaches every format's transport: ZamDelay synced to the tempo repeats a click at
/// the same frames in every build, and elsewhere at another tempo.
@Suite("The tempo reaches every format")
struct TempoTests {
    @Test("ZamDelay synced to 90 BPM gives its LV2 build's samples as CLAP, VST3 and VST2, and others at 120")
    func syncedDelay() throws {
        let folder = TemporaryFolder()
        var click = [Float](repeating: 0, count: 192_000)
        for i in 0..<480 { click[i] = Float(sin(Double(i) * 2 * Double.pi * 1000 / 48_000) * 0.9) }
        folder.write("click.wav", WAV.float([click]))
        func render(_ plugin: String, sync: String, bpm: String, to name: String) throws -> [UInt8] {
            let outcome = try CatalogueTests.detent(["render", folder.file("click.wav"), "-o", folder.file(name), "--quiet", "--subtype", "float",
                                                     "--bpm", bpm, "--set", sync, "--plugin", plugin])
            #expect(outcome.status.exited == 0, "\(plugin): \(outcome.stderrText)")
            return Array(try Data(contentsOf: URL(fileURLWithPath: folder.file(name))))
        }
        let lv2 = try render("urn:zamaudio:ZamDelay", sync: "sync=on", bpm: "90", to: "lv2.wav")
        #expect(try render("urn:zamaudio:ZamDelay", sync: "sync=on", bpm: "120", to: "lv2-120.wav") != lv2, "the tempo moves the echo")
        for (format, sync) in [("clap", "sync_bpm=on"), ("vst3", "sync_bpm=on"), ("vst2", "sync_bpm=1")] {
            #expect(try render("\(format):ZamDelay", sync: sync, bpm: "90", to: "\(format).wav") == lv2, "\(format)")
        }
    }
}
