import AudioEngine
import Foundation
import Parameters
import Platform
import Testing
import TextFormats
import Web
import WebBridge

/// A plug-in's own words reach the browser panel: `detent` holds the plug-in, so it sends the
/// text of each target with the snapshot and reads a typed value when `detent-web` asks.
@Suite("Web bridge: a plug-in's own words")
struct WebBridgeTextTests {
    /// Words of a plug-in of 0…1 that means 0…100 ms: `35.0 ms` for 0.35, and reads `N ms`.
    final class Milliseconds: ParameterTexts {
        var showsOwnText: Bool { true }
        func text(for value: Double) -> String? { String(format: "%.1f ms", value * 100) }
        func value(for text: String) -> Double? {
            guard text.hasSuffix("ms"), let n = Double(text.dropLast(2).trimmingCharacters(in: .whitespaces)) else { return nil }
            return n / 100
        }
    }

    final class Host: WebPanelHost, @unchecked Sendable {
        let table = try! ParameterTable([
            ParameterSpec(id: "attack", name: "Attack", unit: .none, range: 0...1, taper: .linear, defaultValue: 0.2,
                          smoothing: .linear, ownTexts: Milliseconds()),
            ParameterSpec(id: "mix", name: "Mix", unit: .percent, range: 0...100, taper: .linear, defaultValue: 50, smoothing: .linear),
        ])
        var targets: [ParameterIndex: Double] = [ParameterIndex(0): 0.35, ParameterIndex(1): 50]
        func webSnapshot() -> WebSnapshot {
            WebSnapshot(processor: Processor(identifier: "test", name: "Test", table: table, makeKernel: { _ in fatalError() }),
                        generation: 3, targets: targets)
        }
        func set(_ values: [ParameterIndex: Double], ifGeneration generation: Int) -> Bool { false }
        func reset(_ index: ParameterIndex, ifGeneration generation: Int) -> Bool { false }
    }

    @Test("the snapshot carries the plug-in's text of a target, and a typed value is read by detent")
    func hostSide() throws {
        let host = Host()
        guard case .answer(let answer)? = WebBridge.handle(Array(#"{"op":"snapshot","have":-1}"#.utf8), host: host) else {
            Issue.record("no answer"); return
        }
        #expect(answer.contains(#""texts":[[0,"35.0 ms"]]"#), "\(answer)")
        #expect(answer.contains(#""ownTexts":true"#))
        #expect(WebBridge.handle(Array(#"{"op":"read","row":0,"text":"50 ms"}"#.utf8), host: host) == .answer(#"{"value":0.5}"#))
        guard case .answer(let refused)? = WebBridge.handle(Array(#"{"op":"read","row":0,"text":"fast"}"#.utf8), host: host) else {
            Issue.record("no answer"); return
        }
        #expect(refused.contains(#""problem""#) && refused.contains("fast"))
        #expect(WebBridge.handle(Array(#"{"op":"read","row":7,"text":"1"}"#.utf8), host: host) == nil)
    }

    @Test("detent-web's rows show the words detent sent and read a typed value through it")
    func clientSide() throws {
        let (near, far) = try LineSocket.pair()
        let host = Host()
        // `detent`'s side: answers each question from the host, until the client goes.
        let served = Thread {
            while case .line(let line) = near.receive(waiting: 10_000) {
                guard case .answer(let answer)? = WebBridge.handle(line, host: host) else { return }
                _ = near.send(answer)
            }
        }
        served.start()
        let client = WebBridgeClient(socket: LineSocket(descriptor: far), changes: try WakePipe())
        let snapshot = client.webSnapshot()
        let attack = snapshot.layout.table[ParameterIndex(0)]
        #expect(attack.format(0.35) == "35.0 ms")
        // A value detent did not send is in Detent's own words.
        #expect(attack.format(0.5) == "0.50")
        #expect(try attack.parse("50 ms") == 0.5)
        #expect(try attack.parse("0.25") == 0.25)
        #expect(throws: ParameterError.self) { try attack.parse("fast") }
        #expect(snapshot.layout.table[ParameterIndex(1)].ownTexts == nil)
    }
}
