import KioskDevices
import KioskRaster

/// What happened while a screen waited.
public struct ScreenEvents: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// SIGINT, SIGTERM or SIGHUP arrived: time to quit.
    public static let quit = ScreenEvents(rawValue: 1)
    /// Outputs came or went (hotplug): `outputs` changed.
    public static let outputsChanged = ScreenEvents(rawValue: 2)
    /// The display is ours again (VT switched back, DRM master regained); it was redrawn.
    public static let activated = ScreenEvents(rawValue: 4)
    /// Another program has the display now (VT switched away, master lost): stop drawing.
    public static let deactivated = ScreenEvents(rawValue: 8)
    /// At least one page flip completed.
    public static let flipped = ScreenEvents(rawValue: 16)
    /// One of the `watchedDescriptors` is readable (e.g. libinput has events to dispatch).
    public static let input = ScreenEvents(rawValue: 32)
}

/// One picture on the screen: a `Display` with its own size, rotation and suggested scale. A DRM
/// output may drive several connectors (clones with the same mode share its buffers).
public protocol ScreenOutput: Display {
    /// The connector name(s), e.g. "Virtual-1" or "HDMI-A-1+HDMI-A-2", or "fb0".
    var name: String { get }
    /// The device scale the panel's size suggests (Plymouth's rule), or the override.
    var scale: Double { get }
    /// CLOCK_MONOTONIC seconds when the first frame went on screen (nil before).
    var firstFrameTime: Double? { get }
}

/// What the show loop needs from a display backend (DRM/KMS, fbdev).
public protocol Screen: AnyObject {
    /// The outputs showing now.
    var outputs: [ScreenOutput] { get }
    /// False while another program has the display (VT switched away, DRM master lost): don't draw.
    var isActive: Bool { get }
    /// Waits up to `timeout` seconds (nil: until something happens) for flips, signals, hotplug
    /// and VT events, handling them. Returns early, when drawing is flip-paced, once every
    /// pending flip has completed and less than one frame interval is left.
    func wait(timeout: Double?) throws -> ScreenEvents
    /// More descriptors for `wait` to poll with its own (e.g. libinput's): when one is readable,
    /// `wait` returns `.input` at once without reading it. Polled by `wait` only (not while a
    /// present waits for a flip), so a readable one never makes a busy loop elsewhere.
    var watchedDescriptors: [Int32] { get set }
    /// Stops: `retain` leaves the last frame on screen, else what was there before comes back.
    func close(retain: Bool)
    /// Counters for the log, e.g. "flips=120 presents=121".
    var summary: String { get }
}

/// Errors that are not a single failed system call.
public enum DisplayError: Error, CustomStringConvertible, Equatable {
    case noCard(String)
    case noOutput(String)
    case unsupported(String)

    public var description: String {
        switch self {
        case let .noCard(s), let .noOutput(s), let .unsupported(s): s
        }
    }
}
