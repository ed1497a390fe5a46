// A screen that is not there yet: `--wait-display` at early boot, when the daemon starts before
// the display driver has made its card. The session runs on it from the start — its loop, its
// control socket, requests changing what the HUD will show — with no display to draw on; when
// the display appears, `adopt` puts the real screen behind it and the session hears
// `.displaysChanged`, lays out a HUD for each display with the state the requests left, and
// draws the first frame.

/// A `Screen` with no displays until `adopt` gives it the real one, then that screen.
public final class PendingScreen: Screen {
    /// The real screen, once it has appeared.
    public private(set) var inner: Screen?
    private var loop: EventLoop?
    private var handler: ((ScreenEvent) -> Void)?
    private var closed = false

    public init() {}

    public var displays: [Display] { inner?.displays ?? [] }
    /// True while waiting (unless suspended): the session keeps its state, there is just nothing
    /// to draw on.
    public var isActive: Bool { inner?.isActive ?? !suspended }
    public var isSuspended: Bool { inner?.isSuspended ?? suspended }
    public var hasActiveVT: Bool { inner?.hasActiveVT ?? false }
    private var suspended = false
    public var frameInterval: Seconds { inner?.frameInterval ?? 1.0 / 60 }
    public var summary: String { inner?.summary ?? (lastSummary.map { "display let go (\($0))" } ?? "no display appeared") }
    /// The summary of the last screen let go (`release`).
    private var lastSummary: String?

    // What the screen behind this one offers, once it is there (the defaults until then).

    /// The screen behind this one's innermost; itself while waiting.
    public var innermost: Screen { inner?.innermost ?? self }
    public var isDeviceAlive: Bool { inner?.isDeviceAlive ?? true }
    public var continuedEarlyFrame: Bool { inner?.continuedEarlyFrame ?? false }
    public var frameCache: FrameCacheSource? { inner?.frameCache }
    public var carryOver: ScreenCarryOverSource? { inner?.carryOver }

    public func attach(to loop: EventLoop, _ handler: @escaping (ScreenEvent) -> Void) throws {
        self.loop = loop
        self.handler = handler
        try inner?.attach(to: loop, handler)
    }

    /// The display has appeared: `screen` stands behind this one from now on. When attached,
    /// `screen` is attached to the same loop and the owner hears `.displaysChanged` (the
    /// session then draws its first frame). A screen adopted after `close` is closed at once.
    public func adopt(_ screen: Screen) throws {
        guard !closed else { screen.close(retain: false); return }
        inner = screen
        guard let loop, let handler else { return }
        try screen.attach(to: loop, handler)
        if suspended { screen.suspend() }   // another program has the screen (Plymouth's deactivate)
        handler(.displaysChanged)
    }

    /// Lets the display go (a daemon with nothing to show): the screen behind this one is closed
    /// (`retain`: its last frame left, else what was there before it comes back), and, when
    /// attached, the owner hears `.displaysChanged` (the session keeps its HUDs' state for the
    /// next display). A later `adopt` brings one back.
    public func release(retain: Bool) {
        guard let s = inner else { return }
        inner = nil
        s.close(retain: retain)
        lastSummary = s.summary
        handler?(.displaysChanged)
    }

    /// Suspended before the display appeared: it is suspended as soon as it does.
    public func suspend() {
        if let inner { inner.suspend(); return }
        guard !suspended else { return }
        suspended = true
        handler?(.deactivated)
    }

    public func resume() {
        if let inner { inner.resume(); return }
        guard suspended else { return }
        suspended = false
        handler?(.activated)
    }

    public func close(retain: Bool) {
        closed = true
        inner?.close(retain: retain)
    }
}
