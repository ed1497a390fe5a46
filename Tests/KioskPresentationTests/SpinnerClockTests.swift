import Testing
@testable import KioskPresentation

@Suite struct SpinnerClockTests {
    @Test func twelveStepsPerSecond() {
        let s = SpinnerClock()
        #expect(s.steps == 12 && s.period == 1)
        #expect(approx(s.stepDuration, 1.0 / 12))
        #expect(s.phase(at: 0) == 0)
        for k in 0..<12 {
            #expect(s.phase(at: (Double(k) + 0.5) / 12) == k)
            #expect(s.phase(at: 7 + (Double(k) + 0.5) / 12) == k)   // one revolution per second
        }
        #expect(s.phase(at: 0.999) == 11)
        #expect(s.phase(at: 1) == 0)
        #expect(s.phase(at: -0.01) == 11)       // before origin still in range
    }

    @Test func angleIsContinuous() {
        let s = SpinnerClock()
        #expect(s.angle(at: 0) == 0)
        #expect(approx(s.angle(at: 0.25), Double.pi / 2))
        #expect(approx(s.angle(at: 3.5), Double.pi))
        #expect(approx(s.angle(at: -0.25), 3 * Double.pi / 2))
        for i in 0..<1000 {
            let a = s.angle(at: Double(i) * 0.0137 - 3)
            #expect(a >= 0 && a < 2 * Double.pi)
        }
    }

    @Test func nextPhaseChange() {
        let s = SpinnerClock()
        #expect(approx(s.nextPhaseChange(after: 0), 1.0 / 12))
        #expect(approx(s.nextPhaseChange(after: 0.05), 1.0 / 12))
        #expect(approx(s.nextPhaseChange(after: 0.1), 2.0 / 12))
        for i in 0..<500 {
            let t = Double(i) * 0.0071
            let next = s.nextPhaseChange(after: t)
            #expect(next > t && next - t <= s.stepDuration + 1e-12)
            #expect(s.phase(at: next + 1e-9) != s.phase(at: t) || s.steps == 1)
        }
        #expect(s.nextPhaseChange(after: .nan) == s.stepDuration)
        let huge = 1e300
        #expect(s.nextPhaseChange(after: huge) > huge)
    }

    @Test func configurable() {
        let s = SpinnerClock(steps: 8, period: 0.8, origin: 2)
        #expect(s.phase(at: 2) == 0)
        #expect(s.phase(at: 2.15) == 1)
        #expect(s.phase(at: 2.75) == 7)
        #expect(s.phase(at: 2.85) == 0)
        #expect(approx(s.angle(at: 2.4), Double.pi))
    }

    @Test func nonsense() {
        let s = SpinnerClock()
        #expect(s.phase(at: .nan) == 0)
        #expect(s.phase(at: .infinity) == 0)
        #expect(s.angle(at: -.infinity) == 0)
        let big = s.phase(at: 1e300)
        #expect(big >= 0 && big < 12)
        let bad = SpinnerClock(steps: 0, period: -1, origin: .nan)
        #expect(bad.steps == 1 && bad.period == 1 && bad.origin == 0)
        #expect(bad.phase(at: 0.7) == 0)
        #expect(SpinnerClock(period: .infinity).period == 1)
        #expect(SpinnerClock(steps: -5).steps == 1)
    }
}
