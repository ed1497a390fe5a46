import Testing
@testable import KioskPresentation

@Suite struct NonsenseInputTests {
    @Test(arguments: [-1.0, .nan, .infinity, -.infinity])
    func configDurationsSanitisedToZero(bad: Double) {
        var c = PresentationConfig(graceTime: bad, minShowTime: bad, animationDuration: bad)
        #expect(c.graceTime == 0 && c.minShowTime == 0 && c.animationDuration == 0)
        c.graceTime = 1
        c.graceTime = bad
        #expect(c.graceTime == 0)
        // Behaves like "no grace, no minimum, instant transitions".
        var m = PresentationMachine(config: c)
        #expect(m.show(at: 0) == [.appeared])
        #expect(m.appearance(at: 0) == .shown)
        #expect(m.hide(at: 0.01) == [.hideStarted, .disappeared, .completed])
    }

    @Test func defaults() {
        let c = PresentationConfig()
        #expect(c.graceTime == 0 && c.minShowTime == 0 && c.animation == .fade && c.animationDuration == 0.3)
        #expect(c.curve == .spring)
    }

    @Test(arguments: [-1.0, .nan, .infinity, -.infinity])
    func badDelayFiresAtNextAdvance(bad: Double) {
        var m = PresentationMachine()
        m.show(animated: false, at: 0)
        #expect(m.hide(animated: false, afterDelay: bad, at: 1) == [])
        #expect(m.nextDeadline == 1)
        #expect(m.advance(to: 1) == [.hideStarted, .disappeared, .completed])
    }

    @Test func nonFiniteTimesUseTheLastKnownTime() {
        var m = PresentationMachine(config: PresentationConfig(graceTime: 1))
        #expect(m.show(at: .nan) == [])              // treated as 0 (no time seen yet)
        #expect(m.nextDeadline == 1)
        #expect(m.advance(to: .infinity) == [])      // ignored, not "fire everything"
        #expect(m.advance(to: -.infinity) == [])
        #expect(m.advance(to: 1) == [.appeared])
        #expect(m.appearance(at: .nan).isVisible)
        #expect(!m.appearance(at: .nan).opacity.isNaN)
    }

    @Test func timeGoingBackwardsNeverRefires() {
        var r = Recorder(PresentationConfig(graceTime: 1, minShowTime: 1))
        r.show(at: 10)
        #expect(r.advance(to: 11) == [.appeared])
        #expect(r.advance(to: 5) == [])
        #expect(r.advance(to: 11) == [])
        #expect(r.advance(to: 0) == [])
        #expect(r.advance(to: 11.5) == [])         // show animation ends
        // A hide "in the past" happens now (11.5): min-show postpones it to 12.
        #expect(r.hide(at: 3) == [])
        #expect(r.machine.nextDeadline == 12)
        #expect(r.advance(to: 12) == [.hideStarted])
        #expect(r.advance(to: 13) == [.disappeared, .completed])
        #expect(r.advance(to: 1) == [])
        #expect(r.advance(to: 100) == [])
        #expect(r.completions == 1)
        // Appearance queries before the last time see the last time.
        #expect(r.machine.appearance(at: 0) == .hidden)
    }

    @Test func appearanceQueryInThePastDoesNotRewind() {
        var m = PresentationMachine()
        m.show(at: 1)
        m.advance(to: 1.1)
        #expect(m.appearance(at: 0) == m.appearance(at: 1.1))
        #expect(!m.isAnimating(at: 5))
    }

    /// Random operations with random (partly nonsense) times: no trap, opacity in range,
    /// `.appeared`/`.disappeared` alternate, and completions never exceed sessions.
    @Test func fuzz() {
        var seed: UInt64 = 0x9E3779B97F4A7C15
        func next() -> UInt64 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return seed >> 33
        }
        func time(_ base: Double) -> Double {
            switch next() % 20 {
            case 0: .nan
            case 1: .infinity
            case 2: -.infinity
            case 3: base - Double(next() % 100) / 10
            default: base + Double(next() % 100) / 100
            }
        }
        let weird: [Double] = [0, 0.1, 0.3, 1, -1, .nan, .infinity]
        for round in 0..<30 {
            var r = Recorder(PresentationConfig(
                graceTime: weird[round % weird.count],
                minShowTime: weird[(round / 2) % weird.count],
                animation: AnimationKind.allCases[round % 4],
                animationDuration: weird[(round / 3) % weird.count]))
            var now = 0.0
            var shows = 0
            for _ in 0..<300 {
                let t = time(now)
                if t.isFinite { now = max(now, t) }
                let animated = next() % 2 == 0
                switch next() % 7 {
                case 0: r.show(animated: animated, at: t); shows += 1
                case 1: r.hide(animated: animated, at: t)
                case 2: r.hide(animated: animated, afterDelay: Double(next() % 30) / 10 - 0.5, at: t)
                case 3: r.push(at: t); shows += 1
                case 4: r.pop(at: t)
                default: r.advance(to: t)
                }
                let a = r.machine.appearance(at: t)
                #expect(a.opacity >= 0 && a.opacity <= 1)
                #expect(a.scale.isFinite && a.scale >= 0.5 && a.scale <= 1.5)
                #expect(r.machine.activityCount >= 0)
                if let d = r.machine.nextDeadline { #expect(d.isFinite) }
            }
            r.hide(animated: false, at: now + 100)
            r.advance(to: now + 200)
            #expect(r.machine.phase == .hidden)
            #expect(!r.machine.isVisible)
            #expect(r.machine.nextDeadline == nil)
            #expect(r.completions <= shows)
            let edges = r.log.filter { $0 == .appeared || $0 == .disappeared }
            for (i, e) in edges.enumerated() {
                #expect(e == (i % 2 == 0 ? .appeared : .disappeared))
            }
            #expect(edges.count % 2 == 0)
        }
    }
}
