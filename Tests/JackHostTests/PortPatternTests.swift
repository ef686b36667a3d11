import JackHost
import Testing

@Suite struct PortPatternTests {
    @Test func pairsByIndex() {
        let pairs = PortPattern.pairs(ours: ["in_1", "in_2"], theirs: ["a:1", "a:2", "a:3"])
        #expect(pairs.map(\.ours) == ["in_1", "in_2"])
        #expect(pairs.map(\.theirs) == ["a:1", "a:2"])
    }

    @Test func fewerMatchesRepeat() {
        let pairs = PortPattern.pairs(ours: ["in_1", "in_2", "in_3"], theirs: ["mono:out"])
        #expect(pairs.map(\.theirs) == ["mono:out", "mono:out", "mono:out"])
        let two = PortPattern.pairs(ours: ["out_1", "out_2", "out_3"], theirs: ["p:1", "p:2"])
        #expect(two.map(\.theirs) == ["p:1", "p:2", "p:1"])
    }

    @Test func noMatchesNoPairs() {
        #expect(PortPattern.pairs(ours: ["in_1"], theirs: []).isEmpty)
    }

    @Test func validatesLikeJack() throws {
        try PortPattern.validate("^system:capture_[0-9]+$", option: "--connect-inputs")
        let error = #expect(throws: LiveHostError.self) { try PortPattern.validate("capture_(", option: "--connect-inputs") }
        guard case .invalidPattern(let option, let pattern, let reason)? = error else {
            Issue.record("expected invalidPattern, got \(String(describing: error))")
            return
        }
        #expect(option == "--connect-inputs")
        #expect(pattern == "capture_(")
        #expect(!reason.isEmpty)
        #expect(error!.description == "invalid --connect-inputs pattern 'capture_(': \(reason)")
    }

    @Test func connectionsKnowTheirDirection() {
        #expect(PortConnection(port: "in_2", peer: "system:capture_2").isInput)
        #expect(!PortConnection(port: "out_1", peer: "system:playback_1").isInput)
        #expect(PortConnection(port: "out_1", peer: "x:y").description == "out_1 → x:y")
    }
}
