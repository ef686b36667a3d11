import Foundation
import Testing
import TestSupport

/// `detent live` hosting the LV2 specification's `eg-params`: its readable properties are
/// outputs in `status` as soon as it answers the host's `patch:Get`, and follow what it
/// reports while it runs (its `spring`, once set, decays on every run).
@Suite struct LiveOutputParameterTests {
    /// The value of output `id` in a `status` answer (`outputs lfo=0 spring=0.449, …`).
    static func output(_ id: String, in status: String) -> Double? {
        guard let range = status.range(of: "outputs ") else { return nil }
        let words = status[range.upperBound...].prefix { $0 != "," }.split(separator: " ")
        return words.first { $0.hasPrefix(id + "=") }.flatMap { Double($0.dropFirst(id.count + 1)) }
    }

    @Test func readablePropertiesFollowWhatThePluginReports() throws {
        let server = try JackServer()
        let detent = try LiveProgram(on: server, ["--headless", "--no-midi", "--plugin", "http://lv2plug.in/plugins/eg-params"])
        var status = ""
        try waitUntil("both outputs are told (\(status))") {
            status = (try? detent.ask("status")) ?? ""
            return Self.output("lfo", in: status) == 0 && Self.output("spring", in: status) == 0
        }
        #expect(try detent.ask("get lfo") == "lfo=0")
        #expect(try detent.ask("set spring 0.5") == "spring=0.50")
        var told: [Double] = []
        try waitUntil("spring falls below 0.45 (\(told))") {
            if let value = (try? detent.ask("status")).flatMap({ Self.output("spring", in: $0) }) { told.append(value) }
            return (told.last ?? 1) < 0.45
        }
        #expect(told.filter { $0 > 0 } == told.filter { $0 > 0 }.sorted(by: >), "it only falls: \(told)")
        #expect(detent.finish() == 0)
    }
}
