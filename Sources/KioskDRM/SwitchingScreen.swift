import KioskSeams
import KioskRaster
import KioskSys

// Following the display from the firmware's framebuffer to the board's own driver (#19).
//
// At boot the firmware leaves a framebuffer behind (efifb or simplefb as /dev/fb0, or simpledrm
// as a card) and the real driver (vc4, bochs, i915, …) loads seconds later, takes the hardware
// over and unregisters the firmware's device: what was drawn there is no longer scanned out.
// `SwitchingScreen` starts on what exists (a DRM card with dumb buffers, simpledrm counts, else
// an fbdev), watches the kernel's uevents (NETLINK_KOBJECT_UEVENT, drm and graphics: no udevd
// needed in early boot) and, when the device drawn on goes away or a better one appears
// (`DisplaySwitchRule`), opens the new one and tells the session `.displaysChanged`: the session
// makes the new displays' HUDs carry the old ones' state (shown, progress, the spinner's clock),
// and its first present sets our mode on the new device, whatever its fbdev emulation or console
// set before. Only once that present succeeded is the old device released; when it fails, the
// old one (if still there) is shown again and the new one is tried again later (0.25 s, doubling,
// 5 times; a uevent for it starts over); a new card another program is DRM master of (a console
// helper, a splash) is asked for every 0.1 s for as long as that lasts (a few syscalls each
// time: no event says that a master let go). A device is gone when its calls fail with ENODEV
// (an unplugged card, an unregistered fbdev: each fbdev present asks first, as the memory behind
// the old mapping is the new driver's); a uevent makes us ask, a present that fails so is
// answered the same way — no polling on a timer. One log line per switch gives its timings:
// the old device's last frame → the new device's first frame (the time the HUD was off screen
// when the old one vanished first), the open and the first present, and when that first frame
// was on screen (at_s: CLOCK_MONOTONIC, as first-frame's; within a few ms of the kernel log's clock).

/// One switch, for the log and the tests.
public struct DisplaySwitchRecord: Sendable, Equatable {
    public var from: ScreenDevice?
    public var to: ScreenDevice
    public var why: String
    /// The old device's last frame → the new device's first frame (nil: no frame before).
    public var gap: Double?
    /// The decision → the new device open; → its first frame on screen.
    public var open: Double, firstFrame: Double
}

/// How a `SwitchingScreen` chooses, and how it opens a device.
public struct DisplaySwitchOptions {
    public var rule: DisplaySwitchRule = .first
    /// `wait-real`: how long to wait for a real DRM card before showing on what is there.
    public var realTimeout: Double = 8
    /// Delays before trying a device again whose first frame failed (then given up until a
    /// uevent about it).
    public var retryDelays: [Double] = [0.25, 0.5, 1, 2, 4]
    /// How often to ask for a device another program is master of (never given up).
    public var heldRetry: Double = 0.1
    public var log: (String) -> Void = { _ in }
    public init() {}
}

/// A screen on whichever display device is the one to show on now (see the file's header).
public final class SwitchingScreen: Screen {
    public let kernel: Kernel
    public let options: DisplaySwitchOptions
    let open: (ScreenDevice) throws -> Screen
    /// The device shown on now (during a switch: the new one) and its screen.
    public private(set) var current: (device: ScreenDevice, screen: Screen)?
    /// During a switch, the device left (until the new one has shown a frame).
    var previous: (device: ScreenDevice, screen: Screen)?
    var trial: (from: ScreenDevice?, why: String, started: Double, opened: Double, lastFrame: Double?)?
    /// The device that vanished and when it last showed a frame (until another one shows).
    var lost: (device: ScreenDevice, lastFrame: Double?)?
    /// When the current device last showed a frame.
    var lastFrame: Double?
    var wrappers: [SwitchDisplay] = []
    var failures: [ScreenDevice: Int] = [:]
    /// The device last said to be held by another master (one log line each time it is).
    var heldLogged: ScreenDevice?
    /// A real DRM card another program is master of (a compositor), while the HUD is on a
    /// lesser device: what that device shows, nobody sees — the card's master decides what is
    /// on screen, and a firmware framebuffer is not scanned out beside it. The screen is then
    /// not active (`isActive`): input presses nothing, `status` says so.
    public private(set) var heldReal: ScreenDevice?
    public private(set) var switches: [DisplaySwitchRecord] = []
    /// `wait-real` before its timeout with no real card yet.
    public private(set) var waitingForReal = false
    var loop: EventLoop?
    var handler: ((ScreenEvent) -> Void)?
    var tokens: [LoopToken] = []
    var retryTimer: LoopToken?
    var ueventFD: Int32 = -1
    var closed = false
    public private(set) var isSuspended = false
    var log: (String) -> Void { options.log }

    /// Starts on the device the rule picks among those there now (trying the next when one
    /// cannot be opened). With `requireDisplay`, throws when there is no device at all, or the
    /// first failure when none could be opened; `wait-real` waits only when there is one to
    /// fall back on (the firmware's), so a machine with no display never waits forever.
    public init(kernel: Kernel = LinuxKernel(), options: DisplaySwitchOptions, requireDisplay: Bool,
                open: @escaping (ScreenDevice) throws -> Screen) throws {
        self.kernel = kernel; self.options = options; self.open = open
        var devices = ScreenDevice.scan(kernel: kernel, log: options.log)
        if requireDisplay && devices.isEmpty { throw ScreenError.noCard("no DRM device (/dev/dri/card*)") }
        if options.rule == .waitReal && !devices.contains(where: \.isReal) {
            waitingForReal = true
            log("display: no real DRM card yet (\(devices.map(\.description).joined(separator: ", ")));" +
                " waiting up to \(options.realTimeout) s for one")
            return
        }
        var firstError: Error?
        while let d = options.rule.pick(devices) {
            do {
                current = (d, try open(d))
                log("display: on \(d) (rule \(options.rule))")
                return
            } catch {
                log("display: cannot open \(d): \(error)")
                if d.isReal, isHeldByAnother(error) { heldReal = d }
                firstError = firstError ?? error
                devices.removeAll { $0 == d }
            }
        }
        if requireDisplay { throw firstError ?? ScreenError.noCard("no DRM device (/dev/dri/card*)") }
        log("display: none yet; following the kernel's uevents")
    }

    // MARK: Screen

    public var displays: [Display] { syncWrappers() }
    public var isActive: Bool {
        guard let c = current else { return true }
        if let h = heldReal, h.rank > c.device.rank { return false }
        return c.screen.isActive
    }
    public var frameInterval: Seconds { current?.screen.frameInterval ?? 1.0 / 60 }
    public var hasActiveVT: Bool { current?.screen.hasActiveVT ?? false }
    // What the device shown on now offers (the defaults without one).
    /// The device's screen's innermost; itself without a device.
    public var innermost: Screen { current?.screen.innermost ?? self }
    public var isDeviceAlive: Bool { current?.screen.isDeviceAlive ?? true }
    public var continuedEarlyFrame: Bool { current?.screen.continuedEarlyFrame ?? false }
    public var frameCache: FrameCacheSource? { current?.screen.frameCache }
    public var carryOver: ScreenCarryOverSource? { current?.screen.carryOver }
    public var summary: String {
        (current.map { "\($0.screen.summary) " } ?? "") + "display=\(current.map { "\($0.device)" } ?? "none") display_switches=\(switches.count)"
    }

    func syncWrappers() -> [Display] {
        guard let s = current?.screen else { wrappers = []; return [] }
        let inner = s.displays
        wrappers = inner.map { d in wrappers.first { $0.inner === d } ?? SwitchDisplay(d, owner: self, screen: s) }
        return wrappers
    }

    public func attach(to loop: EventLoop, _ handler: @escaping (ScreenEvent) -> Void) throws {
        guard self.loop == nil else { return }
        self.loop = loop
        self.handler = handler
        if let s = current?.screen { try s.attach(to: loop, forwarder(s)) }
        if let h = heldReal, let c = current, h.rank > c.device.rank {
            log("display: on \(c.device), which nobody sees while another program has \(h): not active, input presses nothing; " +
                "asking for \(h) every \(options.heldRetry) s")
            heldLogged = h
            notify(.deactivated)
            retryTimer = loop.schedule(after: options.heldRetry) { [weak self] in
                self?.retryTimer = nil
                self?.evaluate("retry \(h)")
            }
        }
        do {
            ueventFD = try kernel.ueventDescriptor()
            tokens.append(loop.watch(ueventFD, .readable) { [unowned self] _ in self.readUevents() })
        } catch {
            log("display: cannot listen for uevents (\(error)); the display is not followed")
        }
        if waitingForReal {
            tokens.append(loop.schedule(after: options.realTimeout) { [unowned self] in
                guard self.waitingForReal else { return }
                self.waitingForReal = false
                self.log("display: no real DRM card within \(self.options.realTimeout) s; showing on what is there")
                self.evaluate("wait-real timeout")
            })
        }
    }

    /// The inner screen's events, passed on while it is the current one.
    func forwarder(_ s: Screen) -> (ScreenEvent) -> Void {
        { [weak self, weak s] e in
            guard let self, let s, self.current?.screen === s, !self.closed else { return }
            self.handler?(e)
        }
    }

    public func suspend() {
        isSuspended = true
        current?.screen.suspend()
    }

    public func resume() {
        isSuspended = false
        current?.screen.resume()
    }

    public func close(retain: Bool) {
        guard !closed else { return }
        closed = true
        for t in tokens + [retryTimer].compactMap({ $0 }) { loop?.cancel(t) }
        tokens = []; retryTimer = nil
        if ueventFD >= 0 { kernel.close(ueventFD); ueventFD = -1 }
        if let p = previous { release(p.screen) }
        previous = nil
        current?.screen.close(retain: retain)
        loop = nil; handler = nil
    }

    // MARK: Following

    func readUevents() {
        var relevant: [String] = []
        drainUevents(ueventFD, kernel: kernel) { r in
            guard case let .uevent(u) = r else { relevant.append("uevents lost (ENOBUFS)"); return }   // look again
            guard u.isDisplayDevice else { return }
            relevant.append("\(u.action) \(u.properties["DEVNAME"] ?? u.devpath)")
            if u.action == "add" {   // a device that failed before gets a new chance
                for d in failures.keys where d.path.hasSuffix("/" + (u.properties["DEVNAME"] ?? "?")) { failures[d] = nil }
            }
        }
        guard !relevant.isEmpty else { return }
        evaluate("uevent " + relevant.joined(separator: ", "))
    }

    /// Looks whether the device shown on is still there and whether to move (see the header).
    func evaluate(_ why: String) {
        guard !closed, trial == nil else { return }
        var why = why
        if let c = current, !c.screen.isDeviceAlive {
            deviceGone(why)
            why = "\(c.device) gone"
        }
        let present = ScreenDevice.scan(kernel: kernel, log: log)
        if let h = heldReal, !present.contains(h) { heldReal = nil }
        let candidates = present.filter { d in
            d.path != current?.device.path && (failures[d] ?? 0) < options.retryDelays.count
        }
        let pick: ScreenDevice?
        if let c = current {
            pick = candidates.filter { options.rule.isBetter($0, than: c.device) }.max { $0.rank < $1.rank }
        } else if waitingForReal {
            pick = candidates.first { $0.isReal }
        } else {
            pick = options.rule.pick(candidates)
        }
        guard let pick else { return }
        switchTo(pick, why: why)
    }

    /// The device shown on went away: released at once; the HUDs keep their state until
    /// another device shows them.
    func deviceGone(_ why: String) {
        guard let c = current else { return }
        log("display: \(c.device) is gone (\(why))")
        lost = (c.device, lastFrame)
        current = nil
        lastFrame = nil
        release(c.screen)
        notify(.displaysChanged)
    }

    /// A screen left: closed, without waiting for what is in flight when its device is gone.
    func release(_ s: Screen) { s.abandon() }

    func switchTo(_ d: ScreenDevice, why: String) {
        let started = monotonicSeconds()
        let screen: Screen
        do {
            screen = try open(d)
            if isSuspended { screen.suspend() }
            if let loop { try screen.attach(to: loop, forwarder(screen)) }
        } catch {
            if isHeldByAnother(error) { held(d, error) } else { failed(d, "cannot open it: \(error)") }
            return
        }
        waitingForReal = false
        let from = current?.device ?? lost?.device
        trial = (from, why, started, monotonicSeconds(), current != nil ? lastFrame : lost?.lastFrame)
        previous = current
        current = (d, screen)
        log("display: switching to \(d)\(from.map { " from \($0)" } ?? "") (\(why))")
        notify(.displaysChanged)
    }

    /// A device could not be opened or shown on: tried again later, the display stays as it was.
    func failed(_ d: ScreenDevice, _ why: String) {
        let n = (failures[d] ?? 0) + 1
        failures[d] = n
        let delays = options.retryDelays
        guard n <= delays.count else { return }
        let retry = n < delays.count ? " trying again in \(delays[n - 1]) s" : " given up until it is added again"
        log("display: \(d): \(why); staying on \(current.map { "\($0.device)" } ?? "no display");" + retry)
        guard n < delays.count, let loop else { return }
        if let t = retryTimer { loop.cancel(t) }
        retryTimer = loop.schedule(after: delays[n - 1]) { [weak self] in
            self?.retryTimer = nil
            self?.evaluate("retry \(d)")
        }
    }

    /// The new card is there and well, but another program is its DRM master (its console
    /// helper, a splash, a test's modeset client): asked again every `heldRetry` seconds for as
    /// long as that lasts — a master that goes sends no uevent, and giving up would leave the
    /// screen to it. Logged once per device until it is ours.
    func held(_ d: ScreenDevice, _ error: Error) {
        if d.isReal, heldReal != d {
            heldReal = d
            if let c = current, d.rank > c.device.rank { notify(.deactivated) }
        }
        if heldLogged != d {
            heldLogged = d
            log("display: \(d) is held by another program (\(error)); staying on " +
                "\(current.map { "\($0.device)" } ?? "no display"), asking again every \(options.heldRetry) s")
        }
        guard let loop else { return }
        if let t = retryTimer { loop.cancel(t) }
        retryTimer = loop.schedule(after: options.heldRetry) { [weak self] in
            self?.retryTimer = nil
            self?.evaluate("retry \(d)")
        }
    }

    /// Tells the session after the current handler (never from inside a present).
    func notify(_ e: ScreenEvent) {
        loop?.execute { [weak self] in
            guard let self, !self.closed else { return }
            self.handler?(e)
        }
    }

    // MARK: Presents (from SwitchDisplay)

    /// A frame reached `s`: during a switch, the new device works — the old one is released
    /// and the switch logged.
    func presented(on s: Screen) {
        guard current?.screen === s else { return }
        let now = monotonicSeconds()
        lastFrame = now
        guard let t = trial else { return }
        trial = nil
        if let p = previous {
            passOnVT(from: p.screen, to: s)
            release(p.screen)
        }
        previous = nil
        lost = nil
        failures[current!.device] = nil
        heldLogged = nil
        if heldReal == current!.device { heldReal = nil }
        let r = DisplaySwitchRecord(from: t.from, to: current!.device, why: t.why, gap: t.lastFrame.map { now - $0 },
                                    open: t.opened - t.started, firstFrame: now - t.started)
        switches.append(r)
        let ms = { (x: Double) in String(Int((x * 1000).rounded())) }
        log("display-switch from=\"\(r.from.map { "\($0)" } ?? "none")\" to=\"\(r.to)\" why=\"\(r.why)\" " +
            "gap_ms=\(r.gap.map(ms) ?? "none") open_ms=\(ms(r.open)) first_frame_ms=\(ms(r.firstFrame)) at_s=\(now)")
    }

    /// A present on `s` failed. True when that was handled here (the new device's first frame:
    /// back to the old one; the device gone: released), false for the caller to throw.
    func presentFailed(on s: Screen, _ error: Error) -> Bool {
        guard let c = current, c.screen === s else { return true }   // a screen left already
        if trial != nil {
            trial = nil
            current = previous
            previous = nil
            lastFrame = current == nil ? nil : lastFrame
            c.screen.close(retain: false)
            failed(c.device, "its first frame failed (\(error))")
            notify(.displaysChanged)
            return true
        }
        guard isDeviceGone(error) || !s.isDeviceAlive else { return false }
        loop?.execute { [weak self] in self?.evaluate("on a present: \(error)") }
        return true
    }
}

extension SwitchingScreen {
    /// The old screen's hold on the VT goes to the new one: the new one took the VT while the
    /// old had it (and saved the old one's VT_PROCESS mode as "what was there"), so the old
    /// one's saved mode — the console's — is what must come back at the end, and the old one
    /// must not put it back now. From an fbdev to a card the VT leaves graphics mode (DRM master
    /// keeps the console off the screen).
    func passOnVT(from old: Screen, to new: Screen) {
        guard let held = old.vtHold, new.vtHold != nil, new.adoptVT(held) else { return }
        old.forgetVT()
    }
}

extension Uevent {
    /// A DRM card or an fbdev device came, went or changed (not a connector, not a render node).
    var isDisplayDevice: Bool {
        let name = properties["DEVNAME"] ?? ""
        switch properties["SUBSYSTEM"] {
        case "drm": return name.hasPrefix("dri/card") && !name.contains("-")
        case "graphics": return name.hasPrefix("fb")
        default: return false
        }
    }
}

/// A display of the current device, as the session sees it: presents go through, and a failure
/// that means "this device is gone" or "the new device cannot show" is the switch's to handle.
final class SwitchDisplay: Display {
    let inner: Display
    unowned let owner: SwitchingScreen
    weak var screen: Screen?

    init(_ inner: Display, owner: SwitchingScreen, screen: Screen) { self.inner = inner; self.owner = owner; self.screen = screen }

    var width: Int { inner.width }
    var height: Int { inner.height }
    var preferredFormat: PixelFormat { inner.preferredFormat }
    var transform: DisplayTransform { inner.transform }
    var name: String { inner.name }
    var scale: Double { inner.scale }
    var firstFrameTime: Double? { inner.firstFrameTime }

    func present(_ frame: Surface, damage: Damage) throws {
        guard let s = screen else { return }
        do {
            try inner.present(frame, damage: damage)
        } catch {
            if owner.presentFailed(on: s, error) { return }
            throw error
        }
        owner.presented(on: s)
    }
}
