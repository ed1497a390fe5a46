import KioskSeams

/// The pure half of `LibinputSource`: libinput's already-decoded values in, `InputEvent`s in
/// picture coordinates out. Keeps the pointer position (relative motion accumulates and is
/// clamped to the picture) and which device holds which touch slot and the left button, so a
/// device that vanishes mid-touch never leaves a finger down.
struct InputTranslator {
    /// Panel → picture (rotation). Changing it keeps the pointer inside the new picture.
    var transform: DisplayTransform {
        didSet { pointer = clamp(pointer) }
    }
    /// The pointer in picture coordinates (starts in the middle).
    private(set) var pointer: (x: Double, y: Double)
    /// Seat slot → the device that put the finger down.
    private(set) var touches: [Int: Int] = [:]
    /// Devices holding the left button.
    private(set) var buttonHeldBy: Set<Int> = []

    init(transform: DisplayTransform) {
        self.transform = transform
        pointer = (Double(transform.width) / 2, Double(transform.height) / 2)
    }

    /// A panel point (libinput's `_transformed` coordinates for the panel size) in the picture.
    func picture(panelX: Double, panelY: Double) -> (x: Double, y: Double) {
        transform.toPicture(x: panelX, y: panelY)
    }

    mutating func touchDown(slot: Int, panelX: Double, panelY: Double, device: Int) -> InputEvent {
        touches[slot] = device
        let p = picture(panelX: panelX, panelY: panelY)
        return .touchDown(slot: slot, x: p.x, y: p.y)
    }

    func touchMotion(slot: Int, panelX: Double, panelY: Double) -> InputEvent {
        let p = picture(panelX: panelX, panelY: panelY)
        return .touchMotion(slot: slot, x: p.x, y: p.y)
    }

    mutating func touchUp(slot: Int) -> InputEvent {
        touches[slot] = nil
        return .touchUp(slot: slot)
    }

    mutating func touchCancel(slot: Int) -> InputEvent {
        touches[slot] = nil
        return .touchCancel(slot: slot)
    }

    /// An absolute pointer position on the panel (virtio-tablet, a touch screen run as a mouse).
    mutating func pointerAbsolute(panelX: Double, panelY: Double) -> InputEvent {
        pointer = clamp(picture(panelX: panelX, panelY: panelY))
        return .pointerMotion(x: pointer.x, y: pointer.y)
    }

    /// Relative motion (a mouse), in picture pixels: accumulated, clamped to the picture.
    mutating func pointerRelative(dx: Double, dy: Double) -> InputEvent {
        pointer = clamp((pointer.x + dx, pointer.y + dy))
        return .pointerMotion(x: pointer.x, y: pointer.y)
    }

    /// The left button; nil when the state did not change (a second device pressing it too).
    mutating func leftButton(pressed: Bool, device: Int) -> InputEvent? {
        let wasHeld = !buttonHeldBy.isEmpty
        if pressed { buttonHeldBy.insert(device) } else { buttonHeldBy.remove(device) }
        let held = !buttonHeldBy.isEmpty
        return held == wasHeld ? nil : .pointerButton(pressed: held)
    }

    /// A device went away: whatever it still held is let go — touches cancelled (and a frame),
    /// the button released. libinput normally releases them itself before telling us; this is
    /// for when it did not.
    mutating func deviceRemoved(_ device: Int) -> [InputEvent] {
        var out: [InputEvent] = []
        for slot in touches.filter({ $0.value == device }).keys.sorted() { out.append(touchCancel(slot: slot)) }
        if !out.isEmpty { out.append(.touchFrame) }
        if buttonHeldBy.contains(device), let e = leftButton(pressed: false, device: device) { out.append(e) }
        return out
    }

    private func clamp(_ p: (x: Double, y: Double)) -> (x: Double, y: Double) {
        let maxX = Double(max(transform.width - 1, 0)), maxY = Double(max(transform.height - 1, 0))
        return (min(max(p.x, 0), maxX), min(max(p.y, 0), maxY))
    }
}

/// Whether a device's events are for the connector `ours`: an explicit binding decides first, then
/// the device's `WL_OUTPUT` udev property; unbound devices (and any device when `ours` is nil)
/// belong to every connector.
func deviceBelongs(name: String, sysname: String, wlOutput: String?, bindings: [TouchBinding], ours: String?) -> Bool {
    guard let ours else { return true }
    if let b = bindings.first(where: { $0.device.matches(name: name, sysname: sysname) }) { return b.connector == ours }
    if let wl = wlOutput, !wl.isEmpty { return wl == ours }
    return true
}
