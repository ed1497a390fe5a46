import KioskBoards
import KioskHUD
import KioskProtocol
import KioskSession
import KioskSettings

/// `daemon --rauc`: RAUC's installer (`RaucFollower` and `RaucMachine`) shown through the
/// daemon, in the board's words. No button: RAUC cannot cancel an installation.
public final class RaucSource: UpdateSource {
    /// The bus connection and the pure machine behind it.
    public let follower: RaucFollower
    private unowned let daemon: Daemon
    private let words: Words
    private let log: (String) -> Void
    /// The HUD was shown for the installation on screen (a notice ends that).
    private var shown = false

    /// Follows RAUC on the bus at `address` (a D-Bus address) on the daemon's loop.
    public init(address: String, daemon: Daemon, words: Words, log: @escaping (String) -> Void) throws {
        self.daemon = daemon; self.words = words; self.log = log
        var perform: (RaucAction) -> Void = { _ in }
        follower = try RaucFollower(address: address, loop: daemon.session.loop, log: log) { perform($0) }
        perform = { [weak self] in self?.perform($0) }
        log("rauc: following \(Rauc.service) on \(address)")
    }

    public var source: DaemonSource { .rauc }
    public var drivesTheHUD: Bool { follower.machine.isActive }

    /// What `status` says of RAUC: a `rauc` object.
    public var statusEntry: (String, JSONValue) {
        let m = follower.machine
        return ("rauc", .object(JSONObject([("bus", .bool(follower.connected)), ("service", .bool(m.present)),
                                             ("operation", .string(m.operation.name)), ("refused", .number(Double(follower.refused)))])))
    }

    public func close() { follower.close() }

    private func perform(_ action: RaucAction) {
        do throws(RequestError) {
            switch action {
            case let .show(v):
                var details = v.details
                if v.note == .serviceGone { details += (details.isEmpty ? "" : "\n") + words.text(.updaterStopped) }
                var fields: [(String, SettingValue)] = [("progress", .number(v.progress)), ("label", .text(cut(v.label, 1024))),
                                                        ("details", .text(cut(details, 8192))), ("button", .text(""))]
                if !daemon.session.configuration.content.mode.showsProgress { fields.append(("mode", .text("bar"))) }
                try daemon.apply(fields)
                if !shown {
                    shown = true
                    _ = try daemon.handle(.show(animated: true))
                }
            case .succeeded:
                shown = false
                _ = try daemon.handle(.notice(.success, text: words.text(.installed), duration: nil))
            case let .failed(f):
                shown = false
                let text: String
                switch f {
                case let .error(why): text = words.text(.updateFailed, [.reason: why])
                case let .code(c): text = words.text(.updateFailed, [.reason: "RAUC result \(c)"])
                case .interrupted: text = words.text(.updateInterrupted)
                }
                _ = try daemon.handle(.notice(.error, text: cut(text, 1024), duration: nil))
            case .readLastError, .log: break
            }
        } catch {
            log("rauc: \(error)")
        }
    }

    /// `text`'s first whole characters within `limit` bytes of UTF-8.
    private func cut(_ text: String, _ limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var out = "", bytes = 0
        for c in text {
            bytes += c.utf8.count
            if bytes > limit - 3 { break }
            out.append(c)
        }
        return out + "…"
    }
}
