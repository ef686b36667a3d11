import Control
import AudioEngine
import Foundation
import JackHost
import Testing
import Parameters
import TestSupport

/// `detent live` as a program: options, standard input and output, signals, exit status.
@Suite struct LiveOptionErrorTests {
    @Test(arguments: [
        (["--set", "cutoff=fast"], "--set 'cutoff=fast': \(try! #require(#expect(throws: ParameterError.self) { try LowpassGain.table.parseAssignment("cutoff=fast") }))"),
        (["--set", "volume=3"], "--set 'volume=3': " + ParameterError.unknownID("volume", valid: LowpassGain.table.textIDs).description),
        (["--preset", "Nope"], "no preset named 'Nope' (see 'detent preset list')"),
        (["--channels", "0"], LiveHostError.invalidChannels(0).description),
        (["--smoothing", "-5"], LiveHostError.invalidSmoothing(-5).description),
        (["--midi-channel", "17"], "invalid --midi-channel '17': expected 1 … 16 or all"),
        (["--midi-cc", "cutoff=200"], "invalid --midi-cc 'cutoff=200': expected a controller number 0 … 119 or none"),
        (["--midi-cc", "cutoff=1", "--midi-cc", "gain=1"], "invalid --midi-cc 'gain=1': controller 1 is already given to cutoff"),
        (["--no-midi", "--midi-channel", "3"], "--no-midi leaves out the MIDI input that --connect-midi, --midi-cc, --midi-channel, --midi-map, --midi-takeover, --program-presets and --no-midi-feedback set up"),
    ])
    func aBadOptionFailsWithOneLine(arguments: [String], message: String) throws {
        let run = try DetentProcess.run(["live", "--server", "detent-test-absent"] + arguments)
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == ["detent: \(message)"])
    }

    /// A live host's callback has buffers for a fixed number of extra input sets: a graph that
    /// needs more is refused at start, not given silent inputs.
    @Test func moreNamedInputsThanTheHostHasPortsForFailWithOneLine() throws {
        let folder = TemporaryFolder()
        let keys = (1...JackSession.sideSetCapacity + 1).map { "k\($0)" }
        let graph = folder.file("g.json")
        let connections = ([["input", "a"]] + keys.map { [$0, "a"] } + [["a", "output"]])
            .map { "[\"\($0[0])\", \"\($0[1])\"]" }.joined(separator: ", ")
        try #"{"slots": {"a": {"plugin": "builtin"}}, "connections": [\#(connections)]}"#.write(toFile: graph, atomically: true, encoding: .utf8)
        let run = try DetentProcess.run(["live", "--server", "detent-test-absent", "--graph", graph])
        #expect(run.status != 0)
        #expect(run.stderr == ["detent: the processor cannot start: a live host has ports for \(JackSession.sideSetCapacity) side-chain slots and named inputs; this needs \(keys.count)"])
    }

    @Test func aBadPatternFailsWithOneLine() throws {
        let run = try DetentProcess.run(["live", "--server", "detent-test-absent", "--connect-inputs", "capture_("])
        #expect(run.status == 64)
        #expect(run.stderr.count == 1)
        #expect(run.stderr.first?.hasPrefix("detent: invalid --connect-inputs pattern 'capture_(': ") == true)
    }

    @Test func noServerFailsWithOneLineSayingHowToStartOne() throws {
        let name = "detent-test-absent-\(getpid())"
        let run = try DetentProcess.run(["live", "--server", name])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == ["detent: \(LiveHostError.noServer(server: name))"])
    }

    /// libjack joins `$JACK_DEFAULT_SERVER` when no server is named: the hint names it too.
    @Test func noServerNamedByTheEnvironmentIsNamedInTheHint() throws {
        let name = "detent-test-absent-env-\(getpid())"
        for arguments in [["live"], ["midi", "monitor"]] {
            let run = try DetentProcess.run(arguments, environment: ["JACK_DEFAULT_SERVER": name])
            #expect(run.status == 1)
            #expect(run.stderr == ["detent: \(LiveHostError.noServer(server: name))"])
            #expect(run.stderr.first?.contains("jackd -n \(name)") == true)
        }
    }
}

extension JackTests {
    @Suite struct LiveCommandLineTests {
        @Test func headlessCommandsAnswerOneLineEachAndEndOfInputQuits() throws {
            let server = try JackServer()
            let run = try DetentProcess.run(
                ["live", "--server", server.name, "--headless", "--set", "gain=-6", "--smoothing", "1"],
                stdin: "get gain\nset cutoff 1.2k\n\n# a comment\nbogus\nset resonance 99\nparams\nstatus\n")
            #expect(run.status == 0)
            let spec = LowpassGain.table[.resonance]
            let rangeError = #expect(throws: ParameterError.self) { try spec.parse("99") }
            #expect(Array(run.stdout.prefix(5)) == [
                "gain=" + LowpassGain.table[.gain].format(-6, ascii: true),
                "cutoff=" + LowpassGain.table[.cutoff].format(1_200, ascii: true),
                "error: unknown command 'bogus' (try 'help')",
                "error: \(rangeError!)",
                CommandAnswer.values([.cutoff: 1_200, .resonance: spec.defaultValue, .gain: -6]).text(LowpassGain.table),
            ])
            #expect(run.stdout.count == 6)
            #expect(run.stdout.last?.hasPrefix("server \(server.name), client detent, 48000 Hz, \(server.period) frames, xruns ") == true)
            #expect(run.stderr.count == 1, "\(run.stderr)")
            #expect(run.stderr.first?.hasPrefix("detent: 'detent' on JACK server '\(server.name)'") == true)
            #expect(run.stderr.first?.contains("; MIDI: cutoff CC 74, resonance CC 71, gain CC 7 on all channels;") == true)
            server.stop()
        }

        @Test func jsonAnswersAndQuit() throws {
            let server = try JackServer()
            let detent = try DetentProcess(["live", "--server", server.name, "--json", "--channels", "1"])
            detent.send("set cutoff 800 Hz\nget cutoff\nset cutoff nope\nstatus\nquit\n")
            // The input stays open: `quit` alone ends the session.
            let run = detent.finish()
            #expect(run.status == 0)
            #expect(run.stdout.count == 5)
            let set = try jsonObject(run.stdout[0])
            #expect(set["ok"] as? Bool == true && set["id"] as? String == "cutoff" && set["value"] as? Double == 800)
            #expect(try jsonObject(run.stdout[1])["value"] as? Double == 800)
            let error = try jsonObject(run.stdout[2])
            #expect(error["ok"] as? Bool == false)
            let invalid = #expect(throws: ParameterError.self) { try LowpassGain.table[.cutoff].parse("nope") }
            #expect(error["error"] as? String == invalid?.description)
            let status = try jsonObject(run.stdout[3])
            #expect(status["sampleRate"] as? Int == 48_000 && status["bufferSize"] as? Int == server.period)
            #expect((status["peaks"] as? [Double])?.count == 1)
            #expect(try jsonObject(run.stdout[4])["bye"] as? Bool == true)
            detent.closeInput()
            server.stop()
        }

        @Test func presetsComeFromThePresetStore() throws {
            let server = try JackServer()
            let config = TemporaryFolder()
            let detent = try DetentProcess(["live", "--server", server.name, "--json", "--channels", "1"],
                                           environment: ["XDG_CONFIG_HOME": config.path])
            // A factory preset loads; the knobs moved since are saved as a user preset, which
            // `detent preset` then sees with the same values.
            detent.send("preset load Telephone\nget cutoff\nset gain -9 dB\npreset save Live take\nquit\n")
            let run = detent.finish()
            #expect(run.status == 0)
            #expect(try jsonObject(run.stdout[0])["ok"] as? Bool == true)
            #expect(try jsonObject(run.stdout[1])["value"] as? Double == 3_400)
            #expect(try jsonObject(run.stdout[3])["ok"] as? Bool == true)
            let shown = try DetentProcess.run(["preset", "show", "Live take", "--json"], environment: ["XDG_CONFIG_HOME": config.path])
            #expect(shown.status == 0)
            let values = try jsonObject(shown.stdout.joined(separator: "\n"))["values"] as? [String: Double]
            #expect(values == ["cutoff": 3_400, "resonance": 1.4, "gain": -9])
            detent.closeInput()
            server.stop()
        }

        @Test(arguments: [SIGTERM, SIGINT])
        func aSignalClosesTheClientCleanly(signal: Int32) throws {
            let server = try JackServer()
            let detent = try DetentProcess(["live", "--server", server.name, "--name", "signalled"])
            let observer = try TestClient("observer", server: server.name)
            try waitUntil("the ports appear") { observer.ports(matching: "^signalled:").count == 6 }
            detent.child.signal(signal)
            let run = detent.finish()
            #expect(run.status == 0)
            #expect(observer.ports(matching: "^signalled:").isEmpty)
            observer.close()
            server.stop()
        }

        @Test func aTakenExactNameFailsWithOneLine() throws {
            let server = try JackServer()
            let first = try DetentProcess(["live", "--server", server.name])
            let observer = try TestClient("observer", server: server.name)
            try waitUntil("the first client is up") { observer.ports(matching: "^detent:").count == 6 }
            observer.close()
            let second = try DetentProcess.run(["live", "--server", server.name, "--exact-name"])
            #expect(second.status == 1)
            #expect(second.stderr == ["detent: \(LiveHostError.nameTaken("detent"))"])
            first.closeInput()
            #expect(first.finish().status == 0)
            server.stop()
        }

        @Test func withoutReconnectALostServerEndsTheProgramWithStatusOne() throws {
            let server = try JackServer()
            // Once it says it runs, its client is active: the server is lost, not its activation.
            let detent = try LiveProgram(on: server, ["--no-reconnect"])
            server.kill()
            #expect(detent.child.wait().exited == 1)
            #expect(detent.messages.last == "detent: the JACK server '\(server.name)' stopped; exiting (--no-reconnect)")
            try server.start()
            server.stop()
        }
    }
}
