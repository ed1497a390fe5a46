import Testing
@testable import KioskPresentation

@Suite struct AnimationTests {
    static let kinds: [(AnimationKind, showStart: Double, hideEnd: Double)] = [
        (.fade, 1, 1), (.zoom, 0.5, 0.5), (.zoomIn, 0.5, 1.5), (.zoomOut, 1.5, 0.5),
    ]

    @Test func kindResolution() {
        #expect(AnimationKind.zoom.resolved(appearing: true) == .zoomIn)
        #expect(AnimationKind.zoom.resolved(appearing: false) == .zoomOut)
        for (kind, start, end) in Self.kinds {
            #expect(kind.showStartScale == start)
            #expect(kind.hideEndScale == end)
        }
    }

    @Test func showAnimationPerKind() {
        for (kind, start, _) in Self.kinds {
            var m = PresentationMachine(config: PresentationConfig(animation: kind))
            #expect(m.appearance(at: 0) == .hidden)
            #expect(m.show(at: 0) == [.appeared])
            #expect(m.appearance(at: 0) == Appearance(isVisible: true, opacity: 0, scale: start))
            let mid = m.appearance(at: 0.15)
            let p = springAt(0.5)
            #expect(approx(mid.opacity, p))
            #expect(approx(mid.scale, start + (1 - start) * p))
            #expect(m.isAnimating(at: 0.15))
            #expect(m.nextDeadline == 0.3)
            #expect(m.appearance(at: 0.3) == .shown)
            #expect(!m.isAnimating(at: 0.3))
            #expect(m.advance(to: 0.3) == [])
            #expect(m.nextDeadline == nil)
            #expect(m.phase == .shown)
        }
    }

    @Test func hideAnimationPerKind() {
        for (kind, _, end) in Self.kinds {
            var m = PresentationMachine(config: PresentationConfig(animation: kind))
            m.show(animated: false, at: 0)
            #expect(m.appearance(at: 0) == .shown)
            #expect(m.hide(at: 2) == [.hideStarted])
            #expect(m.phase == .hiding)
            #expect(m.appearance(at: 2) == .shown)
            let mid = m.appearance(at: 2.15)
            let p = springAt(0.5)
            #expect(approx(mid.opacity, 1 - p))
            #expect(approx(mid.scale, 1 + (end - 1) * p))
            let finish = m.nextDeadline ?? 0
            #expect(approx(finish, 2.3))
            #expect(m.appearance(at: finish) == Appearance(isVisible: true, opacity: 0, scale: end))
            #expect(m.advance(to: finish) == [.disappeared, .completed])
            #expect(m.appearance(at: finish) == .hidden)
            #expect(m.phase == .hidden)
            #expect(m.nextDeadline == nil)
        }
    }

    @Test func nonAnimatedTransitionsAreInstant() {
        var m = PresentationMachine(config: PresentationConfig(animation: .zoom))
        #expect(m.show(animated: false, at: 0) == [.appeared])
        #expect(m.appearance(at: 0) == .shown)
        #expect(!m.isAnimating(at: 0))
        #expect(m.hide(animated: false, at: 1) == [.hideStarted, .disappeared, .completed])
        #expect(m.appearance(at: 1) == .hidden)
    }

    @Test func zeroDurationMakesAnimatedTransitionsInstant() {
        var m = PresentationMachine(config: PresentationConfig(animation: .zoomIn, animationDuration: 0))
        #expect(m.show(at: 0) == [.appeared])
        #expect(m.appearance(at: 0) == .shown)
        #expect(m.hide(at: 1) == [.hideStarted, .disappeared, .completed])
    }

    @Test func customCurveIsUsed() {
        var m = PresentationMachine(config: PresentationConfig(animationDuration: 1, curve: .linear))
        m.show(at: 0)
        #expect(approx(m.appearance(at: 0.25).opacity, 0.25))
    }

    @Test func showInterruptingHideBeginsFromCurrentState() {
        var m = PresentationMachine(config: PresentationConfig(animation: .zoomIn))
        m.show(animated: false, at: 0)
        m.hide(at: 1)                                   // 1 → 0 opacity, 1 → 1.5 scale
        let before = m.appearance(at: 1.1)
        #expect(before.opacity > 0 && before.opacity < 1 && before.scale > 1)
        #expect(m.show(at: 1.1) == [.completed])        // MBProgressHUD: interrupted hide completes
        let after = m.appearance(at: 1.1)
        #expect(after == before)                        // no jump
        #expect(m.phase == .shown)
        // Heads back to (1, 1) along the curve, starting from where it was.
        let p = springAt(0.5)
        let mid = m.appearance(at: 1.25)
        #expect(approx(mid.opacity, before.opacity + (1 - before.opacity) * p))
        #expect(approx(mid.scale, before.scale + (1 - before.scale) * p))
        #expect(m.appearance(at: 1.5) == .shown)
        #expect(m.advance(to: 5) == [])
    }

    @Test func hideInterruptingShowBeginsFromCurrentState() {
        var m = PresentationMachine(config: PresentationConfig(animation: .zoomOut))
        m.show(at: 0)
        let before = m.appearance(at: 0.05)
        #expect(m.hide(at: 0.05) == [.hideStarted])
        #expect(m.appearance(at: 0.05) == before)
        #expect(m.appearance(at: 0.4) == Appearance(isVisible: true, opacity: 0, scale: 0.5))
        #expect(m.advance(to: 0.4) == [.disappeared, .completed])
    }

    @Test func repeatedShowDoesNotJump() {
        var m = PresentationMachine(config: PresentationConfig(animation: .zoomIn))
        m.show(at: 0)
        let before = m.appearance(at: 0.1)
        #expect(m.show(at: 0.1) == [])
        #expect(m.appearance(at: 0.1) == before)
        #expect(m.appearance(at: 0.4) == .shown)
        // Showing an already fully shown HUD is not an animation.
        m.advance(to: 1)
        m.show(at: 1)
        #expect(!m.isAnimating(at: 1))
        #expect(m.nextDeadline == nil)
    }

    @Test func nonAnimatedShowDuringHideJumpsToShown() {
        var m = PresentationMachine()
        m.show(animated: false, at: 0)
        m.hide(at: 1)
        #expect(m.show(animated: false, at: 1.1) == [.completed])
        #expect(m.appearance(at: 1.1) == .shown)
    }
}
