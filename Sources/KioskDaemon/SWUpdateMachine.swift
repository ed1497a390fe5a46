import KioskBoards

/// What SWUpdate's progress means for the HUD: a pure state machine (events and the time in,
/// actions out), as `PresentationMachine` is for showing and hiding. `SWUpdateProgress` feeds
/// it from the socket and carries its actions out on the daemon.
public struct SWUpdateMachine: Sendable {
    /// Where the source stands (`ctl status`'s `"swupdate": {"state": …}`).
    public enum State: String, Sendable, CaseIterable {
        /// Not connected to SWUpdate's socket (not yet, or it went away between updates).
        case disconnected
        /// Connected, no update running.
        case idle
        /// An update runs.
        case updating
        /// The last update succeeded, or failed.
        case succeeded, failed
        /// SWUpdate went away mid-update: the last state stays on screen with a note.
        case lost
        /// SWUpdate speaks a progress API this daemon does not read.
        case unsupported
    }

    /// What happened.
    public enum Event: Equatable, Sendable {
        case connected
        case message(SWUpdateMessage)
        /// The connection closed (SWUpdate stopped or restarted).
        case disconnected
        case unsupported(version: UInt32)
        /// One of SWUpdate's notifications (its control socket's stream): an update's first
        /// error is the failure notice's reason, when the failure message itself has none.
        case notification(SWUpdateNotification)
    }

    /// What to do with the HUD.
    public enum Action: Equatable, Sendable {
        case show
        /// The bar with this label, details and progress (0–1).
        case progress(label: String, details: String, value: Double)
        /// The details line only (the note when SWUpdate went away).
        case details(String)
        case success(String)
        case failure(String)
        case log(String)
    }

    /// How it behaves.
    public struct Options: Sendable, Equatable {
        /// The HUD is shown only while an update runs (and its end notice).
        public var showWhenUpdating = false
        /// The system reboots after a successful update (as `swupdate-progress -r` does): the
        /// success notice says so, unless SWUpdate said it will not (its `no-reboot` mode, a dry run).
        public var rebootsAfterSuccess = false
        /// The HUD's own words (the board's `[words]`).
        public var words = Words()
        /// Options as given.
        public init(showWhenUpdating: Bool = false, rebootsAfterSuccess: Bool = false, words: Words = Words()) {
            self.showWhenUpdating = showWhenUpdating; self.rebootsAfterSuccess = rebootsAfterSuccess; self.words = words
        }
    }

    /// How it behaves.
    public let options: Options
    /// Where the source stands now.
    public private(set) var state = State.disconnected
    /// When the state last changed (the loop's time).
    public private(set) var since: Double = 0
    /// The update's last label, details and progress (what a lost connection leaves on screen).
    public private(set) var label = "", details = "", progress = 0.0
    /// SWUpdate said this update will not reboot.
    private var noReboot = false
    /// The update's steps, remembered from its start.
    private var steps = 0
    /// The update's first error (SWUpdate's first ERROR is its reason; the rest follow from it).
    private var firstError = ""

    /// A machine not yet connected.
    public init(options: Options = Options()) { self.options = options }

    private mutating func enter(_ s: State, _ now: Double) {
        if s != state { state = s; since = now }
    }

    /// One event at `now`; what to do.
    public mutating func handle(_ event: Event, now: Double) -> [Action] {
        switch event {
        case .connected:
            if state != .lost && state != .unsupported { enter(.idle, now) }
            return []
        case .disconnected:
            if state == .updating {
                enter(.lost, now)
                return [.details(options.words.text(.updaterStopped))]
            }
            if state != .lost && state != .unsupported { enter(.disconnected, now) }
            return []
        case let .unsupported(version):
            enter(.unsupported, now)
            return [.log("swupdate: progress API version \(version >> 16).\((version >> 8) & 0xFF).\(version & 0xFF) is not one this daemon reads (2022.12's, 1.x, 2.x); not following it")]
        case let .message(m):
            return message(m, now: now)
        case let .notification(n):
            // "Software Update started": errors from here on are this update's (a new
            // subscription first gets the last notifications again, an earlier update's too).
            if n.status == .start { firstError = "" }
            if n.isError, firstError.isEmpty { firstError = SWUpdateMachine.reason(n.text) }
            return []
        }
    }

    private mutating func message(_ m: SWUpdateMessage, now: Double) -> [Action] {
        if m.info.has("\"reboot-mode\"") && m.info.has("no-reboot") || m.info.has("\"dry-run\"") { noReboot = true }
        switch m.status {
        case .start:
            let wasRunning = state == .updating || state == .lost
            noReboot = noReboot && wasRunning
            steps = m.steps
            enter(.updating, now)
            label = options.words.text(.updates)
            details = SWUpdateMachine.details(step: 0, steps: m.steps, source: m.source, words: options.words)
            progress = 0
            return (options.showWhenUpdating ? [.show] : []) + [.progress(label: label, details: details, value: 0)]
        case .run, .progress, .download:
            let resumed = state != .updating
            enter(.updating, now)
            if m.steps > 0 { steps = m.steps }
            if m.status == .download {
                progress = Double(m.downloadPercent) / 100
                details = m.source.name.isEmpty ? "" : m.source.name
            } else {
                if !m.image.isEmpty { label = m.image } else if label.isEmpty { label = options.words.text(.updates) }
                progress = SWUpdateMachine.overall(step: m.step, steps: steps, percent: m.stepPercent)
                details = SWUpdateMachine.details(step: m.step, steps: steps, source: m.source, words: options.words)
            }
            return (resumed && options.showWhenUpdating ? [.show] : []) + [.progress(label: label, details: details, value: progress)]
        case .success:
            enter(.succeeded, now)
            firstError = ""
            let reboots = options.rebootsAfterSuccess && !noReboot
            return [.success(options.words.text(reboots ? .reboot : .done))]
        case .failure:
            enter(.failed, now)
            let reason = m.info.isEmpty ? firstError : SWUpdateMachine.reason(m.info)
            firstError = ""
            // No reason known: the words without it ("Update failed: " less its colon).
            return [.failure(reason.isEmpty ? options.words.text(.updateFailed, [.reason: ""]).trimmingEnd(" :：")
                                            : options.words.text(.updateFailed, [.reason: reason]))]
        case .done, .idle, .subprocess:
            return []
        }
    }

    /// The bar: the steps done and the current one's share.
    public static func overall(step: Int, steps: Int, percent: Int) -> Double {
        guard steps > 0 else { return Double(percent) / 100 }
        let done = Double(min(max(step - 1, 0), steps))
        return min(max((done + Double(min(percent, 100)) / 100) / Double(steps), 0), 1)
    }

    /// "Step n of m · source" (either part alone when the other is unknown).
    public static func details(step: Int, steps: Int, source: SWUpdateMessage.Source, words: Words) -> String {
        let s = steps > 0 && step > 0 ? words.text(.updateStep, [.step: String(min(step, steps)), .steps: String(steps)]) : ""
        return [s, source.name].filter { !$0.isEmpty }.joined(separator: " · ")
    }

    /// A failure's words from SWUpdate's info (plain text, or a `{"cause": text}` JSON object's
    /// text), at most one line of 200 characters.
    public static func reason(_ info: String) -> String {
        var t = Substring(info)
        if t.hasPrefix("{"), let colon = t.firstIndex(of: ":") {
            t = t[t.index(after: colon)...].drop { $0 == " " }
            if t.hasSuffix("}") { t = t.dropLast() }
            t = Substring(t.trimmingCharacters(" \""))
        }
        for prefix in ["ERROR : ", "ERROR: "] where t.hasPrefix(prefix) { t = t.dropFirst(prefix.count) }
        let line = t.prefix { $0 != "\n" }
        return String(line.prefix(200))
    }
}

extension Substring {
    fileprivate func trimmingCharacters(_ set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}

extension String {
    /// Whether `needle`'s bytes occur in it.
    fileprivate func has(_ needle: String) -> Bool {
        let h = Array(utf8), n = Array(needle.utf8)
        guard !n.isEmpty, h.count >= n.count else { return n.isEmpty }
        for i in 0...(h.count - n.count) where h[i] == n[0] && Array(h[i..<(i + n.count)]) == n { return true }
        return false
    }

    /// Without the characters of `set` at its end.
    fileprivate func trimmingEnd(_ set: String) -> String {
        var s = self
        while let last = s.last, set.contains(last) { s.removeLast() }
        return s
    }
}
