// The Touch Display 2 profile end to end: the picture is landscape, the panel portrait. What the
// display copy puts on the panel is the picture turned by the profile's rotation, and a finger
// where the button shows on the panel — as the touch controller reports it, in the panel's own
// axes, through the profile's calibration and the display's transform — presses that button.
import KioskBoards
import KioskTestSupport
import KioskSeams
import KioskDRM
import KioskTestDoubles
import KioskHUD
import KioskRaster
import KioskSession
import KioskText
import Testing

@Suite struct PortraitPanelTests {
    /// The Pi 5 with the Touch Display 2, as detection finds it, and the profile it takes.
    static func profile() throws -> BoardProfile {
        let s = try Machines.pi5TouchDisplay2().select()
        #expect(s.name == "rpi-touch-display-2")
        return s.profile
    }

    @Test func theRenderIsTurnedOntoThePanelAndATouchThereLandsOnTheButton() throws {
        let p = try Self.profile()
        let rotation = try #require(p.display.rotation)
        #expect(rotation == .quarter)
        // The panel's mode is 720x1280 (portrait); the picture is the panel turned: 1280x720.
        let panel = (w: 720, h: 1280)
        let transform = DisplayTransform(rotation: rotation, width: panel.h, height: panel.w)
        #expect(transform.panelWidth == panel.w && transform.panelHeight == panel.h)
        let display = try OffscreenDisplay(width: transform.width, height: transform.height, format: p.format, rotation: rotation,
                                           scale: p.scale ?? 1)
        let loop = EmbeddedEventLoop()
        var pressed = 0
        let content = HUDContent(mode: .annular, progress: 0.25, label: "Updating…", buttonTitle: "Cancel", buttonHasAction: true)
        let session = HUDSession(loop: loop, screen: OffscreenScreen(display), fonts: try FontLibrary(), clock: loop.clock,
                                 configuration: SessionConfiguration(style: p.style, content: content, timing: p.timing,
                                                                     scale: p.scale, onButton: .call { pressed += 1 }))
        try session.start()
        loop.run()
        let hud = try #require(session.primaryHUD)
        let button = try #require(hud.renderer.layout.button)
        // The profile's scale reached the layout (the button is 1.5 times its 1x height, about).
        #expect(p.scale == 1.5 && hud.renderer.style.scale == 1.5)

        // The panel's pixels are the picture's turned 90° clockwise: picture (x, y) is panel (H-1-y, x).
        let picture = display.screen.surface
        let panelBuffer = try Bitmap(width: panel.w, height: panel.h, format: p.format)
        ScanoutCopy.copy(picture, rect: IntRect(x: 0, y: 0, width: picture.width, height: picture.height), to: panelBuffer.surface,
                         rotation: rotation)
        var mismatches = 0
        for y in stride(from: 0, to: picture.height, by: 3) {
            for x in stride(from: 0, to: picture.width, by: 3) where picture.pixel(x: x, y: y) != panelBuffer.surface.pixel(x: picture.height - 1 - y, y: x) {
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
        // The bezel is in the middle of the panel, standing up: taller than wide there.
        let bezel = hud.renderer.layout.bezel
        let onPanel = transform.toPanel(IntRect(x: Int(bezel.x), y: Int(bezel.y), width: Int(bezel.width), height: Int(bezel.height)))
        #expect(onPanel.height > onPanel.width && bezel.width > bezel.height)

        // A finger on the button as the panel shows it: where the controller reports it (its
        // axes are the panel's, 0…1), through the profile's calibration (none for this display)
        // and the picture's transform — the InputTranslator's mapping.
        let onScreen = transform.toPanel(x: button.midX, y: button.midY)
        let raw = (x: onScreen.x / Double(panel.w), y: onScreen.y / Double(panel.h))
        let calibration = p.touch.matrix.map { CalibrationMatrix($0.map(Float.init)) } ?? .identity
        let calibrated = calibration.apply(x: raw.x, y: raw.y)
        let touch = transform.toPicture(x: calibrated.x * Double(panel.w), y: calibrated.y * Double(panel.h))
        #expect(button.contains(Point(touch.x, touch.y)), "\(touch) not in \(button)")
        // The button is drawn there: the panel pixel under the finger is the button's picture pixel.
        let px = ScanoutCopy.panelPixel(x: Int(button.midX), y: Int(button.midY), w: picture.width, h: picture.height, rotation: rotation)
        #expect(panelBuffer.surface.pixel(x: px.x, y: px.y) == picture.pixel(x: Int(button.midX), y: Int(button.midY)))
        // Without the rotation the same finger would be somewhere else entirely.
        #expect(!button.contains(Point(raw.x * Double(transform.width), raw.y * Double(transform.height))))

        let input = ScriptedInput()
        try session.attachInput(input)
        input.tap(x: touch.x, y: touch.y, at: 0.1)
        loop.advance(by: 0.5)
        #expect(pressed == 1)
    }
}
