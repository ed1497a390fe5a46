import Testing
@testable import KioskPresentation

@Suite struct TimingCurveTests {
    @Test(arguments: TimingCurve.allCases)
    func startsAtZeroEndsAtOne(curve: TimingCurve) {
        #expect(curve.progress(elapsed: 0, duration: 0.3) == 0)
        #expect(curve.progress(elapsed: -1, duration: 0.3) == 0)
        #expect(curve.progress(elapsed: 0.3, duration: 0.3) == 1)
        #expect(curve.progress(elapsed: 5, duration: 0.3) == 1)
    }

    @Test(arguments: TimingCurve.allCases)
    func monotonicAndBounded(curve: TimingCurve) {
        var previous = 0.0
        for i in 0...1000 {
            let p = curve.progress(elapsed: Double(i) * 0.0003, duration: 0.3)
            #expect(p >= previous)
            #expect(p >= 0 && p <= 1)
            previous = p
        }
        #expect(previous == 1)
    }

    @Test func springMidpointAndSettling() {
        // 1 − (1 + 4.625)·e^(−4.625)
        #expect(approx(TimingCurve.spring.progress(elapsed: 0.15, duration: 0.3), 0.9448544404235022, 1e-12))
        // Within 0.001 of 1 just before the end, so pinning to 1 at the end is a < 0.001 jump.
        let justBefore = TimingCurve.spring.progress(elapsed: 0.3.nextDown, duration: 0.3)
        #expect(justBefore > 0.999 && justBefore < 1)
        #expect(approx(springAt(1), 0.9990148555663707, 1e-12))
        // ω for MBProgressHUD's 0.3 s.
        #expect(approx(TimingCurve.springSettleFactor / 0.3, 30.8333333, 1e-6))
    }

    @Test func linearAndEaseInOutShapes() {
        #expect(approx(TimingCurve.linear.progress(elapsed: 0.15, duration: 0.3), 0.5))
        #expect(approx(TimingCurve.linear.progress(elapsed: 0.075, duration: 0.3), 0.25))
        #expect(approx(TimingCurve.easeInOut.progress(elapsed: 0.15, duration: 0.3), 0.5, 1e-9))
        let quarter = TimingCurve.easeInOut.progress(elapsed: 0.075, duration: 0.3)
        #expect(quarter < 0.25 && quarter > 0.1)   // slow start
        let threeQuarters = TimingCurve.easeInOut.progress(elapsed: 0.225, duration: 0.3)
        #expect(approx(quarter + threeQuarters, 1, 1e-9))  // symmetric
    }

    @Test(arguments: TimingCurve.allCases)
    func nonsenseInputs(curve: TimingCurve) {
        #expect(curve.progress(elapsed: .nan, duration: 0.3) == 0)
        #expect(curve.progress(elapsed: .infinity, duration: 0.3) == 1)
        #expect(curve.progress(elapsed: -.infinity, duration: 0.3) == 0)
        for d in [0.0, -1, .nan, .infinity, -.infinity] {
            #expect(curve.progress(elapsed: 0, duration: d) == 1)
            #expect(curve.progress(elapsed: 0.1, duration: d) == 1)
            #expect(curve.progress(elapsed: -0.1, duration: d) == 0)
        }
    }

    @Test func expMatchesKnownValues() {
        let cases: [(Double, Double)] = [
            (0, 1), (1, 2.718281828459045), (-1, 0.36787944117144233),
            (-9.25, 9.61116520613947e-05), (10, 22026.465794806718), (-700, 9.85967654375977e-305),
        ]
        for (x, e) in cases {
            #expect(abs(kioskExp(x) - e) <= abs(e) * 1e-15, "exp(\(x))")
        }
        #expect(kioskExp(.nan).isNaN)
        #expect(kioskExp(.infinity) == .infinity)
        #expect(kioskExp(-.infinity) == 0)
        #expect(kioskExp(1000) == .infinity)
        #expect(kioskExp(-1000) == 0)
    }
}
