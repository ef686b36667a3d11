import ArgumentParser
@testable import DetentCLI
import RenderJobs
import TestSupport
import Testing

/// `detent render` lines read without ArgumentParser: every line the fast reading takes, it
/// reads as ArgumentParser does; every line ArgumentParser refuses, it leaves to it.
@Suite("Plain render lines")
struct PlainRenderArgumentsTests {
    /// What ArgumentParser makes of `words` (after `render`), or nil when it refuses them.
    func parsed(_ words: [String]) -> RenderOptions? {
        guard let command = try? RenderCommand.parse(words), !command.renderWorker else { return nil }
        return command.options
    }

    @Test("a script's lines take the fast reading, with ArgumentParser's result", arguments: [
        ["one.wav", "-o", "out.wav", "--set", "cutoff=1000", "--set", "gain=-6", "--quiet", "--force"],
        ["a.wav", "b.wav", "--out-dir", "out", "--json", "--plugin", "MDA Overdrive", "--plugin", "eq=builtin"],
        ["-", "-o", "-", "--format", "flac", "--compression=8", "--tail", "auto", "--normalize", "-23"],
        ["--manifest", "jobs.jsonl", "--shard", "3/8", "--skip-existing", "--jobs", "2", "--seed", "7",
         "--variants", "4", "--vary", "cutoff=100..1000", "--write-manifest", "all.jsonl"],
        ["in.wav", "--preset", "Dark", "--block", "512", "--bpm", "98.5", "--no-dither", "--quality", "0.4",
         "--midi", "song.mid", "--sidechain", "comp=key.wav", "--graph", "g.json", "--input", "key=k.wav"],
    ])
    func scriptLines(words: [String]) throws {
        let fast = try #require(PlainRenderArguments.options(from: ["render"] + words))
        #expect(fast == parsed(words))
    }

    @Test("help, version, unknown options, missing or malformed values and repeats go to ArgumentParser", arguments: [
        ["--help"], ["-h"], ["help"], ["--version"], ["a.wav", "--bogus"], ["a.wav", "--set"], ["a.wav", "--jobs", "two"],
        ["a.wav", "--", "-b.wav"], ["a.wav", "-o", "x.wav", "--output", "y.wav"], ["a.wav", "--quiet", "--quiet"],
        ["a.wav", "--set", "-3"], ["a.wav", "--render-worker"], ["a.wav", "-ox.wav"], ["a.wav", "--output="],
        ["a.wav", "--force=yes"], ["-3.wav"],
    ])
    func declined(words: [String]) {
        #expect(PlainRenderArguments.options(from: ["render"] + words) == nil || words == ["help"])
        if words == ["help"], let fast = PlainRenderArguments.options(from: ["render", "help"]) {
            #expect(fast == parsed(words))
        }
    }

    @Test("other commands are never read here")
    func otherCommands() {
        #expect(PlainRenderArguments.options(from: ["params"]) == nil)
        #expect(PlainRenderArguments.options(from: ["live", "--set", "cutoff=1k"]) == nil)
        #expect(PlainRenderArguments.options(from: []) == nil)
    }

    func below(_ random: inout TestSupport.SplitMix64, _ n: Int) -> Int { Int(random.next() % UInt64(n)) }

    @Test("2,000 random lines of its options: taken only as ArgumentParser reads them")
    func randomLines() {
        var random = TestSupport.SplitMix64(seed: 38)
        let names = RenderOption.byFlag.keys.sorted() + ["--bogus", "--", "-x", "--help"]
        let values = ["a.wav", "-", "x=1", "-3", "--json", "12", "1.5", "", "=", "b c", "gain=-6dB", "nan", "+4", "0x10",
                      "18446744073709551615", "-1/4", "--set", "ü.wav"]
        var taken = 0
        for _ in 0..<2_000 {
            var words: [String] = []
            for _ in 0..<below(&random, 7) {
                switch below(&random, 4) {
                case 0: words.append(random.pick(values))
                case 1:
                    let name = random.pick(names)
                    let value = random.pick(values)
                    words.append(name.hasPrefix("--") && below(&random, 3) == 0 ? "\(name)=\(value)" : name)
                default:
                    words.append(random.pick(names))
                    words.append(random.pick(values))
                }
            }
            guard let fast = PlainRenderArguments.options(from: ["render"] + words) else { continue }
            taken += 1
            // Compared as text, where NaN (`--bpm nan`) equals itself.
            let slow = parsed(words).map { "\($0)" }
            #expect("\(fast)" == slow, "render \(words)")
            if "\(fast)" != slow { return }
        }
        // The lines must have reached the fast reading often enough to mean something.
        #expect(taken > 200)
    }
}
