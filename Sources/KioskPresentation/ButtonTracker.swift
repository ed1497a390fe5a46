/// A rectangle for hit testing, in screen pixels.
public struct HitRect: Sendable, Equatable {
    public var x: Double, y: Double, width: Double, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// Whether (px, py) lies inside, with the rectangle grown by `slop` on every side.
    public func contains(_ px: Double, _ py: Double, slop: Double = 0) -> Bool {
        px >= x - slop && px < x + width + slop && py >= y - slop && py < y + height + slop
    }
}

/// What the button tracker is told: touches and the mouse (as touch id −1) in screen pixels,
/// and keys.
public enum PointerEvent: Sendable, Equatable {
    case down(id: Int, x: Double, y: Double)
    case move(id: Int, x: Double, y: Double)
    case up(id: Int)
    case cancel(id: Int)
    /// A Linux key code (KEY_*).
    case key(code: Int, pressed: Bool)
}

/// What the button tracker asks for.
public enum ButtonAction: Sendable, Equatable {
    /// Draw the button pressed (true) or normal (false).
    case highlight(Bool)
    /// The button was pressed: touch-up inside, mouse released inside, or an activation key.
    case activate
    /// A tap outside the bezel (only when `ButtonTrackerConfig.tapOutside` is on).
    case tapOutside
}

/// How the button reacts.
public struct ButtonTrackerConfig: Sendable, Equatable {
    /// How far (px) a finger may slide off the button and still count as on it.
    public var slop = 8.0
    /// Keys that press the button: Enter, Space, Escape, keypad Enter by default.
    public var activationKeys: Set<Int> = [28, 57, 1, 96]
    /// Report taps outside the bezel (JGProgressHUD's tapOutside); otherwise they are ignored.
    /// Either way they go nowhere else: the HUD owns the screen.
    public var tapOutside = false

    public init(slop: Double = 8, activationKeys: Set<Int> = [28, 57, 1, 96], tapOutside: Bool = false) {
        self.slop = slop; self.activationKeys = activationKeys; self.tapOutside = tapOutside
    }
}

/// UIKit's touchUpInside for the HUD's one button, as a pure state machine: a touch that goes
/// down on the button highlights it; sliding off (beyond `slop`) un-highlights it and sliding back
/// highlights it again; lifting the finger on the button activates it, anywhere else does not.
/// Only the first finger that went down on the button counts; other fingers are ignored until it
/// lifts. A touch cancel, or the button going away, cancels without activating. The mouse works
/// the same (id −1); an activation key highlights on press and activates on release.
public struct ButtonTracker: Sendable, Equatable {
    public var config: ButtonTrackerConfig
    /// The button (nil when the HUD shows none).
    public private(set) var button: HitRect?
    /// The bezel (for taps outside).
    public private(set) var bezel: HitRect?
    /// The touch that owns the button, if any.
    public private(set) var tracking: Int?
    /// Whether the button is drawn pressed.
    public private(set) var highlighted = false
    private var keyDown: Int?
    private var positions: [Int: (x: Double, y: Double)] = [:]
    private var outsideTouches: Set<Int> = []

    public init(config: ButtonTrackerConfig = ButtonTrackerConfig()) { self.config = config }

    public static func == (a: ButtonTracker, b: ButtonTracker) -> Bool {
        a.config == b.config && a.button == b.button && a.bezel == b.bezel && a.tracking == b.tracking
            && a.highlighted == b.highlighted && a.keyDown == b.keyDown && a.outsideTouches == b.outsideTouches
    }

    /// Sets where the button and bezel are (they move with the motion effect). A button that
    /// disappears cancels a press in progress.
    public mutating func setGeometry(button: HitRect?, bezel: HitRect?) -> [ButtonAction] {
        self.button = button
        self.bezel = bezel
        if button == nil && (tracking != nil || keyDown != nil) { return reset() }
        return []
    }

    /// Feeds one event at time `t` (seconds; kept for symmetry with the other machines).
    public mutating func handle(_ event: PointerEvent, at t: Double = 0) -> [ButtonAction] {
        switch event {
        case let .down(id, x, y):
            guard x.isFinite, y.isFinite else { return [] }
            positions[id] = (x, y)
            if tracking == nil, keyDown == nil, let b = button, b.contains(x, y) {
                tracking = id
                return setHighlight(true)
            }
            if let bz = bezel, !bz.contains(x, y) { outsideTouches.insert(id) }
            return []
        case let .move(id, x, y):
            guard x.isFinite, y.isFinite else { return [] }
            positions[id] = (x, y)
            guard id == tracking, let b = button else { return [] }
            return setHighlight(b.contains(x, y, slop: config.slop))
        case let .up(id):
            defer { positions[id] = nil; outsideTouches.remove(id) }
            if id == tracking {
                tracking = nil
                let inside = highlighted
                var out = setHighlight(false)
                if inside { out.append(.activate) }
                return out
            }
            if outsideTouches.contains(id), config.tapOutside, let p = positions[id], let bz = bezel, !bz.contains(p.x, p.y) {
                return [.tapOutside]
            }
            return []
        case let .cancel(id):
            positions[id] = nil
            outsideTouches.remove(id)
            if id == tracking {
                tracking = nil
                return setHighlight(false)
            }
            return []
        case let .key(code, pressed):
            guard config.activationKeys.contains(code), button != nil else { return [] }
            if pressed {
                guard keyDown == nil, tracking == nil else { return [] }
                keyDown = code
                return setHighlight(true)
            }
            guard keyDown == code else { return [] }
            keyDown = nil
            return setHighlight(false) + [.activate]
        }
    }

    private mutating func setHighlight(_ on: Bool) -> [ButtonAction] {
        guard on != highlighted else { return [] }
        highlighted = on
        return [.highlight(on)]
    }

    private mutating func reset() -> [ButtonAction] {
        tracking = nil
        keyDown = nil
        return setHighlight(false)
    }
}
