import KioskSeams
import KioskSys

// Waiting for a screen that does not exist yet (`--wait-display SECONDS`: options and board files
// say "display" for it, the glossary's one exception): at early boot the
// daemon can start before the display driver has made its card (a module udev's coldplug loads,
// a panel that probes late). Rather than fail, or be started later by a udev rule (which, under
// QEMU's slow udev, put the first frame at ~85 % of the boot), it runs its loop and control
// socket on a `PendingScreen` and listens on the kernel's uevent socket (NETLINK_KOBJECT_UEVENT,
// the kernel's own broadcast: no udevd needed). Each batch of drm uevents ("add" of a card or a
// connector, a card's "change"/HOTPLUG) makes one more attempt to open the display, and so does
// an overrun of the socket's buffer (ENOBUFS: uevents were lost, maybe the card's — udev's coldplug
// trigger replays every device at boot); the first attempt that succeeds is adopted and drawn.
// Nothing polls on a timer: between uevents the loop sleeps.
// After the deadline the wait gives up (one log line) and the caller falls back as without it.

/// Watches kernel uevents until `attempt` opens a screen, or the deadline passes.
public final class ScreenWait {
    /// What an attempt found: the display, or why there is none yet.
    public enum Outcome {
        case opened(Screen)
        case notYet(String)
    }

    public let kernel: Kernel
    public let loop: EventLoop
    public let seconds: Double
    private let attempt: () -> Outcome
    private var opened: (Screen) -> Void
    private var gaveUp: (String) -> Void
    private var ueventFD: Int32 = -1
    private var tokens: [LoopToken] = []
    /// Why the last attempt found no display.
    public private(set) var lastReason: String
    /// Attempts made (the first one included) and drm uevents seen, for the log.
    public private(set) var attempts = 0
    public private(set) var drmUevents = 0
    /// Times the uevent socket's buffer overran (ENOBUFS: uevents lost), each one more attempt.
    public private(set) var lostUevents = 0
    /// True once a display was opened or the wait gave up.
    public private(set) var finished = false

    /// `attempt` opens the display (or says why it cannot yet); `opened` takes the display that
    /// appeared; `gaveUp` hears the last reason when `seconds` pass without one. `reason`: why
    /// the first attempt (made by the caller before waiting) failed.
    public init(kernel: Kernel, loop: EventLoop, seconds: Double, reason: String, attempt: @escaping () -> Outcome,
                opened: @escaping (Screen) -> Void, gaveUp: @escaping (String) -> Void) {
        self.kernel = kernel; self.loop = loop; self.seconds = seconds
        self.attempt = attempt; self.opened = opened; self.gaveUp = gaveUp
        lastReason = reason
        attempts = 1
    }

    /// Subscribes to uevents, arms the deadline, and tries once more (a card that appeared
    /// between the caller's attempt and the subscription sends no uevent we would see).
    public func start() throws(SysError) {
        ueventFD = try kernel.ueventDescriptor()
        tokens.append(loop.watch(ueventFD, .readable) { [unowned self] _ in self.readUevents() })
        tokens.append(loop.schedule(after: seconds) { [unowned self] in self.timeUp() })
        loop.execute { [weak self] in self?.tryOpen() }
    }

    private func readUevents() {
        var drm = false
        drainUevents(ueventFD, kernel: kernel, while: { !finished }) { r in
            switch r {
            case .lost: drm = true; lostUevents += 1   // one more look, as for a drm uevent
            case let .uevent(u): if u.isDRMDevice { drm = true; drmUevents += 1 }
            }
        }
        if drm { tryOpen() }
    }

    private func tryOpen() {
        guard !finished else { return }
        attempts += 1
        switch attempt() {
        case let .opened(screen):
            let take = opened
            finish()
            take(screen)
        case let .notYet(why):
            lastReason = why
        }
    }

    private func timeUp() {
        guard !finished else { return }
        let tell = gaveUp
        finish()
        tell(lastReason)
    }

    /// Stops waiting (the descriptor closed, the deadline disarmed); nothing more is called.
    public func cancel() { finish() }

    private func finish() {
        finished = true
        for t in tokens { loop.cancel(t) }
        tokens = []
        if ueventFD >= 0 { kernel.close(ueventFD); ueventFD = -1 }
        opened = { _ in }
        gaveUp = { _ in }
    }
}

extension Uevent {
    /// Any uevent of the drm subsystem but a removal: a card, a connector or a render node
    /// appeared or changed — worth one more look for a display.
    public var isDRMDevice: Bool { properties["SUBSYSTEM"] == "drm" && action != "remove" }
}

/// The former name of `ScreenWait` (what it waits for is a screen, as the glossary says).
@available(*, deprecated, renamed: "ScreenWait")
public typealias DisplayWait = ScreenWait
