import Foundation
import Testing
import TestSupport

/// `detent live --http` on a private JACK server, through HTTP and WebSocket clients of the
/// tests' own: the page, OSCQuery, changes both ways, and the access rules. One at a time:
/// JACK keeps at most eight servers on a machine, and other suites start theirs too.
@Suite("Live web panel", .serialized)
struct LiveWebTests {
    /// `detent live --headless --no-midi --http 0 ARGUMENTS` on a new server.
    static func start(_ arguments: [String] = []) throws -> (JackServer, LiveProgram, Int) {
        let server = try JackServer()
        let detent = try LiveProgram(on: server, ["--headless", "--no-midi", "--http", "0"] + arguments)
        return (server, detent, try detent.webPort())
    }

    static func origin(_ port: Int) -> [String: String] { ["Origin": "http://127.0.0.1:\(port)"] }

    @Test("The page is served embedded, with a policy that keeps it to itself")
    func page() throws {
        let (_, detent, port) = try Self.start()
        let page = try httpGet(port: port, "/", headers: ["Accept": "text/html,application/xhtml+xml"])
        #expect(page.status == 200)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.headers["content-security-policy"]?.contains("frame-ancestors 'none'") == true)
        #expect(page.body.hasPrefix("<!doctype html>") && page.body.contains("new WebSocket(url)"))
        #expect(!page.body.contains("http://") || !page.body.contains("<script src"), "nothing is fetched from elsewhere")
        #expect(page.body.utf8.count < 64_000)
        #expect(try httpGet(port: port, "/panel").body == page.body)
        #expect(detent.finish() == 0)
    }

    @Test("OSCQuery LISTEN: a listened parameter's every change comes as an OSC message; IGNORE stops it; a chain edit says PATH_CHANGED")
    func oscQueryListen() throws {
        let (_, detent, port) = try Self.start(["--plugin", "a=builtin", "--plugin", "b=builtin"])
        let socket = try PanelSocket(port: port, path: "/")
        socket.send(#"{"COMMAND":"LISTEN","DATA":"/detent/param/a.gain"}"#)
        /// The next binary message, read as the OSC message `PATH ,f VALUE`.
        func nextMessage() throws -> (String, Float) {
            while let (opcode, payload) = socket.receiveMessage() {
                guard opcode == 2 else { continue }
                let end = try #require(payload.firstIndex(of: 0))
                let path = String(decoding: payload[..<end], as: UTF8.self)
                let tags = (end + 4) / 4 * 4
                #expect(Array(payload[tags..<(tags + 4)]) == [0x2C, 0x66, 0, 0], "type tags ,f")
                let bits = payload[(tags + 4)..<(tags + 8)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                return (path, Float(bitPattern: bits))
            }
            throw TCPConnection.Failure(description: "no OSC message came")
        }
        // The listen is taken before the change: asked until the first one arrives.
        var told: (String, Float)?
        for value in [-3, -4, -5] where told == nil {
            _ = try detent.ask("set a.gain \(value)")
            told = try? nextMessage()
        }
        let first = try #require(told, "\(detent.messages)")
        #expect(first.0 == "/detent/param/a.gain" && [-3, -4, -5].contains(first.1))
        _ = try detent.ask("set a.gain -7.5")
        let second = try nextMessage()
        #expect(second.0 == "/detent/param/a.gain" && second.1 == -7.5)
        // Not listened: nothing for the cutoff; then IGNORE, and nothing for the gain either.
        _ = try detent.ask("set a.cutoff 900")
        socket.send(#"{"COMMAND":"IGNORE","DATA":"/detent/param/a.gain"}"#)
        _ = try detent.ask("status")
        _ = try detent.ask("set a.gain -9")
        // A chain edit: the tree changed.
        _ = try detent.ask("chain add c=builtin")
        var sawChange = false
        while let (opcode, payload) = socket.receiveMessage() {
            if opcode == 2 {
                let text = String(decoding: payload.prefix { $0 != 0 }, as: UTF8.self)
                Issue.record("an OSC message after IGNORE or for an unlistened parameter: \(text)")
            } else if String(decoding: payload, as: UTF8.self) == #"{"COMMAND":"PATH_CHANGED","DATA":"/detent/param"}"# {
                sawChange = true
                break
            }
        }
        #expect(sawChange)
        // Something that is no OSCQuery command closes that socket.
        socket.send("hello")
        #expect(socket.closedCode() == 1003)
        #expect(detent.finish() == 0)
    }

    @Test("OSCQuery: HOST_INFO names the OSC port; the tree has types, ranges, units and values")
    func oscQuery() throws {
        let (_, detent, port) = try Self.start(["--osc", "0", "--set", "cutoff=1200", "--set", "gain=-6"])
        let oscLine = try #require(detent.messages.first { $0.contains("OSC on UDP 127.0.0.1:") })
        let oscPort = try #require(Int(oscLine.split(separator: ":").last ?? ""))

        let info = try jsonObject(try httpGet(port: port, "/?HOST_INFO").body)
        #expect(info["NAME"] as? String == "Detent")
        #expect(info["OSC_PORT"] as? Int == oscPort)
        #expect(info["OSC_TRANSPORT"] as? String == "UDP")
        #expect(info["OSC_IP"] as? String == "127.0.0.1")
        let extensions = try #require(info["EXTENSIONS"] as? [String: Bool])
        #expect(extensions["VALUE"] == true && extensions["RANGE"] == true && extensions["LISTEN"] == true)

        let root = try jsonObject(try httpGet(port: port, "/").body)
        #expect(root["FULL_PATH"] as? String == "/")
        let detentNode = try #require((root["CONTENTS"] as? [String: Any])?["detent"] as? [String: Any])
        let param = try #require((detentNode["CONTENTS"] as? [String: Any])?["param"] as? [String: Any])
        let contents = try #require(param["CONTENTS"] as? [String: Any])
        #expect(Set(contents.keys) == ["cutoff", "resonance", "gain"])
        let cutoff = try #require(contents["cutoff"] as? [String: Any])
        #expect(cutoff["FULL_PATH"] as? String == "/detent/param/cutoff")
        #expect(cutoff["TYPE"] as? String == "f")
        #expect(cutoff["ACCESS"] as? Int == 3)
        #expect(cutoff["VALUE"] as? [Double] == [1200])
        let range = try #require((cutoff["RANGE"] as? [[String: Any]])?.first)
        #expect(range["MIN"] as? Double == 20 && range["MAX"] as? Double == 20_000)
        #expect(cutoff["UNIT"] as? [String] == ["time.hz"])
        #expect(cutoff["DESCRIPTION"] as? String == "Cutoff")
        #expect((contents["gain"] as? [String: Any])?["UNIT"] as? [String] == ["gain.db"])

        // One node, one attribute, and a node that is not there.
        let gain = try jsonObject(try httpGet(port: port, "/detent/param/gain?VALUE").body)
        #expect(gain as NSDictionary == ["VALUE": [-6]] as NSDictionary)
        #expect(try httpGet(port: port, "/detent/param/nothing").status == 404)
        // After a typed change, the tree says so.
        _ = try detent.ask("set gain -3")
        #expect(try jsonObject(try httpGet(port: port, "/detent/param/gain?VALUE").body)["VALUE"] as? [Double] == [-3])

        // An OSC client that read the tree sends to the port and path it names (liblo's oscsend).
        let path = try #require(cutoff["FULL_PATH"] as? String)
        let sent = try ChildProcess.run("/usr/bin/oscsend", ["127.0.0.1", "\(oscPort)", path, "f", "900"])
        #expect(sent.status.exited == 0)
        try waitUntil("the OSC change lands") { (try? detent.ask("get cutoff")) == "cutoff=900 Hz" }
        #expect(try jsonObject(try httpGet(port: port, "/detent/param/cutoff?VALUE").body)["VALUE"] as? [Double] == [900])
        // After a chain edit, HOST_INFO names the chain as it is now.
        #expect(try detent.ask("chain add drive=http://drobilla.net/plugins/mda/Overdrive").hasPrefix("chain builtin"))
        let renamed = try jsonObject(try httpGet(port: port, "/?HOST_INFO").body)
        #expect(renamed["NAME"] as? String == "Lowpass + gain → MDA Overdrive", "\(renamed)")
        #expect(detent.finish() == 0)
    }

    @Test("A page's changes reach the host; a typed set, a reset and another page's changes reach every page")
    func bothWays() throws {
        let (_, detent, port) = try Self.start(["--set", "cutoff=1200"])
        let a = try PanelSocket(port: port, headers: Self.origin(port))
        let b = try PanelSocket(port: port, headers: Self.origin(port))
        let layout = try a.next("layout")
        #expect(layout["title"] as? String == "Detent")
        let cutoff = try #require(entry("cutoff", in: layout))
        #expect(cutoff["value"] as? Double == 1200 && cutoff["text"] as? String == "1.20 kHz")
        #expect(cutoff["kind"] as? String == "continuous" && cutoff["unit"] as? String == "Hz")
        _ = try b.next("layout")

        // A value, a typed value with its unit, a knob position (through the taper).
        a.send(#"{"type":"value","id":"cutoff","value":800}"#)
        _ = try b.next("values") { entry("cutoff", in: $0)?["value"] as? Double == 800 }
        #expect(try detent.ask("get cutoff") == "cutoff=800 Hz")
        a.send(#"{"type":"text","id":"gain","text":"-6 dB"}"#)
        let typed = try b.next("values") { entry("gain", in: $0) != nil }
        #expect(entry("gain", in: typed)?["text"] as? String == "−6.0 dB")
        a.send(#"{"type":"position","id":"gain","position":0.5}"#)   // -60…12 dB, linear: -24 dB
        _ = try b.next("values") { entry("gain", in: $0)?["value"] as? Double == -24 }
        #expect(try detent.ask("get gain") == "gain=-24.0 dB")

        // Typed on standard input: both pages hear it.
        _ = try detent.ask("set resonance 2")
        for page in [a, b] {
            let values = try page.next("values") { entry("resonance", in: $0) != nil }
            #expect(entry("resonance", in: values)?["value"] as? Double == 2)
            #expect(entry("resonance", in: values)?["text"] as? String == "2.00")
        }
        // Reset: the default (no Default preset here: the factory's 1 kHz).
        b.send(#"{"type":"reset","id":"cutoff"}"#)
        _ = try a.next("values") { entry("cutoff", in: $0)?["value"] as? Double == 1000 }
        #expect(try detent.ask("get cutoff") == "cutoff=1.00 kHz")

        // A typo is answered on that page and changes nothing.
        a.send(#"{"type":"text","id":"cutoff","text":"loud"}"#)
        let error = try a.next("error")
        #expect((error["message"] as? String)?.contains("loud") == true)
        a.send(#"{"type":"value","id":"nothing","value":1}"#)
        #expect((try a.next("error")["message"] as? String) == "no parameter 'nothing'")
        #expect(try detent.ask("get cutoff") == "cutoff=1.00 kHz")
        #expect(detent.finish() == 0)
    }

    @Test("A page is offered the presets, saves and loads them by name, never by path")
    func presets() throws {
        let (_, detent, port) = try Self.start(["--set", "cutoff=1500"])
        let page = try PanelSocket(port: port, headers: Self.origin(port))
        _ = try page.next("layout")
        // The names to offer come with the layout: the factory presets, and the user's after a save.
        let offered = try #require(try page.next("presets")["names"] as? [String])
        #expect(Set(offered).isSuperset(of: ["Default", "Dark", "Telephone"]) && !offered.contains("From the phone"), "\(offered)")
        // One socket's messages are followed in order: saved at 1.5 kHz, then turned away.
        page.send(#"{"type":"preset","action":"save","name":"From the phone"}"#)
        _ = try page.next("presets") { ($0["names"] as? [String])?.contains("From the phone") == true }
        page.send(#"{"type":"value","id":"cutoff","value":300}"#)
        _ = try page.next("values") { entry("cutoff", in: $0)?["value"] as? Double == 300 }
        page.send(#"{"type":"preset","action":"load","name":"From the phone"}"#)
        _ = try page.next("values") { entry("cutoff", in: $0)?["value"] as? Double == 1500 }
        #expect(try detent.ask("get cutoff") == "cutoff=1.50 kHz")
        // The typed commands find the same preset.
        _ = try detent.ask("set cutoff 300")
        #expect(try detent.ask("preset load From the phone").contains("cutoff=1.50 kHz"))
        page.send(#"{"type":"preset","action":"load","name":"/etc/passwd"}"#)
        #expect(try page.next("error")["message"] as? String == "'/etc/passwd': a preset's name, not a file's path")
        page.send(#"{"type":"preset","action":"load","name":"Nothing such"}"#)
        #expect((try page.next("error")["message"] as? String)?.contains("Nothing such") == true)
        #expect(detent.finish() == 0)
    }

    /// MIDI learn from a page: the next controller heard is mapped to the parameter, and every
    /// page is told which. The controller is a second `detent live`, whose `midi_out` sends its
    /// cutoff's position as CC 21 when it changes.
    @Test("A page's MIDI learn maps the next controller heard, and every page hears which")
    func midiLearn() throws {
        let server = try JackServer()
        let controller = try LiveProgram(server.liveArguments + ["--headless", "--name", "controller", "--midi-cc", "cutoff=21",
                                                                 "--midi-cc", "resonance=none", "--midi-cc", "gain=none"],
                                         environment: server.clientEnvironment)
        try controller.waitForMessage("'controller' on JACK server")
        let detent = try LiveProgram(on: server, ["--headless", "--http", "0", "--connect-midi", "^controller:midi_out$"])
        try waitUntil("the controller's midi_out is connected") {
            (try? ChildProcess.run("/usr/bin/jack_lsp", ["-c", "controller:midi_out"], environment: server.clientEnvironment))?
                .stdoutText.contains("detent:midi_in") == true
        }
        let port = try detent.webPort()
        let page = try PanelSocket(port: port, headers: Self.origin(port))
        let other = try PanelSocket(port: port, headers: Self.origin(port))
        _ = try page.next("layout")
        _ = try other.next("layout")
        page.send(#"{"type":"learn","id":"gain"}"#)
        // The learn is taken before the controller moves: a request after it is answered after it.
        page.send(#"{"type":"learn","id":"nothing"}"#)
        #expect(try page.next("error")["message"] as? String == "no parameter 'nothing'")
        _ = try controller.ask("set cutoff 5000")
        for socket in [page, other] {
            let learnt = try socket.next("learnt")
            #expect(learnt["id"] as? String == "gain" && learnt["controller"] as? Int == 21)
        }
        let mapping = try detent.ask("midi")
        #expect(mapping.contains("gain CC 21") && !mapping.contains("gain CC 7"), "\(mapping)")
        #expect(detent.finish() == 0)
        #expect(controller.finish() == 0)
    }

    @Test("An isolated slot that crashes is shown down on the page, and its Restart brings it back")
    func isolatedSlotFault() throws {
        let server = try JackServer()
        var environment = server.clientEnvironment
        environment["LV2_PATH"] = try FaultPlugin.built.get()
        let detent = try LiveProgram(server.liveArguments + ["--headless", "--no-midi", "--http", "0", "--isolate",
                                                             "--plugin", "lp=builtin", "--plugin", "f1=\(FaultPlugin.uri)"],
                                     environment: environment)
        let port = try detent.webPort()
        let page = try PanelSocket(port: port, headers: Self.origin(port))
        _ = try page.next("layout")
        #expect((try page.next("faults")["faults"] as? [String: String]) == [:])
        // The fault control set from the page: the slot crashes, is restarted, crashes again…
        page.send(#"{"type":"value","id":"f1.fault","value":1}"#)
        let down = try page.next("faults", timeout: 20) { ($0["faults"] as? [String: String])?["f1"] != nil }
        #expect((down["faults"] as? [String: String])?["f1"] == "crashed (Segmentation fault)")
        try detent.waitForMessage("f1 failed 3 times within a minute", timeout: 20)
        // Held down now: a page opened since is told so at once, and its Restart brings it back.
        let later = try PanelSocket(port: port, headers: Self.origin(port))
        _ = try later.next("layout")
        #expect((try later.next("faults")["faults"] as? [String: String])?["f1"] == "crashed (Segmentation fault)")
        later.send(#"{"type":"value","id":"f1.fault","value":0}"#)
        later.send(#"{"type":"restart","slot":"f1"}"#)
        _ = try later.next("faults", timeout: 20) { ($0["faults"] as? [String: String]) == [:] }
        #expect(try !detent.ask("status").contains("slot f1"))
        later.send(#"{"type":"restart","slot":"nothing"}"#)
        #expect((try later.next("error")["message"] as? String)?.hasPrefix("no slot 'nothing'") == true)
        #expect(detent.finish() == 0)
    }

    @Test("A MIDI learn without a MIDI input is answered with one line")
    func midiLearnWithoutMIDI() throws {
        let (_, detent, port) = try Self.start()
        let page = try PanelSocket(port: port, headers: Self.origin(port))
        _ = try page.next("layout")
        page.send(#"{"type":"learn","id":"cutoff"}"#)
        #expect((try page.next("error")["message"] as? String)?.hasPrefix("no MIDI input to learn from") == true)
        #expect(detent.finish() == 0)
    }

    @Test("At most 64 pages are open at once: one more is closed saying why, and a freed place is taken")
    func pageCap() throws {
        let (_, detent, port) = try Self.start()
        var pages: [PanelSocket] = []
        for _ in 0..<64 {
            let page = try PanelSocket(port: port, headers: Self.origin(port))
            _ = try page.next("layout")
            pages.append(page)
        }
        let extra = try PanelSocket(port: port, headers: Self.origin(port))
        #expect(extra.closedCode() == 1008)
        try detent.waitForMessage("more than 64 pages are open")
        pages.removeLast()  // its socket closes
        try waitUntil("a place is free again") {
            guard let page = try? PanelSocket(port: port, headers: Self.origin(port)) else { return false }
            // It is told whether it may edit, then gets the layout.
            while let text = page.receive() { if text.contains(#""type":"layout""#) { return true } }
            return false
        }
        #expect(detent.finish() == 0)
    }

    @Test("A page that reconnects gets the current values")
    func reconnect() throws {
        let (_, detent, port) = try Self.start()
        do {
            let first = try PanelSocket(port: port, headers: Self.origin(port))
            _ = try first.next("layout")
        }
        _ = try detent.ask("set cutoff 2.5k")
        let again = try PanelSocket(port: port, headers: Self.origin(port))
        #expect(entry("cutoff", in: try again.next("layout"))?["value"] as? Double == 2500)
        #expect(detent.finish() == 0)
    }

    @Test("A chain's slots are sections, each with its bypass, its mix first")
    func chain() throws {
        let (_, detent, port) = try Self.start(["--plugin", "a=builtin", "--plugin", "b=builtin", "--plugin", "c=builtin"])
        let page = try PanelSocket(port: port, headers: Self.origin(port))
        let layout = try page.next("layout")
        let sections = try #require(layout["sections"] as? [[String: Any]])
        #expect(sections.map { $0["name"] as? String } == ["a", "b", "c"])
        #expect(sections.map { ($0["bypass"] as? [String: Any])?["kind"] as? String } == ["toggle", "toggle", "toggle"])
        #expect(sections.map { ($0["parameters"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? [] }
                == ["a", "b", "c"].map { ["\($0).mix", "\($0).cutoff", "\($0).resonance", "\($0).gain"] })
        page.send(#"{"type":"value","id":"b.bypass","value":1}"#)
        _ = try page.next("values") { entry("b.bypass", in: $0)?["text"] as? String == "on" }
        #expect(try detent.ask("get b.bypass") == "b.bypass=on")
        #expect(detent.finish() == 0)
    }

    @Test("A plug-in's outputs are listed in the layout, and their values sent")
    func outputs() throws {
        let (_, detent, port) = try Self.start(["--plugin", "http://lsp-plug.in/plugins/lv2/compressor_stereo"])
        let page = try PanelSocket(port: port, headers: Self.origin(port))
        let layout = try page.next("layout")
        let listed = try #require(layout["outputs"] as? [[String: Any]])
        let ids = listed.compactMap { $0["id"] as? String }
        #expect(!ids.isEmpty)
        let values = try page.next("outputs")
        let sent = try #require(values["values"] as? [[String: Any]])
        #expect(sent.compactMap { $0["id"] as? String } == ids)
        #expect(detent.finish() == 0)
    }

    @Test("On loopback, another site's page is refused: by its Origin, and by its Host (DNS rebinding)")
    func foreignOrigin() throws {
        let (_, detent, port) = try Self.start()
        #expect(throws: PanelSocket.Refused.self) { try PanelSocket(port: port, headers: ["Origin": "http://evil.example"]) }
        let rebound = try httpGet(port: port, "/", host: "evil.example:\(port)")
        #expect(rebound.status == 403)
        #expect(rebound.body == "detent: Host 'evil.example:\(port)' is not this machine\n")
        // A client without an Origin (not a browser) on this machine is let in.
        let tool = try PanelSocket(port: port)
        _ = try tool.next("layout")
        #expect(detent.finish() == 0)
    }

    @Test("Beyond loopback a token is required on every request and socket, and printed in the URL")
    func token() throws {
        let (_, detent, port) = try Self.start(["--http-bind", "0.0.0.0"])
        let token = try #require(try detent.webToken())
        #expect(token.count == 32)
        #expect(try httpGet(port: port, "/?HOST_INFO").status == 403)
        #expect(try httpGet(port: port, "/?HOST_INFO&token=\(token)").status == 200)
        #expect(try httpGet(port: port, "/?HOST_INFO", headers: ["Authorization": "Bearer \(token)"]).status == 200)
        #expect(try httpGet(port: port, "/?HOST_INFO&token=\(token.dropLast())x").status == 403)
        #expect(throws: PanelSocket.Refused.self) { try PanelSocket(port: port, headers: Self.origin(port)) }
        let page = try PanelSocket(port: port, query: "?token=\(token)", headers: Self.origin(port))
        _ = try page.next("layout")
        #expect(detent.finish() == 0)
    }

    @Test("An oversized, binary or malformed message closes that socket only")
    func badMessages() throws {
        let (_, detent, port) = try Self.start()
        let other = try PanelSocket(port: port, headers: Self.origin(port))
        _ = try other.next("layout")
        let cases: [(String, (PanelSocket) -> Void, Int)] = [
            ("oversized", { $0.send(#"{"type":"text","id":"cutoff","text":""# + String(repeating: " ", count: 8000) + #""}"#) }, 1009),
            // Far beyond: read to its end and answered, not cut off with a TCP reset.
            ("a 200 KB frame", { $0.send(#"{"type":"text","id":"cutoff","text":""# + String(repeating: "x", count: 200_000) + #""}"#) }, 1009),
            ("binary", { $0.sendFrame(opcode: 2, [1, 2, 3]) }, 1003),
            ("not JSON", { $0.send("hello") }, 1003),
        ]
        for (what, send, code) in cases {
            let bad = try PanelSocket(port: port, headers: Self.origin(port))
            _ = try bad.next("layout")
            send(bad)
            #expect(bad.closedCode() == code, "\(what)")
        }
        _ = try detent.ask("set cutoff 3k")
        _ = try other.next("values") { entry("cutoff", in: $0)?["value"] as? Double == 3000 }
        // One line for the first; what follows within a second is counted in the next line.
        #expect(detent.messages.contains { $0 == "detent: warning: web panel: a message longer than 4096 bytes; that page's connection is closed" })
        #expect(detent.finish() == 0)
    }

    @Test("A flood of 10,000 messages is cut down on that socket; other pages and commands carry on")
    func flood() throws {
        let (_, detent, port) = try Self.start()
        let flooder = try PanelSocket(port: port, headers: Self.origin(port))
        let other = try PanelSocket(port: port, headers: Self.origin(port))
        _ = try flooder.next("layout")
        _ = try other.next("layout")
        for i in 0..<10_000 {
            flooder.send(#"{"type":"position","id":"resonance","position":\#(Double(i % 100) / 100)}"#)
        }
        let error = try flooder.next("error")
        #expect((error["message"] as? String)?.hasPrefix("more than 240 messages a second") == true)
        _ = try detent.ask("set cutoff 4k")
        _ = try other.next("values") { entry("cutoff", in: $0)?["value"] as? Double == 4000 }
        #expect(try detent.ask("get cutoff") == "cutoff=4.00 kHz")
        #expect(detent.finish() == 0)
    }

    @Test("A port that is taken is one line and status 1; bad options are usage errors")
    func failures() throws {
        let (server, first, port) = try Self.start()
        let second = try LiveProgram(server.liveArguments + ["--headless", "--no-midi", "--name", "second", "--http", "\(port)"],
                                     environment: server.clientEnvironment)
        #expect(second.child.wait(seconds: 20)?.exited == 1)
        let lines = second.messages.filter { $0.hasPrefix("detent: --http") }
        #expect(lines == ["detent: --http: cannot listen on 127.0.0.1:\(port): Address already in use"], "\(second.messages)")
        #expect(first.finish() == 0)

        for (arguments, message) in [
            (["--http", "70000"], "--http 70000: a TCP port is 1 … 65535 (0: any free one)"),
            (["--http-bind", "0.0.0.0"], "--http-bind and --http-token need --http PORT"),
            (["--http", "0", "--http-bind", "example.com"], "--http-bind 'example.com': not an IP address"),
            (["--http", "0", "--http-token", "a b"], "--http-token: 1 … 256 letters, digits"),
        ] {
            let run = try ChildProcess.run(try BuiltProducts.detent, ["live", "--headless"] + arguments)
            #expect(run.status.exited == 64, "\(arguments)")
            #expect(run.stderrText.contains(message), "\(run.stderrText)")
        }
    }
}
