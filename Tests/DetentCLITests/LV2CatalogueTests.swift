import Dispatch
import Foundation
import Synchronization
import Testing
import TestSupport

/// Every installed LV2 plug-in with audio in and out that `lv2file` can run, rendered at its
/// defaults by Detent and by `lv2file`, must agree within 1e-5 of full scale — except the
/// plug-ins named here, each with why; docs/plugins.md gives the numbers. A plug-in that starts
/// to disagree, or one of these that starts to agree, fails the test by name. (`lv2file`
/// crashes on the plug-ins with atom ports, LSP's and most of x42's: those are held to a
/// reference host of the tests' own in `PluginCommandTests`.)
///
/// Both run in runs of 2048 frames (`lv2file -b 2048`, `--block 2048`). A plug-in with more or
/// fewer outputs than the file's channels is compared with `lv2file`'s outputs folded as
/// Detent folds them, and one that reports latency with `lv2file`'s output shifted by it.
@Suite("detent: every LV2 plug-in against lv2file")
struct LV2CatalogueTests {
    /// The plug-ins that disagree (by the end of their URI), and why.
    static let explained: [String: String] = [
        // lv2:sampleRate ports: their default is a fraction of the rate (0.251 for lsFilter's
        // cutoff is 12 kHz at 48 kHz), which lv2file writes unscaled (0.251 Hz).
        "swh-plugins/decimator": "lv2file leaves a sampleRate default unscaled",
        "swh-plugins/lsFilter": "lv2file leaves a sampleRate default unscaled",
        "swh-plugins/smoothDecimate": "lv2file leaves a sampleRate default unscaled",
        "swh-plugins/triplePara": "lv2file leaves a sampleRate default unscaled",
        // Their first run glides or fades from a starting state (comb from its starting delay,
        // delayorama in, x42's crossfader to its gains) or passes the input through (decay):
        // Detent runs every plug-in once for no frames before the audio, so they start at
        // the values they are given, the same for every block size.
        "swh-plugins/comb": "first run spent on the run of no frames",
        "swh-plugins/delayorama": "first run spent on the run of no frames",
        "swh-plugins/decay": "first run spent on the run of no frames",
        "oss/lv2/xfade": "first run spent on the run of no frames",
        // NaN or values beyond ±1e6 for this input: Detent passes the slot's input on in
        // their place and says so; lv2file writes them.
        "swh-plugins/bodeShifterCV": "absurd output, passed through",
        "swh-plugins/surroundEncoder": "absurd output, passed through",
        // Reads memory it has not written (chebstortion), or differs under lv2file from one
        // run to the next (const): either may agree or not.
        "swh-plugins/chebstortion": "reads uninitialised memory",
        "swh-plugins/const": "lv2file differs from itself",
        // swh's LV2 build: activate() is empty (the generated code zeroes copies it never
        // stores) and instantiate() mallocs without clearing, so the state these carry through
        // feedback starts as whatever the heap held: zero in lv2file's young process, NaN or
        // 1e16 in a busy one.
        "swh-plugins/harmonicGen": "state left by malloc",
        "swh-plugins/dcRemove": "state left by malloc",
        "swh-plugins/valve": "state left by malloc",
        "swh-plugins/zm1": "state left by malloc",
        "swh-plugins/freqTracker": "state left by malloc",
        "swh-plugins/gongBeater": "state left by malloc",
        "swh-plugins/matrixSpatialiser": "state left by malloc",
        "swh-plugins/ringmod_1i1o1l": "state left by malloc",
        // Each run sets its room size, whose early taps' gains it takes from the reverb time,
        // before the reverb time: a first run plays the taps with the gains of the 7 s it was
        // made with. Detent's run of no frames sets both first; from frame 1662 (the tap at
        // 0.155 of the room) lv2file's output differs by up to 1.4e-4 (−77 dB).
        "swh-plugins/gverb": "first run spent on the run of no frames",
    ]

    /// Of those, the ones that may agree in one run and not in the next.
    static let undefined: Set<String> = [
        "swh-plugins/chebstortion", "swh-plugins/const", "swh-plugins/harmonicGen", "swh-plugins/dcRemove",
        "swh-plugins/valve", "swh-plugins/zm1", "swh-plugins/freqTracker", "swh-plugins/gongBeater",
        "swh-plugins/matrixSpatialiser", "swh-plugins/ringmod_1i1o1l",
    ]

    /// Plug-ins whose latency at their defaults is the whole half-second file or more: their
    /// output is still checked (the input's length, finite), but nothing of it is compared.
    static let beyondTheFile: [String: String] = [
        "swh-plugins/artificialLatency": "a second of latency at its defaults",
        "swh-plugins/lookaheadLimiter": "its lookahead is the whole file",
    ]

    /// Plug-ins Debian ships with a library that cannot be loaded (swh-lv2 links these two
    /// without FFTW): Detent refuses them in one line naming the missing symbol.
    static let unloadable: Set<String> = ["swh-plugins/pitchScaleHQ", "swh-plugins/mbeq"]

    struct Plugin: Sendable {
        let uri: String
        let inputs: Int
    }

    /// What Detent's render of a plug-in gave, and how far it is from lv2file's.
    struct Outcome: Sendable {
        /// The largest difference as a fraction of full scale (or of the output's peak, when
        /// louder); nil when lv2file cannot run the plug-in or the latency leaves nothing to
        /// compare.
        let difference: Double?
        let latency: Int
        /// No sample of Detent's output beyond 1e-6.
        let silent: Bool
    }

    /// The frames of each test file: half a second.
    static let frames = 24_000

    /// Detent's render of `plugin` against lv2file's; a failure when Detent cannot render it or
    /// its output is not the input's length.
    static func outcome(_ plugin: Plugin, inputs folder: String) throws -> Result<Outcome, LadspaCatalogueTests.Failure> {
        let input = folder + "/noise\(plugin.inputs).wav"
        let work = TemporaryFolder()
        let rendered = try Detent.run(["render", input, "-o", work.file("detent.wav"), "--plugin", plugin.uri, "--block", "2048",
                                       "--subtype", "float", "--json"], in: work.path)
        guard rendered.status == 0 else { return .failure(.init("render: \(rendered.stderr)")) }
        let latency = try jsonObject(rendered.stdout.split(separator: "\n")[0])["latency"] as? Int ?? 0
        let (ours, _) = try decode(work.file("detent.wav"))
        let channels = plugin.inputs, frames = ours.count / channels
        guard frames == Self.frames else { return .failure(.init("wrote \(frames) frames of \(Self.frames)")) }
        guard ours.allSatisfy(\.isFinite) else { return .failure(.init("non-finite samples in the file")) }
        let silent = !ours.contains { abs($0) > 1e-6 }
        // lv2file crashing (or refusing) is no verdict on Detent: the plug-in is not compared.
        guard latency < frames,
              let peer = try? ChildProcess.run("/usr/bin/lv2file", ["-i", input, "-o", work.file("peer.wav"), "-b", "2048",
                                                                    "--ignore-clipping", plugin.uri], currentDirectory: work.path),
              peer.status.exited == 0, let (theirs, reader) = try? decode(work.file("peer.wav")) else {
            return .success(Outcome(difference: nil, latency: latency, silent: silent))
        }
        let outputs = reader.channels
        guard theirs.count / outputs == frames else { return .failure(.init("lv2file wrote \(theirs.count / outputs) frames of \(frames)")) }
        var largest = 0.0, peak = 1.0
        for frame in 0..<(frames - latency) {
            for c in 0..<channels {
                let sources = outputs > channels ? (0..<outputs).filter { $0 % channels == c } : [c % outputs]
                let peerValue = sources.map { Double(theirs[(frame + latency) * outputs + $0]) }.reduce(0, +) / Double(sources.count)
                let value = Double(ours[frame * channels + c])
                largest = max(largest, abs(value - peerValue))
                peak = max(peak, abs(value))
            }
        }
        return .success(Outcome(difference: largest / peak, latency: latency, silent: silent))
    }

    @Test("every plug-in lv2file runs agrees with it at its defaults, or is named here with why")
    func catalogue() throws {
        let folder = TemporaryFolder()
        let listing = try Detent.run(["plugins", "--json"], in: folder.path)
        #expect(listing.status == 0)
        let plugins = try listing.stdout.split(separator: "\n").map { try jsonObject($0) }.compactMap { object -> Plugin? in
            guard object["format"] as? String == "LV2", object["hostable"] as? Bool == true,
                  let uri = object["identifier"] as? String, let inputs = object["audioInputs"] as? Int,
                  let outputs = object["audioOutputs"] as? Int, inputs > 0, outputs > 0 else { return nil }
            return Plugin(uri: uri, inputs: inputs)
        }
        for channels in Set(plugins.map(\.inputs)) {
            // The same noise every time (`-R`).
            try tool("sox", ["-R", "-n", "-r", "48000", "-c", "\(channels)", "-b", "32", "-e", "floating-point",
                             folder.file("noise\(channels).wav"), "synth", "0.5", "pinknoise", "vol", "0.5"], in: folder)
        }
        let outcomes = Mutex([(uri: String, outcome: Result<Outcome, LadspaCatalogueTests.Failure>)]())
        let inputs = folder.path
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for plugin in plugins.enumerated().filter({ $0.offset % 2 == worker }).map(\.element) {
                let outcome: Result<Outcome, LadspaCatalogueTests.Failure>
                do { outcome = try Self.outcome(plugin, inputs: inputs) } catch { outcome = .failure(.init("\(error)")) }
                outcomes.withLock { $0.append((plugin.uri, outcome)) }
            }
        }
        let all = outcomes.withLock { $0 }
        #expect(all.count == plugins.count)
        let failures = all.compactMap { uri, outcome -> String? in
            if case .failure(let why) = outcome { return "\(uri): \(why)" }
            return nil
        }
        let refused = failures.filter { $0.contains("its library cannot be loaded") && $0.contains("undefined symbol: fftw") }
        #expect(Set(refused.compactMap { failure in Self.unloadable.first { failure.contains("/\($0):") } }) == Self.unloadable,
                "refused as unloadable: \(refused)")
        #expect(failures.count == refused.count && refused.count == Self.unloadable.count, "\(failures.sorted())")
        let rendered = all.compactMap { uri, outcome in (try? outcome.get()).map { (uri: uri, outcome: $0) } }
        let compared = rendered.compactMap { uri, outcome in outcome.difference.map { (uri: uri, difference: $0) } }
        #expect(compared.count > 150, "lv2file runs most swh, mda, zam and x42 plug-ins")
        func key(_ uri: String, in names: some Collection<String>) -> String? { names.first { uri.hasSuffix($0) } }
        // Every plug-in whose latency leaves nothing to compare is named, and each named one still does.
        let beyond = Set(rendered.filter { $0.outcome.latency >= Self.frames }.map(\.uri))
        #expect(beyond.filter { key($0, in: Self.beyondTheFile.keys) == nil }.isEmpty, "latency beyond the file: \(beyond.sorted())")
        #expect(Set(beyond.compactMap { key($0, in: Self.beyondTheFile.keys) }) == Set(Self.beyondTheFile.keys),
                "named for a latency beyond the file, but not so now: \(Self.beyondTheFile.keys.sorted()), beyond: \(beyond.sorted())")
        // Those whose output is undefined still put out sound, finite, of the input's length.
        let silentUndefined = rendered.filter { $0.outcome.silent && key($0.uri, in: Self.undefined) != nil }.map(\.uri)
        #expect(silentUndefined.isEmpty, "undefined and silent: \(silentUndefined)")
        #expect(Set(rendered.compactMap { key($0.uri, in: Self.undefined) }) == Self.undefined, "every undefined plug-in rendered")
        let disagreeing = compared.filter { $0.difference > 1e-5 }.map(\.uri)
        let unexplained = disagreeing.filter { key($0, in: Self.explained.keys) == nil }.sorted()
        let named = Set(disagreeing.compactMap { key($0, in: Self.explained.keys) })
        let agreeingNow = Set(Self.explained.keys).subtracting(named).subtracting(Self.undefined).sorted()
        #expect(unexplained.isEmpty, "disagree with lv2file: \(unexplained.map { uri in "\(uri) (\(compared.first { $0.uri == uri }?.difference ?? 0))" })")
        #expect(agreeingNow.isEmpty, "now agree with lv2file, or were not compared: \(agreeingNow)")
    }
}
