import KioskBoards
import KioskSeams
import KioskHUD
import KioskProtocol
import KioskSession
import KioskSettings

/// What Plymouth's requests do to the daemon's HUD — the Plymouth front end's controller
/// (docs/plymouth.md has the table). Owned by the loop's thread, as the daemon.
///
/// - A boot status (each unit PID 1 starts) goes to the details line ("Starting
///   NetworkManager.service…"), at most one every `statusInterval` seconds: a burst of units
///   redraws a few times, and the last one always shows; not in the shutdown and reboot modes
///   (`quietModes`), whose details line is empty.
/// - `change-mode` gives the HUD the label and mode the settings give that Plymouth mode.
/// - Messages take the label's place while shown, the latest on top.
/// - The progress: in boot-up mode the `BootEstimate` (last boot's duration, made honest by
///   systemd's Progress that `ctl follow-boot` sends); in the other modes what
///   `system-update --progress` says.
/// - `deactivate` lets the display go (the screen suspended, the state kept) until `reactivate`.
/// - A password, a question or a keystroke is refused at once (the asking agent falls back to
///   the console), and the HUD steps aside as for `deactivate` until the next status or
///   progress, or `reactivate`.
public final class PlymouthSplash {
    /// The details line changes at most this often (seconds).
    public static let statusInterval = 0.1
    /// The boot estimate moves the bar this often (seconds), by at least `estimateStep`.
    public static let estimateInterval = 0.25, estimateStep = 0.002
    /// The modes whose details line stays empty: while the machine goes down PID 1 reports the
    /// units of the shutdown itself (systemd-reboot.service …), nothing a kiosk's user needs.
    public static let quietModes: Set<PlymouthMode> = [.shutdown, .reboot]
    /// Messages kept (the latest shows).
    public static let maxMessages = 8
    /// systemd-fsckd's message prefix for "Press Ctrl+C to cancel…": not shown, as keystrokes
    /// are not taken.
    static let fsckdCancelPrefix = "fsckd-cancel-msg:"

    /// The daemon whose HUD it drives (its settings hold the `[plymouth]` looks).
    public let daemon: Daemon
    var session: HUDSession { daemon.session }
    /// Plymouth's mode now.
    public private(set) var mode: PlymouthMode = .bootUp
    /// Messages shown (`display-message`), oldest first.
    public private(set) var messages: [String] = []
    /// The label under the messages: the daemon's own, or the mode's.
    private var baseLabel: String
    /// `deactivate` holds the screen back until `reactivate`.
    public private(set) var deactivated = false
    /// A password, question or keystroke was asked: the screen is let go until the next status
    /// or progress (or `reactivate`).
    public private(set) var steppedAside = false
    /// The boot estimate (nil: none, `--plymouth-boot-duration none`).
    public private(set) var estimate: BootEstimate?
    /// The clock's reading at the start (the estimate's times are seconds since).
    private let start: Double
    private var statusTimer: LoopToken?
    private var pendingStatus: String?
    private var lastStatusTime = -Double.infinity
    /// The order of the status shown (`PlymouthServer`'s): an older one read late is not shown.
    private var statusOrder: UInt64 = 0
    private var estimateTimer: LoopToken?
    /// Details lines put on the HUD (statuses after the rate limit), for measurements.
    public private(set) var statusesShown = 0
    /// Quit was asked (retain the last frame or not); the owner ends the daemon.
    public var onQuit: (Bool) -> Void = { _ in }
    /// Log lines (a question refused, an error reported, a request that could not be applied).
    public var log: (String) -> Void

    /// Drives `daemon`'s HUD; `estimate` (if any) moves the bar in boot-up mode.
    public init(daemon: Daemon, estimate: BootEstimate?, log: @escaping (String) -> Void = { _ in }) {
        self.daemon = daemon
        self.estimate = estimate
        self.log = log
        baseLabel = daemon.settings.content.label
        start = daemon.session.clock.now
        daemon.progressFilter = { [weak self] p in self?.measured(p) ?? p }
        scheduleEstimate()
    }

    /// Seconds since the start.
    var now: Double { session.clock.now - start }

    // MARK: Requests

    /// Answers one request (docs/plymouth.md's table); `order` is the server's (a status older
    /// than the one shown, read late, is not shown).
    public func handle(_ r: PlymouthRequest, order: UInt64 = .max) -> PlymouthServer.Answer {
        switch r {
        case .ping, .systemInitialized, .reload, .ignoreKeystroke:
            break
        case let .newRoot(path):
            // `plymouth --newroot=/root` from an initramfs script (Plymouth's own init-bottom
            // does this): the daemon started there makes it its root; elsewhere nothing to do.
            if let stage = daemon.initramfs {
                do throws(RequestError) { try stage.newRoot(path) } catch { log("plymouth: newroot \(path): \(error)") }
            }
        case .reportError:
            log("plymouth: a boot error was reported (report-error)")
        case let .status(s):
            estimate?.status(s, at: now)
            comeBack()
            scheduleEstimate()
            if daemon.settings.profile.plymouth.statusOnDetails, !PlymouthSplash.quietModes.contains(mode), order >= statusOrder {
                statusOrder = order
                showStatus(s)
            }
        case let .changeMode(m):
            change(to: m)
        case let .systemUpdate(n):
            comeBack()
            progress(Double(n) / 100)
        case .deactivate:
            deactivated = true
            session.screen.suspend()
        case .reactivate:
            deactivated = false
            steppedAside = false
            session.screen.resume()
        case let .quit(retain):
            session.loop.execute { [weak self] in self?.onQuit(retain) }
            return .hold
        case let .showMessage(text):
            guard !text.isEmpty, !text.hasPrefix(PlymouthSplash.fsckdCancelPrefix) else { break }
            messages.removeAll { $0 == text }
            messages.append(text)
            if messages.count > PlymouthSplash.maxMessages { messages.removeFirst() }
            setLabel()
        case let .hideMessage(text):
            if let i = messages.lastIndex(of: text) { messages.remove(at: i) }
            setLabel()
        case .showSplash:
            session.show(animated: true)
        case .hideSplash:
            session.hide(animated: true)
        case .pauseProgress:
            estimate?.pause(at: now)
        case .unpauseProgress:
            estimate?.unpause(at: now)
            scheduleEstimate()
        case .hasActiveVT:
            return .reply(session.screen.hasActiveVT ? .ack : .nak)
        case .password, .cachedPassword, .question, .watchKeystroke:
            stepAside()
            return .reply(.nak)
        }
        return .reply(.ack)
    }

    // MARK: Status

    /// What the details line says for a status: "Starting NAME…" for a unit's name (what PID 1
    /// sends), else the text as it came (`plymouth update --status="…"` from a script).
    public static func details(forStatus s: String) -> String { details(forStatus: s, unitStatus: PlymouthProfile().unitStatus) }

    /// `details(forStatus:)` with the words for a unit's name: `unitStatus`, `{unit}` where the
    /// name goes (the board profile's `[plymouth]`, in its `[words]` language).
    public static func details(forStatus s: String, unitStatus: String) -> String {
        let suffixes = [".service", ".mount", ".swap", ".socket", ".target", ".device", ".path", ".timer", ".slice", ".scope", ".automount"]
        if !s.contains(" "), suffixes.contains(where: { s.hasSuffix($0) && s.count > $0.count }) { return Words.fill(unitStatus, [.unit: s]) }
        return s
    }

    private func showStatus(_ s: String) {
        pendingStatus = s
        guard statusTimer == nil else { return }
        let due = lastStatusTime + PlymouthSplash.statusInterval
        if session.clock.now >= due {
            applyStatus()
        } else {
            statusTimer = session.loop.schedule(at: due) { [weak self] in
                self?.statusTimer = nil
                self?.applyStatus()
            }
        }
    }

    private func applyStatus() {
        guard let s = pendingStatus else { return }
        pendingStatus = nil
        lastStatusTime = session.clock.now
        statusesShown += 1
        set([("details", .text(PlymouthSplash.details(forStatus: s, unitStatus: daemon.settings.profile.plymouth.unitStatus)))])
    }

    // MARK: Modes, messages, progress

    /// The content mode `m` starts with, by `plymouth`'s looks: its label and HUD mode, the
    /// progress at 0 but at boot-up, and — with `quiet`, the front end's, whose status lines
    /// the details are — no details in a quiet mode. The front end's change of mode, a daemon
    /// started in a mode (`--plymouth-mode`), and the frame cache's renewal of that daemon's
    /// first frame all start from these.
    public static func startFields(_ m: PlymouthMode, plymouth: PlymouthProfile, quiet: Bool) -> [(String, SettingValue)] {
        let look = plymouth.look(m)
        var fields: [(String, SettingValue)] = [("label", .text(look.label)), ("mode", .text(look.mode.rawValue))]
        if m != .bootUp { fields.append(("progress", .number(0))) }
        if quiet && quietModes.contains(m) { fields.append(("details", .text(""))) }
        return fields
    }

    private func change(to m: PlymouthMode) {
        mode = m
        baseLabel = daemon.settings.profile.plymouth.look(m).label
        messages = []
        if PlymouthSplash.quietModes.contains(m) { pendingStatus = nil }
        set(PlymouthSplash.startFields(m, plymouth: daemon.settings.profile.plymouth, quiet: true))
        if m == .bootUp { tickEstimate() }
        scheduleEstimate()
    }

    private func setLabel() { set([("label", .text(messages.last ?? baseLabel))]) }

    /// A progress from `system-update`: the bar (a mode that shows progress: bar if the HUD's
    /// does not), in boot-up mode through the estimate.
    private func progress(_ p: Double) {
        var fields: [(String, SettingValue)] = [("progress", .number(mode == .bootUp ? measured(p) : p))]
        if !showsProgress { fields.append(("mode", .text(HUDMode.bar.rawValue))) }
        set(fields)
        scheduleEstimate()
    }

    /// A measured progress (systemd's, a client's): what the bar shows for it.
    func measured(_ p: Double) -> Double {
        guard mode == .bootUp, estimate != nil else { return p }
        estimate?.measure(p)
        session.loop.execute { [weak self] in self?.scheduleEstimate() }   // once the bar is on the HUD
        return estimate?.value(at: now) ?? p
    }

    var showsProgress: Bool { session.configuration.content.mode.showsProgress }

    /// The estimate's timer runs only while it can move a bar: boot-up mode, a HUD mode that
    /// shows progress, the clock not paused, the boot not finished (an idle HUD stays idle).
    private func scheduleEstimate() {
        guard estimateTimer == nil, let e = estimate, !e.finished, !e.isPaused, mode == .bootUp, showsProgress else { return }
        estimateTimer = session.loop.schedule(after: PlymouthSplash.estimateInterval) { [weak self] in
            guard let self else { return }
            self.estimateTimer = nil
            self.tickEstimate()
            self.scheduleEstimate()
        }
    }

    private func tickEstimate() {
        guard mode == .bootUp, showsProgress, let v = estimate?.value(at: now) else { return }
        let shown = session.configuration.content.progress
        if v - shown >= PlymouthSplash.estimateStep || (v >= 1 && shown < 1) { set([("progress", .number(v))]) }
    }

    private func set(_ fields: [(String, SettingValue)]) {
        do { try daemon.apply(fields) } catch { log("plymouth: \(error)") }
    }

    // MARK: Stepping aside

    private func stepAside() {
        guard !steppedAside else { return }
        steppedAside = true
        log("plymouth: a password, question or keystroke was asked: refused, and the display let go for the console until the next status")
        session.screen.suspend()
    }

    private func comeBack() {
        guard steppedAside else { return }
        steppedAside = false
        estimate?.unpause(at: now)   // the asker paused the progress and gave up
        scheduleEstimate()
        if !deactivated { session.screen.resume() }
    }

    // MARK: The end

    /// The boot is over: the text of the boot-duration file for the next boot (in boot-up mode
    /// with an estimate that heard a status), else nil. Timers stop.
    public func finish() -> String? {
        for t in [statusTimer, estimateTimer].compactMap({ $0 }) { session.loop.cancel(t) }
        statusTimer = nil; estimateTimer = nil
        guard mode == .bootUp, let e = estimate, !e.messages.isEmpty else { return nil }
        return e.cache(at: now)
    }

    /// Plymouth's state for the daemon's `status` reply.
    public var statusFields: [(String, JSONValue)] {
        [("mode", .string(mode.rawValue)), ("deactivated", .bool(deactivated)), ("stepped_aside", .bool(steppedAside)),
         ("messages", .array(messages.map { .string($0) }))]
            + (estimate.map { [("expected_duration", .number(($0.expectedDuration * 10).rounded() / 10))] } ?? [])
    }
}
