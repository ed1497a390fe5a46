// What a screen offers where it applies, beyond showing: the frame cache (its first picture kept
// for the next start, shown by the early frame before the program runs) and the carry-over to the
// next program image in the same process. `Screen.frameCache` and `Screen.carryOver` return them,
// nil for a backend without them (fbdev, offscreen, a compositor's surface): a caller asks the
// screen for the capability, never the screen's type. The records they write are the backend's
// own (the frame cache's file format, a DRM card's carry-over): the values here are the words the
// session and the commands use to ask for them.

/// Where a command line's first frame is kept (the frame cache's file and the arguments it
/// stores; `FrameCache.locate` finds it).
public struct FrameCacheLocation: Equatable, Sendable {
    /// The file: <cache directory>/frame-<key>.bin.
    public var path: String
    /// The arguments that decide the picture (argv[1] up to "--"), as the file stores them.
    public var arguments: [String]
    /// The arguments' key (the file name's).
    public var key: UInt64

    public init(path: String, arguments: [String], key: UInt64) {
        self.path = path; self.arguments = arguments; self.key = key
    }
}

/// What a frame cache write did.
public enum FrameCacheOutcome: Equatable, Sendable {
    /// Written (new, or the picture changed).
    case written
    /// The file already holds this picture.
    case unchanged
    /// Not cached (why).
    case skipped(String)
}

/// The frame cache's side of a screen (`Screen.frameCache`): its first display's picture, as the
/// scanout holds it, written for the next start with these arguments.
public protocol FrameCacheSource: AnyObject {
    /// The hash of the cached picture this screen continued as its early frame
    /// (`Screen.continuedEarlyFrame`); nil when it continued none.
    var earlyFrameHash: UInt64? { get }
    /// Writes the first display's last presented picture (call right after the first frame) at
    /// `location`, unless `earlyFrameHash` says the file holds it already. `files`: what the
    /// picture was drawn from (a change to any of them means the normal start); `filesIfPresent`:
    /// more of them, counted only when they exist (asked through the screen's own system calls).
    func saveFrame(at location: FrameCacheLocation, files: [String], filesIfPresent: [String]) -> FrameCacheOutcome
}

/// Why the screen cannot be carried over to the next program image now.
public struct CarryOverRefusal: Error, CustomStringConvertible, Sendable {
    public var description: String
    /// True when it may be possible a moment later (a flip in flight).
    public var transient: Bool
    public init(_ description: String, transient: Bool = false) { self.description = description; self.transient = transient }
}

/// What the next program image needs to carry the screen over (the backend's own record).
public protocol ScreenCarryOverRecord: Sendable {
    /// The descriptor the screen is kept by across execve (without FD_CLOEXEC).
    var descriptor: Int32 { get }
}

/// The carry-over of a screen to the next program image in the same process (`Screen.carryOver`):
/// execve keeps the descriptor, and with it what the device shows, so the next image continues
/// the picture with no modeset and no black frame.
public protocol ScreenCarryOverSource: AnyObject {
    /// Why the screen cannot be carried over now (not ours, more than one display, nothing on
    /// screen yet); nil when it can.
    var carryOverRefusal: CarryOverRefusal? { get }
    /// The record, for the execve() that follows at once: what is in flight is let land first
    /// (up to `seconds`). Throws `carryOverRefusal`'s reason. If the new image never comes, the
    /// screen goes on as before.
    func carryOverRecord(landingWithin seconds: Double) throws(CarryOverRefusal) -> any ScreenCarryOverRecord
}

extension ScreenCarryOverSource {
    /// `carryOverRecord(landingWithin:)` with the usual half a second.
    public func carryOverRecord() throws(CarryOverRefusal) -> any ScreenCarryOverRecord { try carryOverRecord(landingWithin: 0.5) }

    /// `carryOverRefusal`'s earlier name.
    @available(*, deprecated, renamed: "carryOverRefusal")
    public var handoffRefusal: CarryOverRefusal? { carryOverRefusal }
    /// `carryOverRecord(landingWithin:)`'s earlier name.
    @available(*, deprecated, renamed: "carryOverRecord(landingWithin:)")
    public func handOff(landingWithin seconds: Double = 0.5) throws(CarryOverRefusal) -> any ScreenCarryOverRecord {
        try carryOverRecord(landingWithin: seconds)
    }
}

// The earlier names: "handoff" read as the handover (the screen given to another program); a
// screen kept by the same process across execve is carried over, as the daemon is.

/// `CarryOverRefusal`'s earlier name.
@available(*, deprecated, renamed: "CarryOverRefusal")
public typealias HandoffRefusal = CarryOverRefusal
/// `ScreenCarryOverRecord`'s earlier name.
@available(*, deprecated, renamed: "ScreenCarryOverRecord")
public typealias ScreenHandoffRecord = ScreenCarryOverRecord
/// `ScreenCarryOverSource`'s earlier name.
@available(*, deprecated, renamed: "ScreenCarryOverSource")
public typealias ScreenHandoffSource = ScreenCarryOverSource
