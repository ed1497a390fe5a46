// KioskSys.SystemClock reads CLOCK_MONOTONIC itself (ContinuousClock is in the concurrency runtime,
// which kiosk-hud does not link): it starts near 0 and never goes backwards.
import Glibc
import KioskSys
import Testing

@Suite struct SystemClockTests {
    @Test func startsNearZeroAndAdvances() {
        let clock = SystemClock()
        let first = clock.now
        #expect(first >= 0 && first < 0.5)
        var last = first
        for _ in 0..<1000 {
            let t = clock.now
            #expect(t >= last)
            last = t
        }
        usleep(20_000)
        let later = clock.now
        #expect(later - first >= 0.015 && later - first < 5)
    }
}
