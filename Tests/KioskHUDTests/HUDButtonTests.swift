import KioskPresentation
import KioskSeams
import KioskTestDoubles
import KioskHUD
import KioskHUDAsync
import KioskRaster
import KioskText
import Testing

/// The button end to end: scripted input → HUD → pressed frame on the offscreen display → action.
@Suite struct HUDButtonTests {
    func make() throws -> (HUD, OffscreenDisplay, ManualClock, ScriptedInput) {
        let display = try OffscreenDisplay(width: 400, height: 300)
        let clock = ManualClock(10)
        let hud = try HUD(display: display, clock: clock, fonts: FontLibrary(),
                          content: HUDContent(mode: .annular, progress: 0.3, label: "Updating",
                                              buttonTitle: "Cancel", buttonHasAction: true))
        hud.show(animated: false)
        try hud.tick()
        return (hud, display, clock, ScriptedInput())
    }

    func centre(_ hud: HUD) -> (Double, Double) {
        let b = hud.renderer.layout.button!
        return (b.midX, b.midY)
    }

    @Test func tapOnTheButtonPressesIt() throws {
        let (hud, display, clock, input) = try make()
        var pressed = 0
        hud.addObserver { if $0 == .buttonPressed { pressed += 1 } }
        let (x, y) = centre(hud)
        input.tap(x: x, y: y, at: 10.1, duration: 0.1)
        clock.set(10.1)
        hud.handle(input.events(until: clock.now))
        #expect(hud.buttonPressed)
        let down = try hud.tick().damage
        // Only the button is redrawn for the pressed state.
        #expect(!down.isEmpty && down.bounds.width < 100 && down.bounds.height < 40)
        let bx = Int(x), by = Int(hud.renderer.layout.button!.minY) + 3
        let pressedPixel = display.screen.surface.pixel(x: bx - 20, y: by)
        clock.set(10.2)
        hud.handle(input.events(until: clock.now))
        try hud.tick()
        #expect(pressed == 1)
        #expect(!hud.buttonPressed)
        #expect(display.screen.surface.pixel(x: bx - 20, y: by) != pressedPixel, "the tint goes away")
    }

    @Test func tapOutsideDoesNothingUnlessAsked() throws {
        let (hud, _, clock, input) = try make()
        var pressed = 0, outside = 0
        hud.addObserver { if $0 == .buttonPressed { pressed += 1 } }
        hud.addObserver { if $0 == .tappedOutside { outside += 1 } }
        input.tap(x: 5, y: 5, at: 10.1)
        clock.set(11)
        hud.handle(input.events(until: clock.now))
        #expect(pressed == 0 && outside == 0)
        hud.buttonConfig.tapOutside = true
        input.tap(x: 5, y: 5, at: 11.1)
        clock.set(12)
        hud.handle(input.events(until: clock.now))
        #expect(pressed == 0 && outside == 1)
    }

    @Test func buttonFollowsTheMotionOffset() throws {
        let (hud, _, clock, input) = try make()
        var pressed = 0
        hud.addObserver { if $0 == .buttonPressed { pressed += 1 } }
        hud.setMotion(x: 1, y: 0)  // bezel 10 px to the right
        let b = hud.renderer.layout.button!
        // Where the button's left end was drawn before it moved: now outside it.
        input.tap(x: b.minX + 2, y: b.midY, at: 10.1)
        clock.set(11)
        hud.handle(input.events(until: clock.now))
        #expect(pressed == 0)
        input.tap(x: b.maxX + 5, y: b.midY, at: 11.1)  // inside the moved button
        clock.set(12)
        hud.handle(input.events(until: clock.now))
        #expect(pressed == 1)
    }

    @Test func escapeKeyAndAsyncStream() async throws {
        let (hud, _, clock, input) = try make()
        let stream = hud.buttonEvents()
        input.add(.key(code: 1, pressed: true), at: 10.1)
        input.add(.key(code: 1, pressed: false), at: 10.2)
        clock.set(10.3)
        hud.handle(input.events(until: clock.now))
        var it = stream.makeAsyncIterator()
        #expect(await it.next() == .buttonPressed)
    }

    @Test func hiddenHUDTakesNoPresses() throws {
        let (hud, _, clock, input) = try make()
        var pressed = 0
        hud.addObserver { if $0 == .buttonPressed { pressed += 1 } }
        let (x, y) = centre(hud)
        hud.hide(animated: true)
        input.tap(x: x, y: y, at: 10.05)
        clock.set(10.2)
        hud.handle(input.events(until: clock.now))
        #expect(pressed == 0)
    }

    @Test func mouseClick() throws {
        let (hud, _, clock, input) = try make()
        var pressed = 0
        hud.addObserver { if $0 == .buttonPressed { pressed += 1 } }
        let (x, y) = centre(hud)
        input.add(.pointerMotion(x: x, y: y), at: 10.1)
        input.add(.pointerButton(pressed: true), at: 10.1)
        input.add(.pointerButton(pressed: false), at: 10.2)
        clock.set(10.3)
        hud.handle(input.events(until: clock.now))
        #expect(pressed == 1)
    }
}
