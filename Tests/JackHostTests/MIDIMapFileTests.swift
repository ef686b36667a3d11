import AudioEngine
import Foundation
import Parameters
import Testing
import TestSupport

/// `--midi-map FILE` and `midi save [FILE]` as a user meets them: bad files in one line with
/// where the fault is, and a mapping saved by a session read back by the next.
@Suite struct MIDIMapFileOptionTests {
    @Test(arguments: [
        ("{\n  \"mappings\": [\n    {\"parameter\": \"gain\" \"controller\": 7}\n  ]\n}\n", ":3:26: "),
        (#"{"mappings": [{"parameter": "volume", "controller": 7}]}"#, ": mappings[0].parameter: unknown parameter 'volume'"),
        (#"{"mappings": [{"parameter": "gain", "controller": 7, "encoding": "spin"}]}"#, ": mappings[0].encoding: expected one of absolute"),
    ])
    func aBadMappingFileIsOneLineNamingTheFileAndWhere(text: String, message: String) throws {
        let folder = TemporaryFolder()
        let path = folder.write("map.json", text: text)
        let run = try DetentProcess.run(["live", "--server", "detent-test-absent", "--midi-map", path])
        #expect(run.status == 64)
        #expect(run.stderr.count == 1)
        #expect(run.stderr.first?.hasPrefix("detent: --midi-map \(path)\(message)") == true, "\(run.stderr)")
    }

    @Test func aMissingMappingFileIsOneLine() throws {
        let run = try DetentProcess.run(["live", "--server", "detent-test-absent", "--midi-map", "/nonexistent/map.json"])
        #expect(run.status == 64)
        #expect(run.stderr == ["detent: --midi-map /nonexistent/map.json: cannot be read: No such file or directory"])
    }

    @Test func badTakeoverAndMIDIFreeOptionsAreOneLine() throws {
        let bad = try DetentProcess.run(["live", "--server", "detent-test-absent", "--midi-takeover", "glide"])
        #expect(bad.status == 64 && bad.stderr == ["detent: --midi-takeover 'glide': expected pickup or jump"])
        let none = try DetentProcess.run(["live", "--server", "detent-test-absent", "--no-midi", "--program-presets", "A"])
        #expect(none.status == 64 && none.stderr.first?.hasPrefix("detent: --no-midi leaves out the MIDI input") == true)
    }
}

extension JackTests {
    @Suite struct MIDIMapSaveTests {
        @Test func aMappingSavedWithMidiSaveIsReadBackByTheNextSession() throws {
            let server = try JackServer()
            defer { server.stop() }
            let folder = TemporaryFolder()
            let path = folder.file("studio.json")
            let first = try DetentProcess.run(
                ["live", "--server", server.name, "--headless", "--midi-cc", "cutoff=21", "--midi-channel", "5",
                 "--midi-takeover", "jump", "--program-presets", "Bright, Dark"],
                stdin: "midi gain 22\nmidi save \(path)\nmidi save \(path)\nmidi save\n")
            #expect(first.status == 0)
            #expect(first.stdout.count == 4)
            #expect(first.stdout[1] == "saved MIDI mapping \(path)")
            #expect(first.stdout[2] == "error: \(path) exists: midi save replaces only the --midi-map file")
            #expect(first.stdout[3] == "error: name a file: midi save FILE (or start with --midi-map FILE)")

            // The next session starts from the file, and may save over it.
            let second = try DetentProcess.run(["live", "--server", server.name, "--headless", "--midi-map", path],
                                               stdin: "midi\nmidi resonance none\nmidi save\n")
            #expect(second.status == 0)
            #expect(second.stdout.first == "midi cutoff CC 21 (jump), resonance CC 71 (jump), gain CC 22 (jump) on channel 5; "
                    + "program changes load Bright, Dark")
            #expect(second.stdout.last == "saved MIDI mapping \(path)")
            let saved = try String(contentsOfFile: path, encoding: .utf8)
            #expect(!saved.contains("\"resonance\""))
            #expect(saved.contains("\"channel\": 5"))

            // The --midi-map file named by another path (a link, ./) is still its own; the link stays one.
            let link = folder.file("link.json")
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
            let third = try DetentProcess.run(["live", "--server", server.name, "--headless", "--midi-map", path],
                                              stdin: "midi gain 23\nmidi save \(link)\nmidi save \(folder.path)/./studio.json\n")
            #expect(third.status == 0)
            #expect(third.stdout.dropFirst() == ["saved MIDI mapping \(link)", "saved MIDI mapping \(folder.path)/./studio.json"], "\(third.stdout)")
            #expect(try String(contentsOfFile: path, encoding: .utf8).contains("23"))
            #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == path)
        }

        @Test func aPresetSavedLiveKeepsTheMappingAndStartsTheNextSessionWithIt() throws {
            let server = try JackServer()
            defer { server.stop() }
            let config = TemporaryFolder()
            let environment = ["XDG_CONFIG_HOME": config.path]
            let first = try DetentProcess.run(["live", "--server", server.name, "--headless", "--midi-cc", "cutoff=21"],
                                              stdin: "set gain -3\npreset save Mix\n", environment: environment)
            #expect(first.status == 0 && first.stdout.last == "saved preset Mix")
            let second = try DetentProcess.run(["live", "--server", server.name, "--headless", "--preset", "Mix"],
                                               stdin: "midi\nget gain\n", environment: environment)
            #expect(second.status == 0)
            #expect(second.stdout.first == "midi cutoff CC 21, resonance CC 71, gain CC 7 on all channels")
            #expect(second.stdout.last == "gain=" + LowpassGain.table[.gain].format(-3, ascii: true))
            // --midi-map wins over the preset's mapping.
            let map = config.write("map.json", text: #"{"mappings": [{"parameter": "gain", "controller": 9}]}"#)
            let third = try DetentProcess.run(["live", "--server", server.name, "--headless", "--preset", "Mix", "--midi-map", map],
                                              stdin: "midi\n", environment: environment)
            #expect(third.stdout.first == "midi gain CC 9 on all channels")
        }
    }
}
