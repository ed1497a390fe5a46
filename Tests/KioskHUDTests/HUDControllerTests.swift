import KioskPresentation
import KioskSeams
import KioskTestDoubles
import KioskHUD
import KioskRaster
import KioskText
import Testing

/// The HUD object end to end: state machines + renderer + offscreen display + manual clock.
@Suite struct HUDControllerTests {
    func make(config: PresentationConfig = PresentationConfig(), mode: HUDMode = .indeterminate)
        throws -> (HUD, OffscreenDisplay, ManualClock) {
        let display = try OffscreenDisplay(width: 320, height: 240)
        let clock = ManualClock(100)
        let hud = try HUD(display: display, clock: clock, fonts: FontLibrary(),
                          content: HUDContent(mode: mode, label: "Working"), config: config)
        return (hud, display, clock)
    }

    func centre(_ d: OffscreenDisplay) -> UInt32 { d.screen.surface.pixel(x: 160, y: 120) }
    let black: UInt32 = 0xFF00_0000

    @Test func graceTimeHidesQuickWork() throws {
        let (hud, display, clock) = try make(config: PresentationConfig(graceTime: 0.5))
        var completions = 0
        hud.addObserver { if $0 == .hidden { completions += 1 } }
        hud.show(animated: false)
        try hud.tick()
        clock.advance(by: 0.3)
        try hud.tick()
        #expect(centre(display) == black, "drawn before the grace time")
        hud.hide(animated: false)
        clock.advance(by: 1)
        try hud.tick()
        #expect(centre(display) == black)
        #expect(completions == 1)
    }

    @Test func showsAfterGraceAndHidesAfterMinShow() throws {
        let (hud, display, clock) = try make(config: PresentationConfig(graceTime: 0.5, minShowTime: 1))
        var completions = 0
        hud.addObserver { if $0 == .hidden { completions += 1 } }
        hud.show(animated: false)
        clock.advance(by: 0.6)
        try hud.tick()
        #expect(centre(display) != black)
        hud.hide(animated: false)  // 0.1 s after showing: postponed to 1 s
        clock.advance(by: 0.5)
        try hud.tick()
        #expect(centre(display) != black)
        #expect(completions == 0)
        clock.advance(by: 0.5)
        try hud.tick()
        #expect(centre(display) == black)
        #expect(completions == 1)
        clock.advance(by: 5)
        try hud.tick()
        #expect(completions == 1)
    }

    @Test func fadeAnimationPresentsFramesThenSettles() throws {
        let (hud, display, clock) = try make()
        hud.show(animated: true)
        try hud.tick()
        var frames = 0
        var next = try hud.tick().next
        while let n = next, n - clock.now < 0.05, frames < 100 {
            clock.set(n)
            if !(try hud.tick().damage.isEmpty) { frames += 1 }
            next = try hud.tick().next
            if clock.now > 100.5 { break }
        }
        #expect(frames >= 10, "a 0.3 s fade at 60 Hz gives ~18 frames, got \(frames)")
        // Indeterminate: the spinner keeps asking for frames at its step rate.
        let n = try hud.tick().next
        #expect(n != nil)
        #expect(display.presentCount > 10)
    }

    @Test func spinnerDamagesOnlyTheIndicator() throws {
        let (hud, display, clock) = try make()
        hud.show(animated: false)
        try hud.tick()
        clock.advance(by: 1.0 / 12 + 0.001)
        let d = try hud.tick().damage
        #expect(!d.isEmpty && d.area < 45 * 45)
        #expect(display.lastPresent?.area == d.area)
    }

    @Test func progressAnimatesAndClampsNonsense() throws {
        let (hud, _, clock) = try make(mode: .annular)
        hud.show(animated: false)
        try hud.tick()
        hud.setProgress(0.5, animated: true)
        clock.advance(by: 0.05)
        let mid = hud.frameState().progress
        #expect(mid > 0 && mid < 0.5)
        clock.advance(by: 0.5)
        #expect(hud.frameState().progress == 0.5)
        hud.setProgress(.nan, animated: false)
        #expect(hud.frameState().progress == 0.5)
        hud.setProgress(-3, animated: false)
        #expect(hud.frameState().progress == 0)
        hud.setProgress(.infinity, animated: false)
        #expect(hud.frameState().progress == 1)
        try hud.tick()
    }

    @Test func motionMovesBezelByDepth() throws {
        let (hud, _, _) = try make()
        hud.setMotion(x: 1, y: -0.5)
        let s = hud.frameState()
        #expect(s.motionX == 10 && s.motionY == -5)
        hud.setMotion(x: 7, y: .nan)
        #expect(hud.frameState().motionX == 10 && hud.frameState().motionY == 0)
    }

    @Test func activityCount() throws {
        let (hud, display, clock) = try make()
        hud.pushActivity(); hud.pushActivity()
        clock.advance(by: 0.5); try hud.tick()
        hud.popActivity()
        clock.advance(by: 0.5); try hud.tick()
        #expect(centre(display) != black)
        hud.popActivity()
        clock.advance(by: 0.5); try hud.tick()
        #expect(centre(display) == black)
    }
}
