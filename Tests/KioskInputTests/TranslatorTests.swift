// The pure chain: libinput's transformed (panel) coordinates → picture, for all four rotations;
// pointer accumulation and clamping; slot and button ownership; output bindings.
@testable import KioskInput
import KioskSeams
import Testing

/// libinput's `_transformed` for an axis min...max and an output `size` (evdev_device_transform_x:
/// (v − min) · size / (max − min + 1)) — a model of what libinput hands us; the VM test checks
/// the real one.
private func libinputTransformed(_ v: Double, min: Double = 0, max: Double = 4095, size: Int) -> Double {
    (v - min) * Double(size) / (max - min + 1)
}

@Suite struct TranslatorTests {
    /// Panel 800x480; picture 800x480 at 0/180, 480x800 at 90/270.
    private func transform(_ r: Rotation) -> DisplayTransform {
        r == .quarter || r == .threeQuarters
            ? DisplayTransform(rotation: r, width: 480, height: 800) : DisplayTransform(rotation: r, width: 800, height: 480)
    }

    @Test(arguments: [
        // rotation, device (x, y) on a 0..4095 sensor, picture point.
        (Rotation.none, 1024.0, 1024.0, 200.0, 120.0),
        (.none, 2048, 2048, 400, 240),
        (.quarter, 1024, 1024, 120, 600),   // panel (200,120) → (y, H − x), H = 800
        (.half, 1024, 1024, 600, 360),      // (W − x, H − y)
        (.threeQuarters, 1024, 1024, 360, 200),  // (W − y, x), W = 480
        (.quarter, 0, 0, 0, 800),           // panel's top-left is the picture's bottom-left
        (.threeQuarters, 0, 0, 480, 0),     // … and its top-right
    ])
    func touchChainForEachRotation(r: Rotation, dx: Double, dy: Double, px: Double, py: Double) {
        let t = transform(r)
        var tr = InputTranslator(transform: t)
        let panel = (libinputTransformed(dx, size: t.panelWidth), libinputTransformed(dy, size: t.panelHeight))
        #expect(tr.touchDown(slot: 3, panelX: panel.0, panelY: panel.1, device: 1) == .touchDown(slot: 3, x: px, y: py))
        #expect(tr.touchMotion(slot: 3, panelX: panel.0, panelY: panel.1) == .touchMotion(slot: 3, x: px, y: py))
        // Back through the display's own mapping lands on the same panel point.
        let back = t.toPanel(x: px, y: py)
        #expect(abs(back.x - panel.0) < 1e-9 && abs(back.y - panel.1) < 1e-9)
    }

    @Test func everyPanelPointLandsInsideThePicture() {
        for r in Rotation.allCases {
            let t = transform(r)
            let tr = InputTranslator(transform: t)
            for (x, y) in [(0.0, 0.0), (799.8, 0), (0, 479.8), (799.8, 479.8), (400, 240)] {
                let p = tr.picture(panelX: x, panelY: y)
                #expect(p.x >= 0 && p.x <= Double(t.width) && p.y >= 0 && p.y <= Double(t.height), "\(r) (\(x),\(y)) → \(p)")
            }
        }
    }

    @Test func relativePointerAccumulatesAndClamps() {
        var tr = InputTranslator(transform: transform(.none))
        #expect(tr.pointer == (400, 240))
        #expect(tr.pointerRelative(dx: 10, dy: -5) == .pointerMotion(x: 410, y: 235))
        #expect(tr.pointerRelative(dx: 10, dy: -5) == .pointerMotion(x: 420, y: 230))
        #expect(tr.pointerRelative(dx: -5000, dy: 5000) == .pointerMotion(x: 0, y: 479))
        #expect(tr.pointerRelative(dx: 9000, dy: -9000) == .pointerMotion(x: 799, y: 0))
        // A smaller picture pulls the pointer inside it.
        tr.transform = DisplayTransform(rotation: .none, width: 320, height: 240)
        #expect(tr.pointer == (319, 0))
    }

    @Test func absolutePointerIsRotatedLikeTouch() {
        var tr = InputTranslator(transform: transform(.quarter))
        // virtio-tablet 0..32767 → panel via libinput; (16384, 8192) → panel (400, 120).
        let x = libinputTransformed(16384, max: 32767, size: 800), y = libinputTransformed(8192, max: 32767, size: 480)
        #expect(tr.pointerAbsolute(panelX: x, panelY: y) == .pointerMotion(x: 120, y: 400))
        // Relative motion continues from there, in picture pixels.
        #expect(tr.pointerRelative(dx: 1, dy: 1) == .pointerMotion(x: 121, y: 401))
    }

    @Test func leftButtonIsSeatWide() {
        var tr = InputTranslator(transform: transform(.none))
        #expect(tr.leftButton(pressed: true, device: 1) == .pointerButton(pressed: true))
        #expect(tr.leftButton(pressed: true, device: 2) == nil)
        #expect(tr.leftButton(pressed: false, device: 1) == nil)
        #expect(tr.leftButton(pressed: false, device: 2) == .pointerButton(pressed: false))
        #expect(tr.leftButton(pressed: false, device: 2) == nil)
    }

    @Test func removedDeviceLetsGoOfItsTouchesAndButtonOnly() {
        var tr = InputTranslator(transform: transform(.none))
        _ = tr.touchDown(slot: 0, panelX: 1, panelY: 1, device: 1)
        _ = tr.touchDown(slot: 1, panelX: 2, panelY: 2, device: 2)
        _ = tr.touchDown(slot: 2, panelX: 3, panelY: 3, device: 1)
        _ = tr.leftButton(pressed: true, device: 1)
        #expect(tr.deviceRemoved(1) == [.touchCancel(slot: 0), .touchCancel(slot: 2), .touchFrame, .pointerButton(pressed: false)])
        #expect(tr.touches == [1: 2])
        #expect(tr.deviceRemoved(1) == [])
        // Released normally first: nothing left to cancel.
        #expect(tr.touchUp(slot: 1) == .touchUp(slot: 1))
        #expect(tr.deviceRemoved(2) == [])
    }

    @Test func bindingsDecideWhichDevicesCount() throws {
        let b = [try TouchBinding(parsing: "ILITEK=DSI-1"), try TouchBinding(parsing: "/dev/input/event7=HDMI-A-1")]
        // Name substring, case-insensitive.
        #expect(deviceBelongs(name: "ilitek ILITEK-TP", sysname: "event3", wlOutput: nil, bindings: b, ours: "DSI-1"))
        #expect(!deviceBelongs(name: "ilitek ILITEK-TP", sysname: "event3", wlOutput: nil, bindings: b, ours: "HDMI-A-1"))
        // Sysname (given as a node path).
        #expect(deviceBelongs(name: "Goodix", sysname: "event7", wlOutput: nil, bindings: b, ours: "HDMI-A-1"))
        #expect(!deviceBelongs(name: "Goodix", sysname: "event7", wlOutput: nil, bindings: b, ours: "DSI-1"))
        // udev's WL_OUTPUT when no binding names the device; an explicit binding wins over it.
        #expect(!deviceBelongs(name: "Goodix", sysname: "event8", wlOutput: "HDMI-A-1", bindings: b, ours: "DSI-1"))
        #expect(deviceBelongs(name: "Goodix", sysname: "event8", wlOutput: "DSI-1", bindings: b, ours: "DSI-1"))
        #expect(deviceBelongs(name: "ILITEK", sysname: "event3", wlOutput: "HDMI-A-1", bindings: b, ours: "DSI-1"))
        // Unbound: every output; no output of ours: everything.
        #expect(deviceBelongs(name: "Goodix", sysname: "event8", wlOutput: nil, bindings: b, ours: "DSI-1"))
        #expect(deviceBelongs(name: "ILITEK", sysname: "event3", wlOutput: nil, bindings: b, ours: nil))
    }

    @Test(arguments: ["", "=DSI-1", "ILITEK=", "ILITEK"])
    func malformedBindingsAreRefused(text: String) {
        #expect(throws: LibinputError.self) { try TouchBinding(parsing: text) }
        do { _ = try TouchBinding(parsing: text) } catch {
            #expect(error.description.contains("expected DEVICE=OUTPUT"), "\(error)")
        }
    }
}
