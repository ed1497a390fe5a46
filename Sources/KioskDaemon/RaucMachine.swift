import KioskSettings

/// What the HUD shows of a RAUC installation: RAUC's top step as the label, the steps nested
/// in it as the details (one a line, the deepest last), the bar, and a note when the service
/// went away mid-install.
public struct RaucView: Equatable, Sendable {
    public var label: String
    public var details: String
    /// 0…1.
    public var progress: Double
    public var note: RaucNote?

    public init(label: String, details: String, progress: Double, note: RaucNote? = nil) {
        self.label = label; self.details = details; self.progress = progress; self.note = note
    }
}

/// A note under the last state (in the HUD's words, `Word.raucGone`).
public enum RaucNote: Equatable, Sendable {
    /// The service left the bus during an installation; the daemon waits for it.
    case serviceGone
}

/// Why an installation failed.
public enum RaucFailure: Equatable, Sendable {
    /// RAUC's `LastError`.
    case error(String)
    /// `Completed` with this result, and no `LastError` in time.
    case code(Int32)
    /// The service went away during the installation and came back idle.
    case interrupted
}

/// What the daemon does for the machine.
public enum RaucAction: Equatable, Sendable {
    /// Show the HUD with this content (mode bar), no Cancel button.
    case show(RaucView)
    /// The success notice ("Installed").
    case succeeded
    /// The failure notice.
    case failed(RaucFailure)
    /// Read `LastError` from the service (a failure's reason that no signal brought).
    case readLastError
    /// A line for the log.
    case log(String)
}

/// RAUC's installer mapped to the HUD: a pure state machine that takes `RaucEvent`s and the
/// time, and returns `RaucAction`s (the daemon's `RaucFollower` feeds it from sd-bus).
///
/// * Progress is shown only during an installation (`Operation` installing): the service's
///   `Progress` from an earlier one, read when following starts, is not.
/// * `Completed` 0 is the success notice; another result the failure notice with `LastError`
///   — at once when this installation set it, else after `readLastError` answers, or with the
///   result alone after `lastErrorWait`.
/// * The service leaving mid-install keeps the last state with a note; back and idle, the
///   installation is over: the failure notice (interrupted). Back and installing, it is followed.
public struct RaucMachine: Equatable, Sendable {
    /// How long a failure waits for `LastError`.
    public static let lastErrorWait = 1.0

    /// Whether the service is on the bus.
    public private(set) var present = false
    /// What the service says it does.
    public private(set) var operation = RaucOperation.idle
    /// The last view shown (nil before any installation).
    public private(set) var view: RaucView?
    /// The installation's steps by depth (RAUC's messages).
    private var steps: [String] = []
    private var label = ""
    private var lastError: String?
    private var failureDue: (code: Int32, at: Double)?
    /// The service went away during an installation (the last state kept with a note).
    public private(set) var interrupted = false

    public init() {}

    public static func == (a: RaucMachine, b: RaucMachine) -> Bool {
        a.present == b.present && a.operation == b.operation && a.view == b.view && a.steps == b.steps && a.label == b.label
            && a.lastError == b.lastError && a.failureDue?.code == b.failureDue?.code && a.failureDue?.at == b.failureDue?.at
            && a.interrupted == b.interrupted
    }

    /// Whether RAUC is what the HUD shows: an installation, a failure being read, or the last
    /// state of one the service left.
    public var isActive: Bool { operation == .installing || failureDue != nil || interrupted }

    /// When `advance(to:)` must be called next (nil: never).
    public var nextDeadline: Double? { failureDue?.at }

    /// Handles one event at `now`.
    public mutating func handle(_ event: RaucEvent, at now: Double) -> [RaucAction] {
        var out = advance(to: now)
        switch event {
        case let .appeared(owner):
            present = true
            out.append(.log("rauc: following \(Rauc.service) (\(owner))"))
        case .vanished:
            present = false
            if operation == .installing {
                operation = .idle
                interrupted = true
                var v = view ?? RaucView(label: label, details: "", progress: 0)
                v.note = .serviceGone
                view = v
                out.append(.show(v))
                out.append(.log("rauc: \(Rauc.service) left the bus during an installation; the last state stays until it is back"))
            } else {
                out.append(.log("rauc: \(Rauc.service) left the bus; waiting for it"))
            }
        case let .operation(op):
            let was = operation
            operation = op
            switch op {
            case .installing where was != .installing:
                interrupted = false
                failureDue = nil
                lastError = nil
                steps = []
                out += show(RaucView(label: label, details: "", progress: 0))
            case .idle where interrupted:
                interrupted = false
                out.append(.failed(.interrupted))
            case let .other(name) where was != op:
                out.append(.log("rauc: operation \(shown(name)) is not one this daemon knows; shown as idle"))
            default: break
            }
        case let .progress(p):
            guard operation == .installing else { break }
            steps = Array(steps.prefix(p.depth - 1))
            if !p.endsStep && !p.message.isEmpty { steps.append(p.message) }
            if let top = steps.first { label = top }
            out += show(RaucView(label: label, details: steps.dropFirst().joined(separator: "\n"), progress: Double(p.percentage) / 100))
        case let .lastError(text):
            lastError = text
            if let due = failureDue {
                failureDue = nil
                out.append(.failed(text.isEmpty ? .code(due.code) : .error(text)))
            }
        case let .completed(result):
            operation = .idle
            interrupted = false
            if result == 0 {
                failureDue = nil
                out.append(.succeeded)
            } else if let e = lastError, !e.isEmpty {
                out.append(.failed(.error(e)))
            } else {
                failureDue = (result, now + RaucMachine.lastErrorWait)
                out.append(.readLastError)
            }
        }
        return out
    }

    /// Fires what is due at or before `now` (a failure whose reason did not come).
    public mutating func advance(to now: Double) -> [RaucAction] {
        guard let due = failureDue, now >= due.at else { return [] }
        failureDue = nil
        return [.failed(.code(due.code))]
    }

    private mutating func show(_ v: RaucView) -> [RaucAction] {
        guard v != view else { return [] }
        view = v
        return [.show(v)]
    }
}
