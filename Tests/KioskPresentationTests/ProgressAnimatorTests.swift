import Testing
@testable import KioskPresentation

@Suite struct ProgressAnimatorTests {
    @Test func initialValues() {
        #expect(ProgressAnimator().value(at: 0) == 0)
        #expect(ProgressAnimator(initial: .nan).value(at: 0) == 0)
        #expect(ProgressAnimator(initial: 0.4).value(at: 0) == 0.4)
        #expect(ProgressAnimator(initial: 7).value(at: 0) == 1)
        #expect(ProgressAnimator(initial: -.infinity).value(at: 0) == 0)
        #expect(ProgressAnimator().duration == 0.2)
    }

    @Test func sanitising() {
        var p = ProgressAnimator()
        p.set(.nan, animated: false, at: 0)
        #expect(p.value(at: 0) == 0)             // NaN initially → 0
        p.set(0.5, animated: false, at: 1)
        #expect(p.value(at: 1) == 0.5)           // non-animated jump
        p.set(.nan, animated: false, at: 2)
        #expect(p.value(at: 2) == 0.5)           // NaN keeps previous
        p.set(.nan, animated: true, at: 3)
        #expect(p.value(at: 3) == 0.5 && !p.isAnimating(at: 3))
        p.set(.infinity, animated: false, at: 4)
        #expect(p.value(at: 4) == 1)
        p.set(-.infinity, animated: false, at: 5)
        #expect(p.value(at: 5) == 0)
        p.set(1.7, animated: false, at: 6)
        #expect(p.target == 1)
        p.set(-0.3, animated: false, at: 7)
        #expect(p.target == 0)
    }

    @Test func animatedChangeEasesWithTheSpringOver0_2s() {
        var p = ProgressAnimator()
        p.set(1, animated: true, at: 0)
        #expect(p.value(at: 0) == 0)
        #expect(p.isAnimating(at: 0.1))
        #expect(approx(p.value(at: 0.1), springAt(0.5)))
        #expect(p.animationEnd == 0.2)
        #expect(p.value(at: 0.2) == 1)
        #expect(!p.isAnimating(at: 0.2))
        var previous = 0.0
        for i in 0...200 {
            let v = p.value(at: Double(i) * 0.001)
            #expect(v >= previous && v <= 1)
            previous = v
        }
    }

    @Test func retargetStartsFromTheDisplayedValue() {
        var p = ProgressAnimator()
        p.set(1, animated: true, at: 0)
        let shown = p.value(at: 0.05)
        p.set(0.2, animated: true, at: 0.05)
        #expect(p.value(at: 0.05) == shown)      // no jump
        #expect(approx(p.value(at: 0.15), shown + (0.2 - shown) * springAt(0.5)))
        #expect(p.value(at: 0.25) == 0.2)
    }

    @Test func nonAnimatedSetInterruptsAnimation() {
        var p = ProgressAnimator()
        p.set(1, animated: true, at: 0)
        p.set(0.3, animated: false, at: 0.05)
        #expect(p.value(at: 0.05) == 0.3)
        #expect(!p.isAnimating(at: 0.05))
        #expect(p.animationEnd == nil)
    }

    @Test func timeNonsense() {
        var p = ProgressAnimator()
        p.set(1, animated: true, at: 10)
        #expect(p.value(at: 5) == 0)             // earlier than last seen: treated as 10
        #expect(p.value(at: .nan) == 0)
        p.set(0.5, animated: false, at: .nan)    // NaN time: at 10
        #expect(p.value(at: 10) == 0.5)
        var q = ProgressAnimator(duration: -1)
        #expect(q.duration == 0)
        q.set(1, animated: true, at: 0)
        #expect(q.value(at: 0) == 1)
        q.duration = .nan
        #expect(q.duration == 0)
    }

    @Test func linearCurveOption() {
        var p = ProgressAnimator(duration: 1, curve: .linear)
        p.set(1, animated: true, at: 0)
        #expect(approx(p.value(at: 0.25), 0.25))
    }
}
