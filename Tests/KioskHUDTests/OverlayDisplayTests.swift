// A HUD on a display over another program's picture (`Display.isOverlay`, a compositor's overlay
// layer): the underlay transparent and input only on the bezel while nothing dims the program;
// with `drawsUnderlay` (the boot splash continued over the compositor until the app's window) the
// whole picture, opaque, taking input everywhere; back to the HUD alone after.
import KioskHUD
import KioskPresentation
import KioskRaster
import KioskSeams
import KioskTestDoubles
import KioskText
import Testing

/// An overlay display: keeps the last frame and the input regions asked for.
final class OverlayTestDisplay: Display {
    let width = 320, height = 240
    var preferredFormat: PixelFormat { .argb8888 }
    var transform: DisplayTransform { DisplayTransform(rotation: .none, width: width, height: height) }
    var isOverlay: Bool { true }
    var regions: [[IntRect]?] = []
    var corner: UInt32 = 0
    func present(_ frame: Surface, damage: Damage) throws { corner = frame.pixel(x: 0, y: 0) }
    func setInputRegion(_ region: [IntRect]?) { regions.append(region) }
}

@Suite struct OverlayDisplayTests {
    @Test func theUnderlayIsDrawnOnlyWhileAskedAndInputFollows() throws {
        let display = OverlayTestDisplay()
        let clock = ManualClock(10)
        let hud = try HUD(display: display, clock: clock, fonts: FontLibrary(), content: HUDContent(mode: .text, label: "Starting"))
        hud.show(animated: false)
        try hud.tick()
        let bezel = hud.renderer.layout.bezel.enclosingPixels
        #expect(display.corner >> 24 == 0, "the program shows through beside the HUD")
        #expect(display.regions.last == .some([bezel]), "input on the bezel alone: \(display.regions)")
        // The splash's whole picture: the underlay as on a display of our own.
        hud.drawsUnderlay = true
        hud.renderer.setUnderlay(color: Color(r: 1, g: 0, b: 0, a: 1))
        try hud.tick()
        #expect(display.corner == 0xFFFF_0000, "opaque red underlay: \(String(display.corner, radix: 16))")
        #expect(display.regions.last == .some(nil), "input on the whole picture while it covers the program")
        // The app's window: the HUD alone again (the underlay asked for is not drawn).
        hud.drawsUnderlay = false
        hud.renderer.setUnderlay(color: Color(r: 0, g: 1, b: 0, a: 1))
        try hud.tick()
        #expect(display.corner >> 24 == 0)
        #expect(display.regions.last == .some([bezel]))
        hud.hide(animated: false)
        try hud.tick()
        #expect(display.regions.last == .some([]), "hidden: no input taken")
    }
}
