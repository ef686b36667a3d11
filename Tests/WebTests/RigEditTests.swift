import Foundation
import Testing
import TestSupport

/// The page builds the rig: the catalogue, chain and graph edits, file parameters, and who may.
extension LiveWebTests {
    /// Sends the rig edit `message` from `page` and returns the layout it makes: the first of a
    /// generation after `generation`, which it then holds. (A layout of the generation before
    /// may still be on its way.)
    static func layout(after message: String, on page: PanelSocket, generation: inout Int) throws -> [String: Any] {
        page.send(message)
        let layout = try page.next("layout", timeout: 30) { ($0["generation"] as? Int ?? 0) > generation }
        generation = layout["generation"] as? Int ?? 0
        return layout
    }

    /// `detent live --http` on the graph of one built-in, `input>a a>output`, and a page on it.
    static func startOneSlotGraph() throws -> (LiveProgram, PanelSocket) {
        let folder = TemporaryFolder()
        let graph = folder.write("g.json", text: #"{"slots":{"a":{"plugin":"builtin"}},"connections":[["input","a"],["a","output"]]}"#)
        let (_, detent, port) = try Self.start(["--graph", graph])
        return (detent, try PanelSocket(port: port, headers: Self.origin(port)))
    }

    /// The sections' names of a `layout` message.
    static func sections(_ layout: [String: Any]) -> [String] {
        (layout["sections"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }

    @Test("A page of this user's builds a chain: the catalogue, an add, a rename, a move and a remove, each answered with the typed line and seen by every page")
    func pageBuildsAChain() throws {
        let (_, detent, port) = try Self.start(["--plugin", "lp=builtin", "--plugin", "tone=builtin"])
        let page = try PanelSocket(port: port, headers: Self.origin(port))
        let access = try page.next("access")
        #expect(access["edit"] as? Bool == true, "\(access)")
        _ = try page.next("layout")
        let other = try PanelSocket(port: port, headers: Self.origin(port))
        _ = try other.next("layout")

        page.send(#"{"type":"catalogue"}"#)
        let plugins = try #require(try page.next("catalogue", timeout: 60)["plugins"] as? [[String: Any]])
        let zamComp = plugins.filter { $0["name"] as? String == "ZamComp" }
        #expect(Set(zamComp.compactMap { $0["format"] as? String }) == ["LV2", "LADSPA", "VST2", "VST3", "CLAP"])
        #expect(zamComp.allSatisfy { $0["maker"] as? String == "Damien Zammit" && $0["instrument"] as? Bool == false })
        #expect(plugins.contains { $0["name"] as? String == "MDA Piano" && $0["instrument"] as? Bool == true })
        #expect(plugins.count > 500)

        /// Sends an edit; returns its answer, which is what the typed `chain` says after it.
        func edit(_ message: String, sections expected: [String]) throws {
            page.send(message)
            let answer = try #require(try page.next("answer", timeout: 30)["text"] as? String)
            #expect(answer == (try detent.ask("chain")), "\(message)")
            let seen = try other.next("layout", timeout: 10) { Self.sections($0) == expected }
            #expect(Self.sections(seen) == expected)
        }
        try edit(#"{"type":"chain","action":"add","plugin":"http://drobilla.net/plugins/mda/Overdrive","name":"drive","position":1}"#,
                 sections: ["drive", "lp", "tone"])
        try edit(#"{"type":"chain","action":"rename","slot":"drive","name":"crunch"}"#, sections: ["crunch", "lp", "tone"])
        #expect(try detent.ask("get crunch.drive").hasPrefix("crunch.drive"))
        try edit(#"{"type":"chain","action":"move","slot":"lp","position":1}"#, sections: ["lp", "crunch", "tone"])
        try edit(#"{"type":"chain","action":"remove","slot":"crunch"}"#, sections: ["lp", "tone"])

        // Refused as typed, the rig unchanged; a message that is no edit closes the page.
        page.send(#"{"type":"chain","action":"remove","slot":"nothing"}"#)
        #expect((try page.next("error")["message"] as? String)?.hasPrefix("the chain has no slot 'nothing'") == true)
        page.send(#"{"type":"chain","action":"connect","from":"input","to":"lp"}"#)
        #expect((try page.next("error")["message"] as? String)?.hasPrefix("input>lp is connected already") == true)
        page.send(#"{"type":"chain","action":"add","plugin":"no such plug-in anywhere"}"#)
        #expect((try page.next("error", timeout: 30)["message"] as? String)?.contains("no such plug-in anywhere") == true)
        #expect(try detent.ask("chain").hasPrefix("chain lp (") && (try detent.ask("chain")).hasSuffix("-> tone (Lowpass + gain)"))
        page.send(#"{"type":"chain","action":"explode"}"#)
        #expect(page.closedCode() == 1003)
        #expect(detent.finish() == 0)
    }

    @Test("A rig started with no plug-in (the built-in alone) is built up from the page")
    func pageBuildsFromTheStart() throws {
        let (_, detent, port) = try Self.start()
        let page = try PanelSocket(port: port, headers: Self.origin(port))
        let first = try page.next("layout")
        #expect(Self.sections(first) == [""])
        var generation = first["generation"] as? Int ?? 0
        let chain = try Self.layout(after: #"{"type":"chain","action":"add","plugin":"http://drobilla.net/plugins/mda/Overdrive","name":"drive"}"#,
                                    on: page, generation: &generation)
        #expect(Self.sections(chain) == ["builtin", "drive"])
        #expect(try page.next("answer")["text"] as? String == "chain builtin (Lowpass + gain) -> drive (MDA Overdrive)")
        #expect(Self.sections(try Self.layout(after: #"{"type":"chain","action":"remove","slot":"builtin"}"#, on: page,
                                              generation: &generation)) == ["drive"])
        #expect(try detent.ask("chain") == "chain drive (MDA Overdrive)")
        #expect(detent.finish() == 0)
    }

    @Test("A page edits a graph: a slot on a connection, a connection made and taken away; the layout carries the connections")
    func pageEditsAGraph() throws {
        let (detent, page) = try Self.startOneSlotGraph()
        let first = try page.next("layout")
        #expect(first["connections"] as? [String] == ["input>a", "a>output"])
        var generation = first["generation"] as? Int ?? 0
        /// Sends an edit and returns the connections of the layout it makes (which comes before
        /// the edit's answer).
        func edit(_ message: String) throws -> [String] {
            let layout = try Self.layout(after: message, on: page, generation: &generation)
            #expect((try page.next("answer")["text"] as? String) == (try detent.ask("chain")))
            return layout["connections"] as? [String] ?? []
        }
        #expect(try edit(#"{"type":"chain","action":"insert","plugin":"builtin","name":"b","from":"a","to":"output"}"#)
            == ["input>a", "a>b", "b>output"])
        #expect(try edit(#"{"type":"chain","action":"connect","from":"input","to":"b"}"#) == ["input>a", "a>b", "input>b", "b>output"])
        #expect(try edit(#"{"type":"chain","action":"disconnect","from":"input","to":"b"}"#) == ["input>a", "a>b", "b>output"])
        page.send(#"{"type":"chain","action":"disconnect","from":"b","to":"output"}"#)
        #expect((try page.next("error")["message"] as? String)?.contains("output") == true)
        #expect(try detent.ask("chain").hasSuffix("input>a a>b b>output"))
        #expect(detent.finish() == 0)
    }

    @Test("A preset of another rig swaps the rig when loaded: its slots, connections and values; the page offers every rig's presets")
    func presetsSwapRigs() throws {
        let (detent, page) = try Self.startOneSlotGraph()
        _ = try page.next("layout")
        page.send(#"{"type":"preset","action":"save","name":"Alone"}"#)
        _ = try page.next("presets") { ($0["names"] as? [String])?.contains("Alone") == true }
        page.send(#"{"type":"chain","action":"insert","plugin":"http://drobilla.net/plugins/mda/Overdrive","name":"b","from":"a","to":"output"}"#)
        _ = try page.next("answer", timeout: 30)
        _ = try detent.ask("set b.drive 0.4")
        page.send(#"{"type":"preset","action":"save","name":"With drive"}"#)
        // The list offers this rig's presets and the other rig's.
        _ = try page.next("presets") { ($0["names"] as? [String]).map { Set($0) == ["Alone", "With drive"] } == true }
        page.send(#"{"type":"preset","action":"load","name":"Alone"}"#)
        #expect(try page.next("layout", timeout: 30) { Self.sections($0) == ["a"] }["connections"] as? [String] == ["input>a", "a>output"])
        #expect(try detent.ask("chain") == "graph a (Lowpass + gain); input>a a>output")
        _ = try detent.ask("set b.drive 0.9")  // no such slot now: refused
        page.send(#"{"type":"preset","action":"load","name":"With drive"}"#)
        let back = try page.next("layout", timeout: 30) { Self.sections($0) == ["a", "b"] }
        #expect(back["connections"] as? [String] == ["input>a", "a>b", "b>output"])
        #expect(try detent.ask("get b.drive") == "b.drive=0.40")
        #expect(detent.finish() == 0)
    }

    @Test("A page points a file parameter at a file: answered with the path loaded, shown in the layout; a missing one is one line")
    func pageSetsAFile() throws {
        let folder = TemporaryFolder()
        var impulse = [Float](repeating: 0, count: 64)
        impulse[3] = 0.5
        let ir = folder.write("pulse.wav", WAV.float([impulse]))
        let (_, detent, port) = try Self.start(["--channels", "1", "--plugin", "lp=builtin",
                                                "--plugin", "conv=http://gareus.org/oss/lv2/convoLV2#Mono"])
        let page = try PanelSocket(port: port, headers: Self.origin(port))
        let files = try #require(try page.next("layout")["files"] as? [[String: Any]])
        #expect(files.map { $0["id"] as? String } == ["conv.impulse"] && files[0]["path"] is NSNull)
        page.send(#"{"type":"file","id":"conv.impulse","path":"\#(ir)"}"#)
        // The answer, and a layout showing the file, in either order.
        var answer: String?, shown = false
        while answer == nil || !shown, let text = page.receive() {
            let message = try jsonObject(text)
            if message["type"] as? String == "answer" { answer = message["text"] as? String }
            if message["type"] as? String == "layout" { shown = (message["files"] as? [[String: Any]])?.first?["path"] as? String == ir }
        }
        #expect(answer == "conv.impulse=\(ir)" && shown, "\(answer ?? "no answer")")
        let later = try PanelSocket(port: port, headers: Self.origin(port))
        #expect((try later.next("layout")["files"] as? [[String: Any]])?.first?["path"] as? String == ir)
        page.send(#"{"type":"file","id":"conv.impulse","path":"\#(folder.file("missing.wav"))"}"#)
        #expect((try page.next("error", timeout: 30)["message"] as? String)?.hasPrefix("set conv.impulse: cannot read") == true)
        #expect(detent.finish() == 0)
    }

    /// A page's WebSocket opened by another user of this machine (`nobody`): it waits for the
    /// layout, sends `messages`, and prints every text message it gets until `errors` errors.
    static let otherUsersPage = #"""
import base64, os, socket, struct, sys, json
port, errors, messages = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
s = socket.create_connection(("127.0.0.1", port), timeout=20)
key = base64.b64encode(os.urandom(16)).decode()
s.sendall(("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
           "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:%d\r\n\r\n" % (port, key, port)).encode())
buffer = b""
def exactly(n):
    global buffer
    while len(buffer) < n:
        chunk = s.recv(65536)
        if not chunk: sys.exit(0)
        buffer += chunk
    out, buffer = buffer[:n], buffer[n:]
    return out
while b"\r\n\r\n" not in buffer: buffer += s.recv(4096)
buffer = buffer.split(b"\r\n\r\n", 1)[1]
def send(text):
    data, mask = text.encode(), os.urandom(4)
    head = bytes([0x81, 0x80 | len(data)]) if len(data) < 126 else bytes([0x81, 0x80 | 126]) + struct.pack(">H", len(data))
    s.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))
while True:
    head = exactly(2)
    n = head[1] & 0x7F
    if n == 126: n = struct.unpack(">H", exactly(2))[0]
    elif n == 127: n = struct.unpack(">Q", exactly(8))[0]
    data = exactly(n)
    if head[0] & 0x0F != 1: continue
    print(data.decode(), flush=True)
    kind = json.loads(data)["type"]
    if kind == "layout" and messages:
        for message in messages: send(message)
        messages = []
    if kind == "error":
        errors -= 1
        if errors == 0: break
"""#

    @Test("A page opened by another user of this machine turns knobs but changes nothing else: no edit, no file, no catalogue",
          .enabled(if: InCI.required(getuid() == 0), "needs root to open a page as another user (CI runs as root)"))
    func anotherUsersPageLoadsNothing() throws {
        let (_, detent, port) = try Self.start(["--plugin", "lp=builtin", "--plugin", "tone=builtin"])
        let requests = [#"{"type":"value","id":"lp.gain","value":-6}"#,
                        #"{"type":"chain","action":"add","plugin":"http://drobilla.net/plugins/mda/Overdrive"}"#,
                        #"{"type":"file","id":"lp.ir","path":"/etc/passwd"}"#, #"{"type":"catalogue"}"#]
        let outcome = try ChildProcess.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups",
                                                                "/usr/bin/python3", "-c", Self.otherUsersPage, "\(port)", "3"] + requests)
        #expect(outcome.status.exited == 0, "\(outcome.stderrText)")
        let messages = try outcome.stdoutText.split(separator: "\n").map { try jsonObject($0) }
        let access = try #require(messages.first)
        #expect(access["type"] as? String == "access" && access["edit"] as? Bool == false)
        #expect((access["reason"] as? String)?.contains("another user of this machine") == true, "\(access)")
        let errors = messages.filter { $0["type"] as? String == "error" }.compactMap { $0["message"] as? String }
        #expect(errors.count == 3 && errors.allSatisfy { $0.contains("another user of this machine") }, "\(errors)")
        #expect(errors.map { $0.prefix { $0 != ":" } } == ["rig edits", "files", "the catalogue"])
        #expect(!messages.contains { $0["type"] as? String == "catalogue" || $0["type"] as? String == "answer" })
        #expect(try detent.ask("chain") == "chain lp (Lowpass + gain) -> tone (Lowpass + gain)")
        #expect(try detent.ask("get lp.gain").contains("-6"))
        #expect(detent.finish() == 0)
    }
}
