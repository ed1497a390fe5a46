// The HUD session on KioskTestDoubles's loop: frames only when something changes or animates, the
// button's typed actions, quit signals, the tilt and a sensor going quiet, displays coming and
// going, and updates that fail without changing anything.
import KioskPresentation
import KioskSeams
import KioskTestDoubles
import KioskHUD
import KioskRaster
import KioskSession
import KioskText
import Testing

/// A screen whose displays a test adds and removes (hotplug).
final class TestScreen: Screen {
    var displays: [Display]
    var isActive = true
    var handler: ((ScreenEvent) -> Void)?
    var closed = false
    init(_ displays: [Display]) { self.displays = displays }
    func attach(to loop: EventLoop, _ handler: @escaping (ScreenEvent) -> Void) throws { self.handler = handler }
    func close(retain: Bool) { closed = true }
    var summary: String { "" }
    func suspend() {}
    func resume() {}
    var isSuspended: Bool { false }
    func emit(_ e: ScreenEvent) { handler?(e) }
}

/// A session on an embedded loop and one 320x240 offscreen display.
final class Rig {
    let loop = EmbeddedEventLoop()
    let display: OffscreenDisplay
    let screen: TestScreen
    let session: HUDSession
    var ended: [SessionEnd] = []
    var events: [SessionEvent] = []

    init(_ config: SessionConfiguration) throws {
        display = try OffscreenDisplay(width: 320, height: 240)
        display.timeSource = { 42 }
        screen = TestScreen([display])
        session = HUDSession(loop: loop, screen: screen, fonts: try FontLibrary(), clock: loop.clock, configuration: config)
        session.onEnd = { [unowned self] in self.ended.append($0) }
        session.addObserver { [unowned self] in self.events.append($0) }
        try session.start()
        loop.run()
    }

    var hud: HUD { session.primaryHUD! }
    var button: (x: Double, y: Double) { let b = hud.renderer.layout.button!; return (b.midX, b.midY) }
}

let withButton = HUDContent(mode: .annular, progress: 0.3, label: "Updating", buttonTitle: "Cancel", buttonHasAction: true)

@Suite struct HUDSessionTests {
    @Test func theFirstFrameIsDrawnAndToldOnce() throws {
        let r = try Rig(SessionConfiguration(content: withButton))
        #expect(r.display.presentCount == 1)
        #expect(r.events == [.firstFrame(42)])
        r.loop.advance(by: 1)
        #expect(r.events == [.firstFrame(42)])
    }

    /// A HUD with nothing animating leaves no timer: the loop sleeps until something happens.
    @Test func aStaticHUDSchedulesNothing() throws {
        let r = try Rig(SessionConfiguration(content: withButton))
        #expect(r.loop.pendingTimers == 0)
        r.loop.advance(by: 60)
        #expect(r.display.presentCount == 1)
    }

    /// A spinner draws at its phase changes, nothing in between.
    @Test func aSpinnerDrawsAtItsPhaseChanges() throws {
        let r = try Rig(SessionConfiguration(content: HUDContent(mode: .indeterminate, label: "Busy")))
        #expect(r.loop.pendingTimers == 1)
        r.loop.advance(by: 1)
        let perSecond = r.display.presentCount - 1
        #expect(perSecond >= 10 && perSecond <= 13, "\(perSecond) frames in a second")
        #expect(r.session.frames <= perSecond + 2)
    }

    @Test func theButtonEndsWithItsExitCode() throws {
        let r = try Rig(SessionConfiguration(content: withButton, onButton: .exit(10)))
        let input = ScriptedInput()
        try r.session.attachInput(input)
        input.tap(x: r.button.x, y: r.button.y, at: 1)
        r.loop.advance(by: 0.5)
        #expect(r.ended.isEmpty)
        #expect(r.display.presentCount == 1)
        r.loop.advance(by: 0.52)
        #expect(r.hud.buttonPressed)               // down: drawn pressed
        #expect(r.display.presentCount == 2)
        r.loop.advance(by: 0.1)
        #expect(r.ended == [.exit(10)])
        #expect(r.events.contains(.hud(.buttonPressed, display: "offscreen")))
        // Ended: nothing more is drawn or scheduled.
        let n = r.display.presentCount
        r.loop.advance(by: 5)
        #expect(r.display.presentCount == n && r.loop.pendingTimers == 0)
    }

    @Test func hideHidesThenEndsWithZero() throws {
        var timing = PresentationConfig()
        timing.animationDuration = 0.3
        let r = try Rig(SessionConfiguration(content: withButton, timing: timing, onButton: .hide))
        let input = ScriptedInput()
        try r.session.attachInput(input)
        input.tap(x: r.button.x, y: r.button.y, at: 0.1)
        r.loop.advance(by: 0.2)
        #expect(r.ended.isEmpty && r.hud.isVisible)
        r.loop.advance(by: 0.5)
        #expect(!r.hud.isVisible)
        #expect(r.ended == [.exit(0)])
        #expect(r.events.contains(.hud(.hidden, display: "offscreen")))
    }

    @Test func aTapOutsideAndTheCallAction() throws {
        var called = 0
        let r = try Rig(SessionConfiguration(content: withButton, tapOutside: true, onButton: .call { called += 1 }, onTapOutside: .exit(11)))
        let input = ScriptedInput()
        try r.session.attachInput(input)
        input.tap(x: r.button.x, y: r.button.y, at: 0.1)
        r.loop.advance(by: 0.3)
        #expect(called == 1 && r.ended.isEmpty)
        input.tap(x: 2, y: 2, at: 0.5)
        r.loop.advance(by: 0.3)
        #expect(r.ended == [.exit(11)])
    }

    @Test func aQuitSignalEnds() throws {
        let r = try Rig(SessionConfiguration(content: withButton, quitSignals: [15, 2]))
        r.loop.raise(10)
        #expect(r.ended.isEmpty)
        r.loop.raise(2)
        r.loop.raise(15)
        #expect(r.ended == [.signal(2)])
    }

    /// The grace time: a HUD shown and hidden within it never appears.
    @Test func graceTimeKeepsAQuickHUDOff() throws {
        var timing = PresentationConfig()
        timing.graceTime = 0.5
        let r = try Rig(SessionConfiguration(content: withButton, timing: timing))
        let blank = Array(r.display.screen.rgbaBytes())
        r.loop.advance(by: 0.3)
        r.session.hide(animated: false)
        r.loop.advance(by: 1)
        #expect(Array(r.display.screen.rgbaBytes()) == blank)
        r.session.show(animated: false)
        r.loop.advance(by: 0.6)
        #expect(Array(r.display.screen.rgbaBytes()) != blank)
    }

    /// The tilt: frames while the bezel moves, none once it rests; a sensor that goes quiet is
    /// noticed and the bezel eases back to the centre.
    @Test func tiltMovesTheBezelAndEasesBackWhenTheSensorGoesQuiet() throws {
        var style = HUDStyle()
        style.motionDepth = 10
        let r = try Rig(SessionConfiguration(style: style, content: withButton))
        let motion = ScriptedMotion()
        motion.hold(x: 0, y: 0, z: 9.81, from: 0, to: 1)
        motion.hold(x: -4.9, y: 0, z: 8.5, from: 1.01, to: 3)
        var filter = TiltFilter.Config()
        filter.neutral = .faceUp
        try r.session.attachMotion(motion, filter: filter)
        r.loop.advance(by: 3)
        let moved = r.hud.frameState().motionX
        #expect(abs(moved) > 3, "\(moved)")
        let n = r.display.presentCount
        motion.delivering = false
        r.loop.advance(by: HUDSession.motionQuietCheck + 2)
        #expect(abs(r.hud.frameState().motionX) < 0.5)
        #expect(r.display.presentCount > n)
        // At rest again: nothing scheduled but the quiet check that each sample pushes back.
        let m = r.display.presentCount
        r.loop.advance(by: 10)
        #expect(r.display.presentCount == m)
    }

    /// Displays come and go: each gets a HUD, input follows the first display's picture.
    @Test func displaysComeAndGo() throws {
        let r = try Rig(SessionConfiguration(content: withButton))
        let second = try OffscreenDisplay(width: 200, height: 300, rotation: .quarter, name: "second")
        r.screen.displays.append(second)
        r.screen.emit(.displaysChanged)
        r.loop.run()
        #expect(r.session.displays.count == 2 && second.presentCount == 1)
        r.screen.displays.removeFirst()
        r.screen.emit(.displaysChanged)
        r.loop.run()
        #expect(r.session.displays.count == 1 && r.session.displays[0].display === second)
        #expect(r.events.contains(.screen(.displaysChanged)))
    }

    /// An update that cannot be laid out is refused with the reason and changes nothing.
    @Test func aFailedUpdateChangesNothing() throws {
        let r = try Rig(SessionConfiguration(content: withButton))
        let before = r.hud.style
        #expect(throws: SessionError.self) { try r.session.update(style: { $0.fontPaths = ["/nonexistent/font.ttf"] }) }
        #expect(r.hud.style == before)
        try r.session.update(content: { $0.label = "Step 2" })
        r.loop.run()
        #expect(r.display.presentCount == 1, "drawn again within a frame interval")
        r.loop.advance(by: 1.0 / 60)
        #expect(r.hud.content.label == "Step 2" && r.display.presentCount == 2)
    }

    /// Animated progress draws until it arrives, then stops.
    @Test func animatedProgressEasesThenRests() throws {
        let r = try Rig(SessionConfiguration(content: withButton))
        r.session.setProgress(0.9, animated: true)
        r.loop.advance(by: 2)
        #expect(r.hud.frameState().progress == 0.9)
        #expect(r.loop.pendingTimers == 0)
    }
}
