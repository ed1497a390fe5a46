import CKioskWayland
import KioskRaster
import KioskSeams
import KioskSys

/// The HUD as a compositor's client: one overlay layer surface per output (`WaylandDisplay`),
/// following outputs as they come and go, the compositor's frame callbacks as `frameDone`, its
/// seat's pointer and touch as `input`. The connection's end (the compositor quit or killed)
/// leaves the screen with no displays and `isDeviceAlive` false.
public final class WaylandScreen: Screen, WindowWatchSource {
    private let options: WaylandOptions
    private let connection: OpaquePointer
    private var handler: ((ScreenEvent) -> Void)?
    private var loop: EventLoop?
    private var token: LoopToken?
    private var writing = false
    /// Surfaces by output: made at once, a display once the compositor sized them.
    private var surfaces: [UInt32: OpaquePointer] = [:]
    private var shown: [WaylandDisplay] = []
    private let waylandInput = WaylandInput()
    private var pointer: (x: Double, y: Double) = (0, 0)
    private var failure: String?
    private var closed = false
    public private(set) var isSuspended = false
    /// The compositor's user (SO_PEERCRED at connect).
    public private(set) var compositorUser: UInt32 = 0
    private let timeSource: () -> Double

    /// Connects to the compositor, asks for a surface on each of its outputs and waits (up to
    /// twenty round trips) until the compositor has sized them. Blocks while it does: a screen
    /// opens before the event loop runs, as a DRM modeset does.
    /// `kernel` says who the compositor is (SO_PEERCRED) and who this process is.
    public init(options: WaylandOptions, kernel: any Kernel = LinuxKernel(), timeSource: @escaping () -> Double = { 0 }) throws {
        self.options = options
        self.timeSource = timeSource
        if let why = kiosk_wayland_load() { throw WaylandError("cannot load libwayland-client: " + String(cString: why)) }
        var error = [CChar](repeating: 0, count: 512)
        guard let c = kiosk_wl_connect(options.socket, &error, error.count) else {
            throw WaylandError(error.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }
        connection = c
        // From here a throw ends the connection in deinit (the object is whole).
        // Who answers, before a byte of theirs is read: a root kiosk-hud speaks Wayland only to
        // root's compositor. Another user's compositor would get a root process's parser to feed
        // and its input to steer; that user runs the overlay (docs/security.md).
        let me = kernel.effectiveUserID()
        let peer: PeerCredentials
        do {
            peer = try kernel.peerCredentials(kiosk_wl_fd(c))
        } catch {
            throw WaylandError("cannot tell who the compositor at \(options.socket ?? "$WAYLAND_DISPLAY") is: \(error)")
        }
        if me == 0 && peer.uid != 0 && !options.allowsOtherUser {
            throw WaylandError("the compositor at \(options.socket ?? "$WAYLAND_DISPLAY") runs as uid \(peer.uid), not root: "
                + "kiosk-hud does not connect as root to another user's compositor; run it as uid \(peer.uid) (e.g. setpriv --reuid=\(peer.uid))")
        }
        compositorUser = peer.uid
        if kiosk_wl_start(c, &error, error.count) != 0 {
            throw WaylandError(error.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }
        drain()
        if surfaces.isEmpty {
            throw WaylandError("the compositor at \(options.socket ?? "$WAYLAND_DISPLAY") has no output")
        }
        // The configures answer the surfaces' first commits; a round trip or two brings them.
        var trips = 0
        while shown.count < surfaces.count && trips < 20 {
            if kiosk_wl_roundtrip(connection) < 0 { break }
            drain()
            trips += 1
        }
        if shown.isEmpty {
            let why = String(cString: kiosk_wl_error(connection))
            throw WaylandError(why.isEmpty ? "the compositor did not size the HUD's surfaces" : why)
        }
    }

    deinit { close(retain: false) }

    public var displays: [Display] { shown }
    public var waylandDisplays: [WaylandDisplay] { shown }
    public var isActive: Bool { !isSuspended && failure == nil && !closed }
    public var backend: ScreenBackend { .wayland }
    public var input: InputSource? { waylandInput }
    public var windows: WindowWatchSource? { self }
    private var windowHandler: ((String) -> Void)?

    /// The compositor's windows (wlr-foreign-toplevel-management), each app id as its window is
    /// described; those already mapped first, at the next read of the connection.
    public func watchWindows(_ handler: @escaping (String) -> Void) throws {
        guard failure == nil, !closed else { throw WaylandError(failure ?? "the screen is closed") }
        if kiosk_wl_watch_windows(connection) != 0 {
            throw WaylandError("the compositor does not tell its windows (no zwlr_foreign_toplevel_manager_v1)")
        }
        windowHandler = handler
        flush()
    }
    public var isDeviceAlive: Bool { failure == nil }
    /// Why the connection ended, once it did.
    public var connectionFailure: String? { failure }

    public func attach(to loop: EventLoop, _ handler: @escaping (ScreenEvent) -> Void) throws {
        self.loop = loop
        self.handler = handler
        token = loop.watch(kiosk_wl_fd(connection), .readable) { [weak self] events in self?.ready(events) }
        flush()
    }

    public func close(retain: Bool) {
        guard !closed else { return }
        closed = true
        if let token { loop?.cancel(token) }
        token = nil
        handler = nil
        retire(shown)
        shown = []
        surfaces = [:]
        kiosk_wl_disconnect(connection)
    }

    /// Unmaps nothing (the compositor decides what shows); presents wait for `resume`.
    public func suspend() {
        guard !isSuspended else { return }
        isSuspended = true
        for d in shown { d.isShowing = false }
        tell(.deactivated)
    }

    public func resume() {
        guard isSuspended else { return }
        isSuspended = false
        for d in shown { d.isShowing = true }
        tell(.activated)
    }

    public var summary: String {
        "commits=\(retired.commits + shown.reduce(0) { $0 + $1.commits }) busy=\(retired.skipped + shown.reduce(0) { $0 + $1.skipped })"
    }
    /// The counts of displays gone.
    private var retired = (commits: 0, skipped: 0)

    private func retire(_ gone: [WaylandDisplay]) {
        for d in gone { retired.commits += d.commits; retired.skipped += d.skipped }
    }

    // MARK: The connection

    private func ready(_ events: LoopEvents) {
        if events.contains(.writable) { flush() }
        if events.contains(.readable) || events.contains(.hangup) || events.contains(.error) {
            if kiosk_wl_dispatch(connection, 1) < 0 { fail(); return }
            drain()
        }
        flush()
    }

    /// Sends what is queued; watches for writing while the socket is full.
    private func flush() {
        guard failure == nil, !closed, token != nil || loop == nil else { return }
        let r = kiosk_wl_flush(connection)
        if r < 0 { fail(); return }
        let want = r == 1
        if want != writing, let token {
            writing = want
            loop?.setEvents(token, want ? [.readable, .writable] : .readable)
        }
    }

    private func fail() {
        guard failure == nil else { return }
        let why = String(cString: kiosk_wl_error(connection))
        failure = why.isEmpty ? "the compositor went away" : why
        options.log("wayland: \(failure!)")
        if let token { loop?.cancel(token) }
        token = nil
        let had = !shown.isEmpty
        retire(shown)
        shown = []
        surfaces = [:]
        if had { tell(.displaysChanged) }
        tell(.deactivated)
    }

    private func tell(_ e: ScreenEvent) {
        guard let loop else { return }
        loop.execute { [weak self] in self?.handler?(e) }
    }

    /// Handles every queued event: outputs made into surfaces, sizes into displays, frame
    /// callbacks into `frameDone`, pointer and touch into input.
    private func drain() {
        var event = kiosk_wl_event()
        var changed = false, frameDone = false
        var input: [TimedInputEvent] = []
        var mapped: [String] = []
        let now = loop?.now ?? 0
        while kiosk_wl_next_event(connection, &event) == 1 {
            switch Int(event.kind) {
            case Int(KIOSK_WL_OUTPUT_DONE.rawValue):
                // Without the layer shell, one toplevel (on the first output): the compositor
                // places it, and a second would be a second window of the app's size.
                let another = kiosk_wl_has_layer_shell(connection) != 0 || surfaces.isEmpty
                if another, surfaces[event.id] == nil, let s = kiosk_wl_surface_create(connection, event.id, Int32(bitPattern: event.id)) {
                    surfaces[event.id] = s
                }
            case Int(KIOSK_WL_OUTPUT_GONE.rawValue):
                if let s = surfaces.removeValue(forKey: event.id) {
                    retire(shown.filter { $0.outputID == event.id })
                    shown.removeAll { $0.outputID == event.id }
                    kiosk_wl_surface_destroy(s)
                    changed = true
                }
            case Int(KIOSK_WL_CONFIGURED.rawValue):
                let id = UInt32(bitPattern: event.tag)
                guard let s = surfaces[id], event.x > 0, event.y > 0 else { break }
                let w = Int(event.x), h = Int(event.y)
                let scale = outputInfo(id)?.scale ?? 1
                if let old = shown.first(where: { $0.outputID == id }),
                   old.width == w * old.bufferScale, old.height == h * old.bufferScale, old.bufferScale == Int(scale) {
                    old.configuredAgain()
                    break
                }
                let d = WaylandDisplay(surface: s, outputID: id, name: outputName(id), logicalWidth: w, logicalHeight: h,
                                       bufferScale: Int(scale), scale: options.scale, timeSource: timeSource)
                d.isShowing = !isSuspended
                d.onCommit = { [weak self] in self?.flush() }
                if let i = shown.firstIndex(where: { $0.outputID == id }) { retire([shown[i]]); shown[i] = d } else { shown.append(d) }
                shown.sort { $0.outputID < $1.outputID }
                options.log("wayland: output \(d.name) \(w)x\(h) scale \(scale): picture \(d.width)x\(d.height)")
                changed = true
            case Int(KIOSK_WL_CLOSED.rawValue):
                let id = UInt32(bitPattern: event.tag)
                if let s = surfaces.removeValue(forKey: id) {
                    retire(shown.filter { $0.outputID == id })
                    shown.removeAll { $0.outputID == id }
                    kiosk_wl_surface_destroy(s)
                    changed = true
                }
            case Int(KIOSK_WL_FRAME_DONE.rawValue):
                frameDone = true
            case Int(KIOSK_WL_POINTER_ENTER.rawValue), Int(KIOSK_WL_POINTER_MOTION.rawValue):
                guard let p = picturePoint(event) else { break }
                pointer = p
                input.append(TimedInputEvent(time: now, event: .pointerMotion(x: p.x, y: p.y)))
            case Int(KIOSK_WL_POINTER_BUTTON.rawValue):
                // BTN_LEFT (0x110) presses the button; a touchpad's tap comes as BTN_LEFT too.
                guard isFirst(event), event.code == 0x110 else { break }
                input.append(TimedInputEvent(time: now, event: .pointerButton(pressed: event.pressed != 0)))
            case Int(KIOSK_WL_TOUCH_DOWN.rawValue):
                guard let p = picturePoint(event) else { break }
                input.append(TimedInputEvent(time: now, event: .touchDown(slot: Int(event.slot), x: p.x, y: p.y)))
            case Int(KIOSK_WL_TOUCH_MOTION.rawValue):
                guard let p = picturePoint(event) else { break }
                input.append(TimedInputEvent(time: now, event: .touchMotion(slot: Int(event.slot), x: p.x, y: p.y)))
            case Int(KIOSK_WL_TOUCH_UP.rawValue):
                guard isFirst(event) else { break }
                input.append(TimedInputEvent(time: now, event: .touchUp(slot: Int(event.slot))))
            case Int(KIOSK_WL_TOUCH_FRAME.rawValue):
                input.append(TimedInputEvent(time: now, event: .touchFrame))
            case Int(KIOSK_WL_TOUCH_CANCEL.rawValue):
                for slot in 0..<16 { input.append(TimedInputEvent(time: now, event: .touchCancel(slot: slot))) }
            case Int(KIOSK_WL_WINDOW.rawValue):
                let appID = withUnsafeBytes(of: &event.text) { raw in String(cString: raw.bindMemory(to: CChar.self).baseAddress!) }
                mapped.append(appID)
            case Int(KIOSK_WL_WINDOWS_ENDED.rawValue):
                options.log("wayland: the compositor stopped telling its windows")
            case Int(KIOSK_WL_OVERFLOW.rawValue):
                options.log("wayland: events came faster than they were read; some were dropped")
            default:
                break
            }
        }
        waylandInput.add(input)
        if let h = windowHandler { for w in mapped { h(w) } }
        if changed { tell(.displaysChanged) }
        if frameDone { tell(.frameDone) }
    }

    /// Whether the event is on the first display's surface (the one input maps onto).
    private func isFirst(_ event: kiosk_wl_event) -> Bool {
        guard let first = shown.first else { return false }
        return UInt32(bitPattern: event.tag) == first.outputID
    }

    /// The event's surface-local point in the first display's picture pixels.
    private func picturePoint(_ event: kiosk_wl_event) -> (x: Double, y: Double)? {
        guard isFirst(event), let first = shown.first else { return nil }
        return (event.x * Double(first.bufferScale), event.y * Double(first.bufferScale))
    }

    private func outputInfo(_ id: UInt32) -> kiosk_wl_output_info? {
        var info = kiosk_wl_output_info()
        for i in 0..<kiosk_wl_output_count(connection) where kiosk_wl_output_at(connection, i, &info) == 1 && info.id == id {
            return info
        }
        return nil
    }

    /// The output's name for the log and `status`: its model (sway's headless outputs say
    /// "headless"), with the registry's number.
    private func outputName(_ id: UInt32) -> String {
        guard var info = outputInfo(id) else { return "wayland-\(id)" }
        let model = withUnsafeBytes(of: &info.model) { raw in String(cString: raw.bindMemory(to: CChar.self).baseAddress!) }
        return model.isEmpty ? "wayland-\(id)" : "\(model)-\(id)"
    }
}
