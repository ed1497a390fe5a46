import Testing
@testable import KioskPresentation

/// `.completed` is emitted exactly once per shown-then-hidden session, in every path.
@Suite struct CompletionTests {
    @Test func plain() {
        var r = Recorder()
        r.show(animated: false, at: 0)
        r.hide(animated: false, at: 1)
        r.advance(to: 100)
        #expect(r.completions == 1)
        #expect(r.log == [.appeared, .hideStarted, .disappeared, .completed])
    }

    @Test func animated() {
        var r = Recorder()
        r.show(at: 0)
        #expect(r.hide(at: 1) == [.hideStarted])
        #expect(r.completions == 0)
        #expect(r.advance(to: 1.2) == [])
        r.advance(to: 100)
        #expect(r.completions == 1)
        #expect(r.log == [.appeared, .hideStarted, .disappeared, .completed])
    }

    @Test(arguments: [true, false])
    func duringGrace(animated: Bool) {
        var r = Recorder(PresentationConfig(graceTime: 1))
        r.show(animated: animated, at: 0)
        #expect(r.hide(animated: animated, at: 0.5) == [.completed])
        r.advance(to: 100)
        #expect(r.log == [.completed])
    }

    @Test(arguments: [true, false])
    func duringMinShowWait(animated: Bool) {
        var r = Recorder(PresentationConfig(minShowTime: 2))
        r.show(animated: animated, at: 0)
        r.hide(animated: animated, at: 0.5)
        r.hide(animated: animated, at: 1)
        #expect(r.completions == 0)
        r.advance(to: 100)
        #expect(r.completions == 1)
    }

    @Test func interruptedByNewShow() {
        var r = Recorder()
        r.show(at: 0)
        r.hide(at: 1)
        #expect(r.show(at: 1.1) == [.completed])    // the interrupted hide completes now
        r.advance(to: 100)
        #expect(r.completions == 1)
        #expect(r.machine.isVisible)
        r.hide(at: 200)                              // the new session completes once more
        r.advance(to: 300)
        #expect(r.completions == 2)
        #expect(r.log == [.appeared, .hideStarted, .completed, .hideStarted, .disappeared, .completed])
    }

    @Test func interruptedByShowWithGraceLetsTheHideFinish() {
        // MBProgressHUD defers showUsingAnimation by the grace time, so the hide animation runs to its end.
        var r = Recorder(PresentationConfig(graceTime: 1))
        r.show(at: 0)
        r.advance(to: 1)
        r.hide(at: 2)
        #expect(r.show(at: 2.1) == [])
        #expect(r.advance(to: 2.5) == [.disappeared, .completed])
        #expect(r.advance(to: 3.2) == [.appeared])
        r.hide(at: 5)
        r.advance(to: 10)
        #expect(r.completions == 2)
    }

    @Test func showWithGraceDuringHideThenHideAgain() {
        var r = Recorder(PresentationConfig(graceTime: 1))
        r.show(animated: false, at: 0)
        r.advance(to: 1)
        r.hide(at: 2)                 // session 1 hides (animated)
        r.show(at: 2.1)               // session 2 waits for grace
        #expect(r.hide(at: 2.2) == [.completed])   // session 2 never drawn
        #expect(r.advance(to: 10) == [.disappeared, .completed])   // session 1's animation ends
        #expect(r.completions == 2)
    }

    @Test func hideCalledTwice() {
        var r = Recorder()
        r.show(at: 0)
        r.hide(at: 1)
        #expect(r.hide(at: 1.1) == [])
        r.advance(to: 100)
        #expect(r.hide(at: 101) == [])
        #expect(r.hide(animated: false, at: 102) == [])
        #expect(r.completions == 1)
    }

    @Test func instantHideCutsARunningHideShortOnce() {
        var r = Recorder()
        r.show(at: 0)
        r.hide(at: 1)
        #expect(r.hide(animated: false, at: 1.1) == [.disappeared, .completed])
        #expect(r.machine.appearance(at: 1.1) == .hidden)
        #expect(r.advance(to: 100) == [])
        #expect(r.completions == 1)
    }

    @Test func hideWithoutShowCompletesNothing() {
        var r = Recorder()
        #expect(r.hide(at: 0) == [])
        r.hide(afterDelay: 1, at: 0)
        #expect(r.advance(to: 5) == [])
        #expect(r.completions == 0)
    }

    @Test func delayedAndDirectHideTogether() {
        var r = Recorder()
        r.show(at: 0)
        r.hide(afterDelay: 1, at: 0)
        r.hide(at: 0.5)
        r.advance(to: 100)
        #expect(r.completions == 1)
    }

    @Test func manyCyclesOneEach() {
        var r = Recorder(PresentationConfig(graceTime: 0.2, minShowTime: 0.5))
        var t = 0.0
        for i in 0..<20 {
            r.show(animated: i % 2 == 0, at: t)
            r.hide(animated: i % 3 == 0, at: t + Double(i % 4) * 0.15)
            t += 2
            r.advance(to: t)
        }
        #expect(r.completions == 20)
    }
}
