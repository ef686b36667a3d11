import JackHost
import Testing

@Suite struct LiveHostOptionsTests {
    @Test func defaultsAreValid() throws {
        try LiveHostOptions().validate()
    }

    @Test func refusesChannelCountsOutsideTheRange() {
        for n in [LiveHostOptions.channelRange.lowerBound - 1, LiveHostOptions.channelRange.upperBound + 1] {
            var options = LiveHostOptions()
            options.channels = n
            #expect(throws: LiveHostError.invalidChannels(n)) { try options.validate() }
        }
    }

    @Test func refusesSmoothingOutsideTheRange() {
        for seconds in [-0.001, LiveHostOptions.maximumSmoothingMilliseconds / 1000 + 1] {
            var options = LiveHostOptions()
            options.smoothing = seconds
            #expect(throws: LiveHostError.invalidSmoothing(seconds * 1000)) { try options.validate() }
        }
        var nan = LiveHostOptions()
        nan.smoothing = .nan
        #expect(throws: LiveHostError.self) { try nan.validate() }
    }

    @Test func refusesABadPattern() {
        var options = LiveHostOptions()
        options.connectOutputs = "[playback"
        let error = #expect(throws: LiveHostError.self) { try options.validate() }
        #expect(error?.description.hasPrefix("invalid --connect-outputs pattern '[playback': ") == true)
    }

    @Test func errorMessagesSayHowToStartAServer() {
        #expect(LiveHostError.noServer(server: "studio").description.contains("jackd -n studio -d alsa"))
        #expect(LiveHostError.noServer(server: nil).description.contains("jackd -d alsa"))
        for error: LiveHostError in [.noServer(server: nil), .nameTaken("x"), .openFailed(name: "x", status: 1),
                                     .invalidChannels(0), .invalidSmoothing(-1)] {
            #expect(!error.description.contains("\n"))
        }
    }
}
