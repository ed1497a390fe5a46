// What `kiosk-hud ctl follow-boot` sends for systemd's Progress readings (BootProgress): never
// backwards, steps of at least 1 %, done at 1.0.
import KioskDaemon
import Testing

@Suite struct BootProgressTests {
    /// Every reading through one BootProgress, the steps in order.
    func steps(_ readings: [Double]) -> [BootProgress.Step] {
        var p = BootProgress()
        return readings.map { p.next($0) }
    }

    /// The script: the first reading shows the bar, a backwards one is ignored, 1.0 ends.
    @Test func theScriptedBoot() {
        #expect(steps([0, 0.1, 0.05, 0.5, 0.99, 1.0]) == [.send(0), .send(0.1), .wait, .send(0.5), .send(0.99), .finish])
    }

    /// Rises under 1 % wait until they add up to 1 %; exactly 1 % (in binary, a hair under) is sent.
    @Test func onePercentSteps() {
        #expect(steps([0.2, 0.205, 0.209, 0.21, 0.2199, 0.22, 0.23]) == [.send(0.2), .wait, .wait, .send(0.21), .wait, .send(0.22), .send(0.23)])
        #expect(steps([0.02, 0.03]) == [.send(0.02), .send(0.03)])   // 0.03 - 0.02 = 0.00999…98
    }

    /// Backwards readings (jobs added mid-boot) never show, however many; the bar goes on from
    /// the highest.
    @Test func neverBackwards() {
        #expect(steps([0.6, 0.3, 0.2, 0.59, 0.605, 0.61]) == [.send(0.6), .wait, .wait, .wait, .wait, .send(0.61)])
    }

    /// NaN (0 jobs ÷ 0 installed, before the first transaction) is no reading; out-of-range
    /// values are clamped: below 0 shows 0, 1 and above finish.
    @Test func oddReadings() {
        #expect(steps([.nan, -0.5, .nan, 0.004, 0.01]) == [.wait, .send(0), .wait, .wait, .send(0.01)])
        #expect(steps([1.5]) == [.finish])
        var p = BootProgress()
        _ = p.next(0.4)
        #expect(p.shown == 0.4)
        #expect(p.next(1) == .finish && p.shown == 1)
    }
}
