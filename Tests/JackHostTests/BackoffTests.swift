import JackHost
import Testing

@Suite struct BackoffTests {
    @Test func doublesFromTheInitialDelayUpToTheMaximum() {
        let backoff = Backoff(initial: .milliseconds(100), maximum: .seconds(1))
        let expected: [Duration] = [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800),
                                    .seconds(1), .seconds(1)]
        #expect((0..<6).map(backoff.delay(afterFailures:)) == expected)
        #expect(backoff.delay(afterFailures: 1_000) == .seconds(1))
    }

    @Test func negativeCountsMeanNoFailureYet() {
        #expect(Backoff().delay(afterFailures: -3) == Backoff().initial)
    }
}
