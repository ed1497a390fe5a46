import Testing
@testable import KioskPresentation

@Suite struct GraceTimeTests {
    @Test func hiddenBeforeGraceExpiresIsNeverShown() {
        var r = Recorder(PresentationConfig(graceTime: 1))
        #expect(r.show(at: 0) == [])
        #expect(r.machine.phase == .waitingForGrace)
        #expect(!r.machine.isVisible)
        #expect(r.machine.appearance(at: 0.5) == .hidden)
        #expect(r.machine.nextDeadline == 1)
        #expect(r.hide(at: 0.5) == [.completed])
        #expect(r.machine.nextDeadline == nil)
        #expect(r.advance(to: 10) == [])
        #expect(!r.log.contains(.appeared))
        #expect(r.machine.appearance(at: 10) == .hidden)
        #expect(r.machine.phase == .hidden)
    }

    @Test func shownWhenGraceFires() {
        var r = Recorder(PresentationConfig(graceTime: 1))
        r.show(at: 0)
        #expect(r.advance(to: 0.999) == [])
        #expect(r.advance(to: 1) == [.appeared])
        #expect(r.machine.showStarted == 1)
        #expect(r.machine.appearance(at: 1).opacity == 0)
        #expect(r.machine.appearance(at: 1.3) == .shown)
    }

    @Test func graceFiresAtItsDeadlineEvenWhenAdvancedLate() {
        var r = Recorder(PresentationConfig(graceTime: 1))
        r.show(at: 0)
        #expect(r.advance(to: 1.15) == [.appeared])
        #expect(r.machine.showStarted == 1)
        #expect(approx(r.machine.appearance(at: 1.15).opacity, springAt(0.5)))
    }

    @Test func entryPointsFireDueTimersFirst() {
        // No advance between show and hide: the grace timer still fired at 1, then hide at 2.
        var r = Recorder(PresentationConfig(graceTime: 1))
        r.show(animated: false, at: 0)
        #expect(r.hide(animated: false, at: 2) == [.appeared, .hideStarted, .disappeared, .completed])
    }

    @Test func repeatedShowDoesNotPostponeGrace() {
        var r = Recorder(PresentationConfig(graceTime: 1))
        r.show(at: 0)
        r.show(at: 0.8)
        #expect(r.advance(to: 1) == [.appeared])
    }

    @Test func showWithGraceWhileShownKeepsItOnScreen() {
        var r = Recorder(PresentationConfig(graceTime: 1))
        r.show(animated: false, at: 0)
        r.advance(to: 1)
        #expect(r.show(at: 5) == [])
        #expect(r.machine.appearance(at: 5.5) == .shown)
        #expect(r.advance(to: 6) == [])            // grace re-show of a drawn HUD: no new .appeared
        #expect(r.machine.showStarted == 6)        // MBProgressHUD restarts showStarted
    }
}

@Suite struct MinShowTimeTests {
    @Test func hidePostponedToExactlyShowStartedPlusMinShow() {
        var r = Recorder(PresentationConfig(minShowTime: 2))
        r.show(at: 0)
        #expect(r.hide(at: 0.5) == [])
        #expect(r.machine.phase == .waitingForMinShow)
        #expect(r.machine.nextDeadline == 2)
        #expect(r.advance(to: 1.999) == [])
        #expect(r.machine.appearance(at: 1.999) == .shown)
        #expect(r.advance(to: 2) == [.hideStarted])
        #expect(r.machine.appearance(at: 2) == .shown)            // the hide animation starts at 2
        #expect(approx(r.machine.appearance(at: 2.15).opacity, 1 - springAt(0.5)))
        #expect(r.advance(to: 2.5) == [.disappeared, .completed])
    }

    @Test func nonAnimatedPostponedHide() {
        var r = Recorder(PresentationConfig(minShowTime: 2))
        r.show(animated: false, at: 10)
        #expect(r.hide(animated: false, at: 11) == [])
        #expect(r.advance(to: 12) == [.hideStarted, .disappeared, .completed])
    }

    @Test func hideAfterMinShowIsImmediate() {
        var r = Recorder(PresentationConfig(minShowTime: 2))
        r.show(animated: false, at: 0)
        #expect(r.hide(animated: false, at: 2) == [.hideStarted, .disappeared, .completed])
    }

    @Test func minShowCountsFromWhenGraceFired() {
        var r = Recorder(PresentationConfig(graceTime: 1, minShowTime: 2))
        r.show(at: 0)
        r.advance(to: 1)
        #expect(r.hide(at: 1.5) == [])
        #expect(r.machine.nextDeadline == 3)
        #expect(r.advance(to: 3) == [.hideStarted])
    }

    @Test func showDuringMinShowWaitCancelsThePostponedHide() {
        var r = Recorder(PresentationConfig(minShowTime: 2))
        r.show(at: 0)
        r.hide(at: 0.5)
        #expect(r.show(at: 1) == [])
        #expect(r.machine.phase == .shown)
        #expect(r.advance(to: 10) == [])
        #expect(r.machine.appearance(at: 10) == .shown)
    }

    @Test func lastHideDecidesAnimation() {
        var r = Recorder(PresentationConfig(minShowTime: 2))
        r.show(at: 0)
        r.hide(animated: true, at: 0.5)
        r.hide(animated: false, at: 1)
        #expect(r.machine.nextDeadline == 2)
        #expect(r.advance(to: 2) == [.hideStarted, .disappeared, .completed])
    }
}

@Suite struct HideAfterDelayTests {
    @Test func fires() {
        var r = Recorder()
        r.show(at: 0)
        #expect(r.hide(afterDelay: 2, at: 0) == [])
        #expect(r.machine.nextDeadline == 0.3)   // show animation end first
        r.advance(to: 0.3)
        #expect(r.machine.nextDeadline == 2)
        #expect(r.advance(to: 1.999) == [])
        #expect(r.advance(to: 2) == [.hideStarted])
        #expect(r.advance(to: 3) == [.disappeared, .completed])
    }

    @Test func newCallReplacesOld() {
        var r = Recorder()
        r.show(animated: false, at: 0)
        r.hide(animated: false, afterDelay: 2, at: 0)
        r.hide(animated: false, afterDelay: 5, at: 1)
        #expect(r.machine.nextDeadline == 6)
        #expect(r.advance(to: 5.9) == [])
        #expect(r.advance(to: 6) == [.hideStarted, .disappeared, .completed])
    }

    @Test func showCancelsIt() {
        var r = Recorder()
        r.show(at: 0)
        r.hide(afterDelay: 1, at: 0)
        r.show(at: 0.5)
        #expect(r.advance(to: 10) == [])
        #expect(r.machine.appearance(at: 10) == .shown)
    }

    @Test func graceFiringCancelsItLikeMBProgressHUD() {
        // MBProgressHUD's showUsingAnimation: invalidates hideDelayTimer, also when the grace timer fires.
        var r = Recorder(PresentationConfig(graceTime: 1))
        r.show(at: 0)
        r.hide(afterDelay: 3, at: 0)
        #expect(r.advance(to: 10) == [.appeared])
        #expect(r.machine.isVisible)
    }

    @Test func delayedHideHonoursMinShow() {
        var r = Recorder(PresentationConfig(minShowTime: 3))
        r.show(animated: false, at: 0)
        r.hide(animated: false, afterDelay: 1, at: 0)
        #expect(r.advance(to: 1) == [])
        #expect(r.machine.nextDeadline == 3)
        #expect(r.advance(to: 3) == [.hideStarted, .disappeared, .completed])
    }

    @Test func hidingCancelsIt() {
        var r = Recorder()
        r.show(animated: false, at: 0)
        r.hide(animated: false, afterDelay: 5, at: 0)
        r.hide(animated: false, at: 1)
        r.show(animated: false, at: 2)
        #expect(r.advance(to: 10) == [])
        #expect(r.machine.isVisible)
    }

    @Test func delayedHideDuringGraceMeansNeverShown() {
        var r = Recorder(PresentationConfig(graceTime: 2))
        r.show(at: 0)
        r.hide(afterDelay: 1, at: 0)
        #expect(r.advance(to: 10) == [.completed])
        #expect(!r.log.contains(.appeared))
    }
}

@Suite struct ActivityCountTests {
    @Test func pushPushPopKeepsItShown() {
        var r = Recorder()
        #expect(r.push(at: 0) == [.appeared])
        #expect(r.push(at: 1) == [])
        #expect(r.machine.activityCount == 2)
        #expect(r.pop(at: 2) == [])
        #expect(r.machine.activityCount == 1)
        #expect(r.machine.appearance(at: 2) == .shown)
        #expect(r.pop(at: 3) == [.hideStarted])
        #expect(r.machine.activityCount == 0)
        #expect(r.advance(to: 4) == [.disappeared, .completed])
    }

    @Test func popBelowZeroIsHarmless() {
        var r = Recorder()
        #expect(r.pop(at: 0) == [])
        #expect(r.machine.activityCount == 0)
        r.push(at: 1)
        r.pop(at: 2)
        r.advance(to: 3)
        #expect(r.pop(at: 4) == [])
        #expect(r.pop(at: 5) == [])
        #expect(r.machine.activityCount == 0)
        #expect(r.completions == 1)
        #expect(r.push(at: 6) == [.appeared])
        #expect(r.machine.activityCount == 1)
    }

    @Test func explicitHideResetsTheCount() {
        var r = Recorder()
        r.push(at: 0)
        r.push(at: 0)
        r.hide(animated: false, at: 1)
        #expect(r.machine.activityCount == 0)
        #expect(r.pop(at: 2) == [])
    }

    @Test func pushDuringHideAnimationReshows() {
        var r = Recorder()
        r.push(at: 0)
        r.advance(to: 1)
        r.pop(at: 1)
        #expect(r.push(at: 1.1) == [.completed])
        #expect(r.machine.phase == .shown)
        #expect(r.machine.activityCount == 1)
    }

    @Test func pushDuringMinShowWaitCancelsTheHide() {
        var r = Recorder(PresentationConfig(minShowTime: 2))
        r.push(at: 0)
        r.pop(at: 0.5)
        #expect(r.machine.phase == .waitingForMinShow)
        r.push(at: 1)
        #expect(r.advance(to: 5) == [])
        #expect(r.machine.phase == .shown)
    }

    @Test func activitiesHonourGrace() {
        var r = Recorder(PresentationConfig(graceTime: 0.5))
        r.push(at: 0)
        r.push(at: 0.1)
        r.pop(at: 0.2)
        #expect(r.pop(at: 0.3) == [.completed])
        #expect(r.advance(to: 5) == [])
        #expect(!r.log.contains(.appeared))
    }
}
