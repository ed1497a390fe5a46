// KioskSeams — the seams between the HUD and the hardware (the module was called KioskDevices
// before 0.2.0).
//
// Protocols only: a display that shows a frame drawn in ordinary memory and is told which
// rectangles changed, an input source of touch / pointer / key events already in screen
// coordinates, a motion source of acceleration samples, and a clock. The Linux backends
// (DRM/KMS, libinput, IIO sysfs; KioskSys's SystemClock) implement them; KioskTestDoubles
// ships the test doubles (offscreen display, scripted input and motion, manual clock), so
// everything above this layer is tested with no display, touch screen or sensor.
import KioskRaster

/// Seconds on a monotonic clock.
public typealias Seconds = Double

/// A source of monotonic time.
public protocol Clock: AnyObject {
    /// Seconds since an arbitrary fixed point; never goes backwards.
    var now: Seconds { get }
}

/// A quarter-turn rotation of the panel relative to the picture, clockwise.
public enum Rotation: Int, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    case none = 0, quarter = 90, half = 180, threeQuarters = 270

    /// From degrees (0, 90, 180, 270; negative or ≥ 360 are reduced); nil for other angles.
    public init?(degrees: Int) {
        let d = ((degrees % 360) + 360) % 360
        self.init(rawValue: d)
    }

    public var description: String { "\(rawValue)°" }
}

/// Maps between the picture (what the HUD draws, `width`×`height`) and the panel's own pixel
/// grid, for a rotation. The display uses `toPanel` when copying; input uses `toPicture` so a
/// touch lands on what is drawn under the finger.
public struct DisplayTransform: Sendable, Equatable {
    public var rotation: Rotation
    /// Picture size (logical, after rotation).
    public var width: Int, height: Int

    public init(rotation: Rotation, width: Int, height: Int) {
        self.rotation = rotation; self.width = width; self.height = height
    }

    /// Panel size in pixels.
    public var panelWidth: Int { rotation == .quarter || rotation == .threeQuarters ? height : width }
    public var panelHeight: Int { rotation == .quarter || rotation == .threeQuarters ? width : height }

    /// A picture point (continuous coordinates) on the panel.
    public func toPanel(x: Double, y: Double) -> (x: Double, y: Double) {
        let w = Double(width), h = Double(height)
        switch rotation {
        case .none: return (x, y)
        case .quarter: return (h - y, x)
        case .half: return (w - x, h - y)
        case .threeQuarters: return (y, w - x)
        }
    }

    /// A panel point (continuous coordinates) in the picture.
    public func toPicture(x: Double, y: Double) -> (x: Double, y: Double) {
        let w = Double(width), h = Double(height)
        switch rotation {
        case .none: return (x, y)
        case .quarter: return (y, h - x)
        case .half: return (w - x, h - y)
        case .threeQuarters: return (w - y, x)
        }
    }

    /// The panel rectangle covered by a picture rectangle.
    public func toPanel(_ r: IntRect) -> IntRect {
        let a = toPanel(x: Double(r.minX), y: Double(r.minY)), b = toPanel(x: Double(r.maxX), y: Double(r.maxY))
        let x0 = Int(min(a.x, b.x)), y0 = Int(min(a.y, b.y))
        return IntRect(x: x0, y: y0, width: Int(max(a.x, b.x)) - x0, height: Int(max(a.y, b.y)) - y0)
    }
}

/// One picture on a screen: the HUD draws a whole frame into ordinary memory (a shadow buffer)
/// and presents it with the rectangles that changed; the display copies only those. A DRM
/// display may light several connectors (clones with the same mode share its buffers).
public protocol Display: AnyObject {
    /// Picture size (after rotation) in pixels.
    var width: Int { get }
    var height: Int { get }
    /// The format the shadow buffer should have (the copy converts if the scanout differs).
    var preferredFormat: PixelFormat { get }
    /// How the picture maps onto the panel, for input.
    var transform: DisplayTransform { get }
    /// Shows `frame`; only `damage` changed since the last present (`.whole` on the first).
    func present(_ frame: Surface, damage: Damage) throws
    /// The connector name(s), e.g. "Virtual-1" or "HDMI-A-1+HDMI-A-2", "fb0", "offscreen".
    var name: String { get }
    /// The device scale the panel's size suggests (Plymouth's rule), or the override.
    var scale: Double { get }
    /// CLOCK_MONOTONIC seconds when the first frame went on screen (nil before).
    var firstFrameTime: Double? { get }
    /// Whether the picture is shown over another program's (a compositor's overlay layer): what
    /// the HUD does not cover — the underlay — is transparent, and the format keeps alpha.
    var isOverlay: Bool { get }
    /// Where the HUD takes input on a display over another program's picture (`isOverlay`), in
    /// picture pixels: the bezel's box when nothing dims the program, `[]` while the HUD is
    /// hidden (every touch reaches the program), nil for the whole display. Called before a
    /// present when it changed; effective from that present on. Default: nothing (a display of
    /// its own takes every touch).
    func setInputRegion(_ region: [IntRect]?)
}

extension Display {
    public var name: String { "display" }
    public var scale: Double { 1 }
    public var firstFrameTime: Double? { nil }
    public var isOverlay: Bool { false }
    public func setInputRegion(_ region: [IntRect]?) {}
}

/// A touch, pointer or key event, in picture coordinates (after rotation and calibration).
public enum InputEvent: Sendable, Equatable {
    case touchDown(slot: Int, x: Double, y: Double)
    case touchMotion(slot: Int, x: Double, y: Double)
    case touchUp(slot: Int)
    case touchCancel(slot: Int)
    /// The end of one hardware frame of touch events.
    case touchFrame
    case pointerMotion(x: Double, y: Double)
    case pointerButton(pressed: Bool)
    /// A Linux key code (`KEY_*` from input-event-codes.h).
    case key(code: Int, pressed: Bool)
}

/// An input event with the time it happened.
public struct TimedInputEvent: Sendable, Equatable {
    public var time: Seconds
    public var event: InputEvent
    public init(time: Seconds, event: InputEvent) { self.time = time; self.event = event }
}

/// Something that delivers input events.
public protocol InputSource: AnyObject {
    /// Every event that has happened up to `time`, in order; each is returned once.
    func events(until time: Seconds) -> [TimedInputEvent]
    /// Calls `ready` on `loop` whenever events may be waiting (a descriptor became readable, a
    /// scripted event came due), until `detach`.
    func attach(to loop: EventLoop, _ ready: @escaping () -> Void) throws
    /// Stops calling `ready`.
    func detach()
    /// The picture the events are mapped onto changed (hotplug, another mode).
    func follow(_ transform: DisplayTransform)
}

extension InputSource {
    public func follow(_ transform: DisplayTransform) {}
}

/// One accelerometer reading in m/s², in the panel's frame after the mount matrix.
public struct AccelerationSample: Sendable, Equatable {
    public var time: Seconds
    public var x: Double, y: Double, z: Double
    public init(time: Seconds, x: Double, y: Double, z: Double) { self.time = time; self.x = x; self.y = y; self.z = z }
}

/// Something that delivers acceleration samples.
public protocol MotionSource: AnyObject {
    /// Every sample taken up to `time`, in order; each is returned once.
    func samples(until time: Seconds) -> [AccelerationSample]
    /// Whether fresh samples are arriving at `time` (a lost, absent or stalled sensor is not):
    /// the tilt eases back to centre when they stop.
    func isDelivering(at time: Seconds) -> Bool
    /// Calls `ready` on `loop` whenever samples may be waiting, until `detach`.
    func attach(to loop: EventLoop, _ ready: @escaping () -> Void) throws
    /// Stops calling `ready`.
    func detach()
}

extension MotionSource {
    public func isDelivering(at time: Seconds) -> Bool { true }
}
