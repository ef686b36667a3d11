import Dispatch
import Foundation
import Synchronization
import Testing
import TestSupport

/// Every installed LADSPA plug-in with audio in and out, rendered at its defaults by Detent and
/// by ladspa-sdk's `applyplugin`, must agree sample for sample at `applyplugin`'s 16 bits (a
/// plug-in with more outputs than inputs within one step: the mean of its outputs, quantised,
/// against the mean of `applyplugin`'s quantised outputs) — except the plug-ins named here, each with the reason `applyplugin` (or the plug-in) is the
/// one that is wrong; docs/ladspa.md gives the numbers. A plug-in that starts to disagree, or
/// one of these that starts to agree, fails the test by name.
///
/// Detent runs in `applyplugin`'s runs of 2048 frames (`--block 2048`): several plug-ins work
/// per run (caps' chorus and phaser move their delay once per run), so their output depends on
/// the run's length, whichever host runs them.
/// A plug-in with more outputs than inputs is compared with `applyplugin`'s outputs folded as
/// Detent folds them, and one that reports latency with `applyplugin`'s output shifted by it.
@Suite("detent: every LADSPA plug-in against applyplugin")
struct LadspaCatalogueTests {
    /// The plug-ins that disagree, and why.
    static let explained: [String: String] = [
        // Run in place by applyplugin (output in the input's buffer) without declaring
        // LADSPA_PROPERTY_INPLACE_BROKEN, which they are (Benchmarks/ladspa-in-place.sh).
        "delay_n": "broken in place", "comb_n": "broken in place", "allpass_n": "broken in place",
        "notch_iir": "broken in place", "bodeShifterCV": "broken in place", "bwxover_iir": "broken in place",
        "matrixMSSt": "broken in place", "plate": "broken in place", "gverb": "broken in place",
        "bf2quad": "broken in place", "bf2cube": "broken in place",
        // Reads a local array it has not written at the start of every run but the first: what
        // it gives there is whatever the stack held, so it may agree or not (``undefined``).
        "chebstortion": "reads uninitialised memory",
        // Multiplies its last FFT bin by a coefficient it never computes (left on the stack).
        "mbeq": "reads uninitialised memory",
        // Glide (comb, from the delay it starts at) or fade in (delayorama) over their first run,
        // whatever its length: Detent runs every plug-in once for no frames before the audio,
        // so they start at the values they are given, the same for every block size.
        "comb": "glides over its first run", "delayorama": "fades in over its first run",
        // Writes frequencies in Hz (up to 6000) as audio; applyplugin's 16-bit conversion wraps
        // what is beyond full scale where Detent clips it.
        "freqTracker": "applyplugin wraps beyond full scale",
    ]

    /// Of those, the ones whose output is undefined: they may agree in one run and not the next.
    static let undefined: Set<String> = ["chebstortion", "mbeq"]

    /// Plug-ins that agree but for a sample now and then one 16-bit step apart: where Detent's
    /// float output lies exactly on a 16-bit step, applyplugin's lies just below it. They are
    /// the ones whose output falls on such steps often (quantisers, wave shapers, gates,
    /// dynamics with stepped gains). applyplugin runs with Detent's flush-to-zero, so it is no
    /// denormal. Held to that one step; every other plug-in not named above agrees exactly.
    static let withinOneStep: Set<String> = [
        "Eq4p", "Noisegate", "ZaMultiCompX2", "ZamEQ2", "ZamGrains", "amPitchshift", "bf_rotate_z", "decimator",
        "fmh_rotate_z", "foldover", "gsm", "imp", "matrixStMS", "pitchScale", "pitchScaleHQ", "sinusWavewrapper",
        "stepMuxer", "tap_dynamics_m", "tap_dynamics_st", "tap_sigmoid", "waveTerrain", "wshape_sine",
    ]

    /// Of those, the ones that may also agree exactly: pitchScale's and pitchScaleHQ's output
    /// (their FFT is FFTW's, whose plan may differ from one run to the next) differs in its last
    /// bits from run to run, so the sample a step apart is there in some runs and not in others
    /// (seen both ways).
    static let mayAgreeExactly: Set<String> = ["pitchScale", "pitchScaleHQ"]

    /// Plug-ins whose latency at their defaults is the whole half-second file or more: their
    /// output is still checked (the input's length), but nothing of it is compared.
    static let beyondTheFile: [String: String] = ["artificialLatency": "two and a half seconds of latency at its defaults"]

    struct Plugin: Sendable {
        let library: String
        let label: String
        let inputs: Int
        let outputs: Int
    }

    /// Every plug-in of `listplugins` with audio in and out, its ports as `analyseplugin` says.
    static func installed(in folder: TemporaryFolder) throws -> [Plugin] {
        // ladspa-sdk's tools read LADSPA_PATH, as Detent does (its default: Debian's folders).
        var environment = ProcessInfo.processInfo.environment
        environment["LADSPA_PATH"] = environment["LADSPA_PATH"] ?? "/usr/lib/ladspa:/usr/local/lib/ladspa"
        let listing = try ChildProcess.run("/usr/bin/listplugins", [], environment: environment, currentDirectory: folder.path).stdoutText
        var plugins: [Plugin] = []
        var library: String?
        for line in listing.split(separator: "\n").map(String.init) {
            if line.hasPrefix("/") && line.hasSuffix(":") { library = String(line.dropLast()); continue }
            guard let library, line.hasSuffix(")"), let open = line.lastIndex(of: "("),
                  let slash = line[open...].firstIndex(of: "/") else { continue }
            let label = String(line[line.index(after: slash)..<line.index(before: line.endIndex)])
            let ports = try tool("analyseplugin", [library, label], in: folder).stdoutText
            let inputs = ports.components(separatedBy: "\" input, audio").count - 1
            let outputs = ports.components(separatedBy: "\" output, audio").count - 1
            if inputs > 0 && outputs > 0 { plugins.append(Plugin(library: library, label: label, inputs: inputs, outputs: outputs)) }
        }
        return plugins
    }

    /// The largest difference between Detent's render of `plugin` and applyplugin's, in 16-bit
    /// steps; nil with why when one of them cannot render it.
    static func difference(_ plugin: Plugin, inputs folder: String, flushing: String) throws -> Result<Int, Failure> {
        let input = folder + "/noise\(plugin.inputs).wav"
        let work = TemporaryFolder()
        // Its defaults, in port order, as applyplugin takes its controls.
        let reference = plugin.library + ":" + plugin.label
        let table = try Detent.run(["params", "--plugin", reference, "--json"], in: work.path)
        guard table.status == 0 else { return .failure(Failure("params: \(table.stderr)")) }
        let defaults = try table.stdout.split(separator: "\n").map { line -> String in
            "\(try #require(jsonObject(line)["default"] as? Double))"
        }
        // applyplugin with Detent's arithmetic (flush-to-zero, denormals as zero).
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = flushing
        let peer = try ChildProcess.run("/usr/bin/applyplugin", ["-s", "0", input, work.file("peer.wav"), plugin.library, plugin.label] + defaults,
                                        environment: environment, currentDirectory: work.path)
        guard peer.status.exited == 0 else { return .failure(Failure("applyplugin: \(peer.stderrText)")) }
        let rendered = try Detent.run(["render", input, "-o", work.file("detent.wav"), "--plugin", reference, "--block", "2048",
                                       "--subtype", "float", "--json"], in: work.path)
        guard rendered.status == 0 else { return .failure(Failure("render: \(rendered.stderr)")) }
        let latency = try jsonObject(rendered.stdout.split(separator: "\n")[0])["latency"] as? Int ?? 0
        let (ours, _) = try decode(work.file("detent.wav"))
        let (theirs, _) = try decode(work.file("peer.wav"))
        let channels = plugin.inputs, frames = ours.count / channels
        guard frames == 24_000 else { return .failure(Failure("wrote \(frames) frames of 24000")) }
        guard theirs.count / plugin.outputs == frames else {
            return .failure(Failure("applyplugin wrote \(theirs.count / plugin.outputs) frames of \(frames)"))
        }
        guard latency < frames else { return .failure(Failure("latency \(latency) beyond the file")) }
        var largest = 0
        for frame in 0..<(frames - latency) {
            for c in 0..<channels {
                // applyplugin's channels folded to the input's, as Detent folds a plug-in's.
                let sources = plugin.outputs > channels ? (0..<plugin.outputs).filter { $0 % channels == c } : [c % plugin.outputs]
                let peerValue = sources.map { theirs[(frame + latency) * plugin.outputs + $0] }.reduce(0, +) / Float(sources.count)
                let step = abs(Int((Double(LadspaCommandTests.sixteenBit(ours[frame * channels + c])) - Double(peerValue)) * 32_768))
                largest = max(largest, step)
            }
        }
        return .success(largest)
    }

    struct Failure: Error, Sendable, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @Test("every plug-in agrees with applyplugin at its defaults, or is named here with why")
    func catalogue() throws {
        let folder = TemporaryFolder()
        let plugins = try Self.installed(in: folder)
        #expect(plugins.count > 150, "the LADSPA packages Scripts/setup installs")
        for channels in Set(plugins.map(\.inputs)) {
            // The same noise every time (`-R`), and low enough that no plug-in at its defaults
            // but freqTracker goes beyond full scale, where applyplugin wraps.
            try tool("sox", ["-R", "-n", "-r", "48000", "-c", "\(channels)", "-b", "16", folder.file("noise\(channels).wav"),
                             "synth", "0.5", "pinknoise", "vol", "0.3"], in: folder)
        }
        let flushing = folder.file("flush-denormals.so")
        let compiled = try ChildProcess.run("/usr/bin/cc", ["-O2", "-shared", "-fPIC", "-o", flushing,
                                                            packageRoot + "/Tests/DetentCLITests/ReferenceHost/flush-denormals.c"])
        try #require(compiled.status.exited == 0, "cc: \(compiled.stderrText)")
        let outcomes = Mutex([(label: String, outcome: Result<Int, Failure>)]())
        let inputs = folder.path
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for plugin in plugins.enumerated().filter({ $0.offset % 2 == worker }).map(\.element) {
                let outcome = (try? Self.difference(plugin, inputs: inputs, flushing: flushing)) ?? .failure(Failure("could not be compared"))
                outcomes.withLock { $0.append((plugin.label, outcome)) }
            }
        }
        let all = outcomes.withLock { $0 }
        // One 16-bit step for a folded output (the mean of quantised samples) and the plug-ins
        // named for it, none otherwise.
        let folded = Set(plugins.filter { $0.outputs > $0.inputs }.map(\.label))
        let disagreeing = Set(all.compactMap { label, outcome in
            (try? outcome.get()).flatMap { $0 > (folded.contains(label) || Self.withinOneStep.contains(label) ? 1 : 0) ? label : nil }
        })
        let exactNow = Self.withinOneStep.subtracting(Self.mayAgreeExactly).filter { label in all.contains { $0.label == label && (try? $0.outcome.get()) == 0 } }
        #expect(exactNow.isEmpty, "named as one step apart, but agree exactly now: \(exactNow.sorted())")
        func steps(_ label: String) -> Int { all.compactMap { $0.label == label ? try? $0.outcome.get() : nil }.max() ?? 0 }
        let unexplained = disagreeing.subtracting(Self.explained.keys).sorted()
        let agreeingNow = Set(Self.explained.keys).subtracting(disagreeing).subtracting(Self.undefined).sorted()
        #expect(unexplained.isEmpty, "disagree with applyplugin: \(unexplained.map { "\($0) (\(steps($0)) steps)" })")
        #expect(agreeingNow.isEmpty, "now agree with applyplugin, or were not compared: \(agreeingNow)")
        // A latency beyond the file is a failure unless the plug-in is named for it.
        let failures = all.compactMap { label, outcome -> String? in
            if case .failure(let why) = outcome, !(why.description.hasPrefix("latency") && Self.beyondTheFile[label] != nil) {
                return "\(label): \(why)"
            }
            return nil
        }
        #expect(failures.isEmpty, "\(failures.sorted())")
        let beyond = Set(all.compactMap { label, outcome -> String? in
            if case .failure(let why) = outcome, why.description.hasPrefix("latency") { return label }
            return nil
        })
        #expect(beyond == Set(Self.beyondTheFile.keys), "named for a latency beyond the file: \(Self.beyondTheFile.keys.sorted()); beyond now: \(beyond.sorted())")
        #expect(all.count == plugins.count)
    }
}
