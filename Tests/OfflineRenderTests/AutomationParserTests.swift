import Glibc
import Testing
import Parameters
import TestSupport
@testable import OfflineRender
import AudioEngine

@Suite("Automation files")
struct AutomationParserTests {
    @Test("every form of time, value and ramp")
    func grammar() throws {
        let text = """
            \u{FEFF}# a comment line

            0 cutoff 200            # trailing comment
            1.5s    cutoff  8k   ramp 2s
            250ms\tgain\t-6 dB\tRAMP 4800smp
            72000smp resonance 4 ramp 0\r
            2e-1s GAIN -inf
            3s cutoff 1.2 kHz
            """
        let a = try AutomationParser.parse(text, path: "a.txt", table: LowpassGain.table)
        #expect(a.events == [
            AutomationEvent(time: .frames(0), parameter: .cutoff, value: 200, line: 3),
            AutomationEvent(time: .seconds(1.5), parameter: .cutoff, value: 8_000, ramp: .seconds(2), line: 4),
            AutomationEvent(time: .seconds(0.25), parameter: .gain, value: -6, ramp: .frames(4_800), line: 5),
            AutomationEvent(time: .frames(72_000), parameter: .resonance, value: 4, ramp: .frames(0), line: 6),
            AutomationEvent(time: .seconds(0.2), parameter: .gain, value: LowpassGain.table[.gain].range.lowerBound, line: 7),
            AutomationEvent(time: .seconds(3), parameter: .cutoff, value: 1_200, line: 8),
        ])
    }

    @Test("times become frames at the file's rate, sorted, with file order kept on one frame")
    func changes() throws {
        let a = try AutomationParser.parse("1s gain -1\n0.5s gain -2 ramp 10ms\n24000smp cutoff 300 ramp 0\n0 gain -3", path: "a", table: LowpassGain.table)
        let changes = try a.changes(sampleRate: 48_000, input: "in.wav")
        #expect(changes == [
            ParameterChange(.gain, -3, frame: 0),
            ParameterChange(.gain, -2, frame: 24_000, rampFrames: 480),
            ParameterChange(.cutoff, 300, frame: 24_000, rampFrames: 0),
            ParameterChange(.gain, -1, frame: 48_000),
        ])
        // 1/3 s at 44.1 kHz is 14700 frames exactly; 1 ms is 44.1 frames, rounded to 44.
        let b = try AutomationParser.parse("0.333333333333s gain -1 ramp 1ms", path: "b", table: LowpassGain.table)
        #expect(try b.changes(sampleRate: 44_100, input: "x") == [ParameterChange(.gain, -1, frame: 14_700, rampFrames: 44)])
    }

    @Test("a ramp longer than the engine can count is refused for that file")
    func rampTooLong() throws {
        let a = try AutomationParser.parse("0 gain -1 ramp 100000s", path: "auto.txt", table: LowpassGain.table)
        #expect(throws: AudioFileError.automationDoesNotFit(path: "auto.txt", input: "in.wav", reason: "line 1: ramp 100000.0s is too long")) {
            try a.changes(sampleRate: 48_000, input: "in.wav")
        }
        #expect(try a.changes(sampleRate: 8_000, input: "in.wav").first?.rampFrames == 800_000_000)
    }

    @Test("bad lines are refused with the file, the line and the reason", arguments: [
        ("0 cutoff", 1, "expected TIME PARAMETER VALUE [ramp DURATION], got '0 cutoff'"),
        ("# ok\n1 cutoff 300", 2, "time '1' has no unit: write seconds (1.5s), milliseconds (250ms) or whole samples (72000smp)"),
        ("1x cutoff 300", 1, "invalid time '1x': write seconds (1.5s), milliseconds (250ms) or whole samples (72000smp)"),
        ("-1s cutoff 300", 1, "invalid time '-1s': must not be negative"),
        ("1.5smp cutoff 300", 1, "invalid time '1.5smp': samples are a whole number ≥ 0 (72000smp)"),
        ("nans cutoff 300", 1, "invalid time 'nans': write seconds (1.5s), milliseconds (250ms) or whole samples (72000smp)"),
        ("0x10s cutoff 300", 1, "invalid time '0x10s': write seconds (1.5s), milliseconds (250ms) or whole samples (72000smp)"),
        ("0 cutof 300", 1, "unknown parameter 'cutof' (valid ids: cutoff, resonance, gain)"),
        ("0 cutoff loud", 1, "invalid cutoff value 'loud': expected a frequency in Hz (800, 800 Hz, 1.2k, 1.2 kHz)"),
        ("0 cutoff 30k", 1, "cutoff value '30k' is out of range (20.0 Hz … 20.0 kHz)"),
        ("0 gain -6 ramp", 1, "'ramp' needs a duration, e.g. 'ramp 2s'"),
        ("0 gain -6 ramp 2s 3s", 1, "expected one duration after 'ramp', got '2s 3s'"),
        ("0 gain ramp 2s", 1, "missing value for gain"),
        ("0 gain -6 ramp fast", 1, "invalid ramp 'fast': write seconds (1.5s), milliseconds (250ms) or whole samples (72000smp)"),
    ])
    func rejects(text: String, line: Int, reason: String) {
        #expect(throws: AudioFileError.automation(path: "auto.txt", line: line, reason: reason)) {
            try AutomationParser.parse(text, path: "auto.txt", table: LowpassGain.table)
        }
    }

    @Test("bytes that are not UTF-8 name their line")
    func notText() {
        #expect(throws: AudioFileError.automation(path: "a", line: 2, reason: "not UTF-8 text")) {
            try AutomationParser.parse(Array("0 gain -1\n".utf8) + [0xFF, 0xFE, 0x00], path: "a", table: LowpassGain.table)
        }
    }

    @Test("the error line reads 'file:line: reason'")
    func message() {
        #expect(AudioFileError.automation(path: "auto.txt", line: 3, reason: "missing value for gain").description
            == "auto.txt:3: missing value for gain")
    }

    @Test("loading: a missing file and a folder are I/O errors")
    func loading() {
        #expect(throws: AudioFileError.cannotOpen(path: "/nonexistent/auto.txt", reason: "No such file or directory")) {
            try Automation.load(path: "/nonexistent/auto.txt", table: LowpassGain.table)
        }
        #expect(throws: AudioFileError.isDirectory(path: "/")) { try Automation.load(path: "/", table: LowpassGain.table) }
    }

    @Test("loading: a file over 64 MB, or an endless one, is refused without reading it all")
    func loadingTooLarge() throws {
        let folder = TemporaryFolder()
        let path = folder.write("huge.txt", [])
        try #require(truncate(path, (64 << 20) + 1) == 0)  // sparse: no disk space used
        let refused = "larger than 64 MB; not an automation file"
        #expect(throws: AudioFileError.automation(path: path, line: 1, reason: refused)) {
            try Automation.load(path: path, table: LowpassGain.table)
        }
        #expect(throws: AudioFileError.automation(path: "/dev/zero", line: 1, reason: refused)) {
            try Automation.load(path: "/dev/zero", table: LowpassGain.table)
        }
    }
}
