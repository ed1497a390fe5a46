// A screen: everything one display backend (a DRM card, an fbdev device, the offscreen stand-in)
// shows, as one or more displays, each a picture the HUD draws. The backend takes part in the
// event loop (flip events, hotplug, VT switches) and tells its owner what changed.

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
}

extension Screen {
    public var frameInterval: Seconds { 1.0 / 60 }
    public var hasActiveVT: Bool { false }
}
