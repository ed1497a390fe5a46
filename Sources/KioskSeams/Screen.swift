import KioskRaster

// A screen: everything one display backend (a DRM card, an fbdev device, the offscreen stand-in)
// shows, as one or more displays, each a picture the HUD draws. The backend takes part in the
// event loop (flip events, hotplug, VT switches) and tells its owner what changed.
//
// The contract is whole: what the session and the commands need of a screen — the displays and
// their presents, suspend and resume, the carry-over to the next program image, the virtual
// terminal passed from one screen to the next, the early frame and the frame cache, whether the
// device is still there — is a requirement here, with a default answer for a backend that has no
// such thing. A new backend joins by conforming to `Screen` alone and takes the defaults it has
// nothing to say to; a screen that stands in front of another (`PendingScreen`, the display
// switch) forwards to the one behind it. Nobody above the backends casts a screen to its type.

/// What happened on a screen, reported to the handler given to `Screen.attach`.
public enum ScreenEvent: Sendable, Hashable {
    /// Displays came or went (hotplug): `displays` changed.
    case displaysChanged
    /// The screen is ours again (VT switched back, DRM master regained); it was redrawn.
    case activated
    /// Another program has the screen now (VT switched away, master lost): drawing waits.
    case deactivated
    /// Every frame presented so far is on screen (its page flip completed): a present now goes
    /// out at once. A frame loop that paces by vblank draws its next frame on this.
    case frameDone
}

/// A display backend: its displays, whether it is ours to draw on, and how it leaves.
public protocol Screen: AnyObject {
    /// The displays showing now, each with its own picture size and rotation.
    var displays: [Display] { get }
    /// False while another program has the screen (VT switched away, DRM master lost): a
    /// present is remembered and shown when the screen is ours again.
    var isActive: Bool { get }
    /// The shortest frame interval of its displays (1/60 s when unknown).
    var frameInterval: Seconds { get }
    /// Starts taking part in `loop` (flip events, hotplug, VT switch signals); `handler` hears
    /// what changed. Until attached, presents still reach the screen, but page flips do not
    /// complete and nothing else is followed.
    func attach(to loop: EventLoop, _ handler: @escaping (ScreenEvent) -> Void) throws
    /// Stops: `retain` leaves the last frame on screen, else what was there before comes back.
    /// Safe to call twice.
    func close(retain: Bool)
    /// Counters for the log, e.g. "flips=120 presents=121".
    var summary: String { get }
    /// Lets another program have the screen while the owner keeps its state (Plymouth's
    /// "deactivate"): nothing is drawn, DRM master is dropped, the picture is left as it is,
    /// and a VT switch back does not take the screen again; the handler hears `deactivated`.
    /// Nothing happens when already suspended.
    func suspend()
    /// Takes the screen back after `suspend` (DRM master again, the last frame redrawn; the
    /// handler hears `activated`), or as soon as it can be taken (another program still master,
    /// the VT still switched away).
    func resume()
    /// Whether `suspend` holds the screen back.
    var isSuspended: Bool { get }
    /// Whether the screen's virtual terminal is the one in the foreground (Plymouth's
    /// "has active VT"): false without VT switching (fbdev or DRM without a VT, offscreen).
    var hasActiveVT: Bool { get }
    /// The screen that draws: for a screen in front of another (one waiting for its display, one
    /// following the display from device to device), the innermost one behind it now; else
    /// itself. Default: itself.
    var innermost: Screen { get }
    /// Whether the device is still there (false once it was unplugged or unregistered: its calls
    /// fail with ENODEV). Default: true.
    var isDeviceAlive: Bool { get }
    /// Closes a screen that is left for another (the display switch), whose device may have gone
    /// away: `close(retain: false)`, except that when the device is gone nothing in flight is
    /// waited for (it never completes). Default: `close(retain: false)`.
    func abandon()
    /// This screen's hold on its virtual terminal (VT_PROCESS mode, the mode to put back at the
    /// end); nil without VT switching. Default: nil.
    var vtHold: VirtualTerminalHold? { get }
    /// Takes `hold` from the screen that showed before this one on the same VT (the display
    /// switch): its own hold is closed without putting the VT's mode back, as the mode to put back
    /// at the end is the one `hold` saved (the console's). True when taken; false when this screen
    /// has no hold to replace, or cannot use this one (it keeps its own). Default: false.
    func adoptVT(_ hold: VirtualTerminalHold) -> Bool
    /// Forgets its hold without putting the VT's mode back or closing it: the screen after it
    /// took the hold over (`adoptVT`). Default: nothing.
    func forgetVT()
    /// Whether the first frame on screen is the frame cache's picture (the early frame, shown
    /// before the program ran), continued by this screen. Default: false.
    var continuedEarlyFrame: Bool { get }
    /// The frame cache's side of this screen, where it applies (a DRM card); nil without one.
    /// Default: nil.
    var frameCache: FrameCacheSource? { get }
    /// The carry-over to the next program image in the same process, where it applies (a DRM card,
    /// whose master and picture stay with the descriptor across execve); nil without one.
    /// Default: nil.
    var carryOver: ScreenCarryOverSource? { get }
    /// The picture as presented, for a screen that keeps one in ordinary memory (the offscreen
    /// screen: `--offscreen DIR` writes it as first.png and last.png); nil for a device, whose
    /// picture is the panel's. Default: nil.
    var presentedPicture: Bitmap? { get }
    /// Input the screen delivers itself, in the first display's picture coordinates — a
    /// compositor's seat: its pointer and touch on the HUD's own surfaces — used in place of the
    /// input devices (which the compositor owns); nil: the devices'. Default: nil (for a screen in front of
    /// another, the one behind it's).
    var input: InputSource? { get }
    /// Other programs' windows as the screen can tell them (a compositor's foreign toplevels);
    /// nil where it cannot. Default: nil (for a screen in front of another, the one behind
    /// it's).
    var windows: WindowWatchSource? { get }
    /// Which backend draws, as `status` names it: "drm", "fbdev", "wayland", "offscreen".
    /// Default: "offscreen"; a screen in front of another answers for the one behind it.
    var backend: ScreenBackend { get }
}

/// Other programs' windows on a screen shared with them (`Screen.windows`): what keeps the splash
/// over a compositor's start until the kiosk app's window is there.
public protocol WindowWatchSource: AnyObject {
    /// Calls `handler` with the app id of each window as it is mapped — those already there
    /// first — until the screen closes. Throws when the compositor does not tell its windows.
    func watchWindows(_ handler: @escaping (String) -> Void) throws
}

/// Which kind of backend draws a screen (`Screen.backend`; `status`'s `screen`).
public enum ScreenBackend: String, Sendable, CaseIterable {
    /// A DRM/KMS card.
    case drm
    /// A framebuffer device (/dev/fbN).
    case fbdev
    /// A Wayland compositor's overlay layer.
    case wayland
    /// No device: ordinary memory (`render`, `--offscreen`, tests).
    case offscreen
}

extension Screen {
    public var frameInterval: Seconds { 1.0 / 60 }
    public var hasActiveVT: Bool { false }
    public var innermost: Screen { self }
    public var isDeviceAlive: Bool { true }
    public func abandon() { close(retain: false) }
    public var vtHold: VirtualTerminalHold? { nil }
    public func adoptVT(_ hold: VirtualTerminalHold) -> Bool { false }
    public func forgetVT() {}
    public var continuedEarlyFrame: Bool { false }
    public var frameCache: FrameCacheSource? { nil }
    public var carryOver: ScreenCarryOverSource? { nil }
    public var presentedPicture: Bitmap? { nil }
    public var input: InputSource? { innermost === self ? nil : innermost.input }
    public var windows: WindowWatchSource? { innermost === self ? nil : innermost.windows }
    public var backend: ScreenBackend { innermost === self ? .offscreen : innermost.backend }

    /// `continuedEarlyFrame`'s earlier name.
    @available(*, deprecated, renamed: "continuedEarlyFrame")
    public var tookOverEarlyFrame: Bool { continuedEarlyFrame }
    /// `carryOver`'s earlier name.
    @available(*, deprecated, renamed: "carryOver")
    public var handoff: ScreenCarryOverSource? { carryOver }
}

/// A screen's hold on its virtual terminal: the active VT in VT_PROCESS mode (the kernel asks
/// before switching away and tells when switching back) and the mode to put back when the hold
/// ends. Passed from a screen that is left to the one that follows it on the same VT (the
/// display switch, `Screen.adoptVT`), so that the console's own mode is what comes back at the end.
public protocol VirtualTerminalHold: AnyObject {
    /// The VT's number (/dev/ttyN).
    var number: Int { get }
}
