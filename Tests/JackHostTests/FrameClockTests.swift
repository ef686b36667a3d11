import JackHost
import Testing

@Suite struct FrameClockTests {
    @Test func mapsJackTimeByOffset() {
        let clock = FrameClock(jackFrame: 10_000, engineFrame: 256, period: 256)
        #expect(clock.engineFrame(atJack: 10_000) == 256)
        #expect(clock.engineFrame(atJack: 10_100) == 356)
        #expect(clock.engineFrame(atJack: 9_990) == 246)
    }

    @Test func stampIsOnePeriodAfterTheMappedTime() {
        let clock = FrameClock(jackFrame: 10_000, engineFrame: 256, period: 128)
        for delta in [0, 1, 127, 300] as [UInt32] {
            #expect(clock.stamp(atJack: 10_000 + delta) == 256 + Int64(delta) + 128)
        }
    }

    @Test func survivesTheWrapOfJacksFrameCounter() {
        let before = UInt32.max - 99  // 100 frames before the wrap
        let clock = FrameClock(jackFrame: before, engineFrame: 1_000_000, period: 64)
        #expect(clock.engineFrame(atJack: 50) == 1_000_000 + 150)
        #expect(clock.jackFrame(atEngine: 1_000_150) == 50)
        #expect(clock.stamp(atJack: 0) == 1_000_000 + 100 + 64)
    }

    @Test func jackFrameIsTheInverse() {
        let clock = FrameClock(jackFrame: 123_456, engineFrame: 789, period: 256)
        for e: Int64 in [0, 789, 5_000, 1_000_000] {
            #expect(clock.engineFrame(atJack: clock.jackFrame(atEngine: e)) == e)
        }
    }

    @Test func anEstimateBeforeTheCycleStampsAtTheNextCycle() {
        let clock = FrameClock(jackFrame: 10_000, engineFrame: 512, period: 256)
        #expect(clock.stamp(atJack: 9_990) == 512 + 256)
    }
}
