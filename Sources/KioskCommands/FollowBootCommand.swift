import KioskCLI
import KioskDaemon
import KioskHUD
import KioskProtocol
import KioskSys

/// `kiosk-hud ctl follow-boot`: systemd's boot progress on the HUD. Reads the manager's
/// `Progress` every --interval seconds over its private bus (SystemdManager, libsystemd loaded
/// only here) and sends the daemon `update` requests as BootProgress decides — never backwards,
/// steps of 1 % — until the boot is finished: then 1.0, and exit 0. Run by
/// dist/systemd/kiosk-hud-progress.service; psplash-systemd's role.
///
/// It also ends, with 0, when the daemon goes away (kiosk-hud-quit.service hands the screen to
/// the kiosk app before the boot is finished). It keeps the one connection it opened and never
/// connects again: under socket activation a new connection would start the daemon again, over
/// the kiosk app.
public enum FollowBootCommand {
    /// `--socket` of `ctl` and its verbs: the daemon's control socket.
    public static let socket = OptionSpec(.socket, value: "PATH", rule: .path, help: "The daemon's control socket. Default: \(ControlSocket.defaultPath).")

    static let interval = OptionSpec(.interval, value: "s", rule: .number(0.01, 60, "seconds"),
                                     help: "Read the boot progress this often. Default: 0.25 s.")
    static let bus = OptionSpec(.bus, value: "ADDRESS", rule: .text(4095, nonEmpty: true, "a D-Bus address"),
                                help: "The systemd manager's bus. Default: \(SystemdManager.privateBus) (PID 1's own, up before dbus-daemon; root only).")

    /// Exit code when there is no systemd manager to follow (sysexits' EX_OSFILE: a file of the
    /// system is missing — libsystemd.so.0, or the manager's socket).
    static let noManager: Int32 = 72

    /// `kiosk-hud ctl follow-boot`'s options, help and manual page.
    public static let spec = CommandSpec(
        CtlVerb.followBoot.rawValue, abstract: "Show systemd's boot progress as a bar until the boot is finished (72: no systemd).",
        discussion: """
        Reads the systemd manager's Progress over sd-bus (libsystemd.so.0, loaded only by this verb) \
        and sends it to the daemon: never backwards, in steps of 1 %, mode bar unless the HUD's mode \
        shows progress; at 1.0 (the boot finished) it sends 1.0 and exits. It also exits 0 when the \
        daemon ends (the handover to the kiosk app). Run by kiosk-hud-progress.service.

        Exit codes: 0 the boot finished, the daemon ended, or it did not answer a request within \
        60 s (stopped, or stuck: following it stops, with a line saying so); 2 the daemon refused a request; \
        64 bad options; 69 no daemon at the socket; 70 the daemon answered something that is not \
        the protocol; 72 no systemd manager to follow (libsystemd.so.0 missing, or nothing at --bus: \
        not booted with systemd; or the manager unreachable for 5 s); 77 permission denied (the \
        socket, or the private bus, which is root's).
        """,
        groups: [OptionGroup([socket, interval, bus])])

    /// How long a request waits for the daemon's reply: one that does not answer (stopped, or
    /// stuck) ends the following (exit 0, with a line) instead of holding kiosk-hud-progress.service
    /// for ever. 60 s: a busy boot delays a daemon's reply by seconds (under QEMU's emulation,
    /// during the display's switch from efifb to its driver, more than 10 s), and the bar is the
    /// boot's ornament, not worth failing a unit (a degraded system) for.
    static let replyTimeout = 60.0

    /// Follows the boot on `client`'s daemon until the boot is finished or the daemon ends.
    public static func run(_ client: DaemonClient, _ a: ParsedArguments) throws {
        let address = a.string(.bus) ?? SystemdManager.privateBus
        let every = try a.double(.interval) ?? 0.25
        var manager: SystemdManager? = try open(address)
        writeLine("follow-boot: following systemd's boot progress at \(address) every \(every) s", to: 1)
        var steps = BootProgress()
        var sent = 0
        var failedSince: Double?
        while true {
            var reading: Double?
            do throws(SystemdManager.Failure) {
                let m: SystemdManager
                if let open = manager { m = open } else { m = try SystemdManager(address: address) }
                manager = m
                reading = try m.progress()
                failedSince = nil
            } catch {
                // The manager went away (a daemon-reexec): connect again, for a few seconds.
                manager = nil
                let now = monotonicSeconds()
                if let since = failedSince, now - since > 5 { throw fail(error) }
                failedSince = failedSince ?? now
            }
            switch reading.map({ steps.next($0) }) ?? .wait {
            case .wait: break
            case let .send(p):
                guard try send(p, client) else { return ended(sent) }
                sent += 1
            case .finish:
                guard try send(1, client) else { return ended(sent) }
                writeLine("follow-boot: the boot is finished; \(sent + 1) updates sent", to: 1)
                return
            }
            // Wait on the daemon's connection, so that its end is noticed at once.
            do throws(DaemonClient.Failure) { _ = try client.nextEvent(timeout: every) } catch {
                if case .timedOut = error { continue }
                if gone(error) { return ended(sent) }
                throw error
            }
        }
    }

    static func ended(_ sent: Int) { writeLine("follow-boot: the daemon has ended; \(sent) updates sent", to: 1) }

    static func open(_ address: String) throws -> SystemdManager {
        do { return try SystemdManager(address: address) } catch { throw fail(error) }
    }

    /// One `update` with progress `p` (and mode bar when the HUD's mode does not show
    /// progress). False when the daemon has gone, or did not answer within `replyTimeout`.
    static func send(_ p: Double, _ client: DaemonClient) throws(DaemonClient.Failure) -> Bool {
        do {
            let mode = try client.request(.status, [], timeout: replyTimeout)["content"]?["mode"]?.string ?? ""
            var fields: [(String, JSONValue)] = [("progress", .number(p))]
            if !(HUDMode(rawValue: mode)?.showsProgress ?? false) { fields.append(("mode", .string("bar"))) }
            try client.request(.update, fields, timeout: replyTimeout)
            return true
        } catch {
            if gone(error) { return false }
            if case .timedOut = error {
                writeLine("follow-boot: the daemon did not answer within \(Int(replyTimeout)) s; no longer following", to: 1)
                return false
            }
            throw error
        }
    }

    /// Whether a failure is the daemon's end: its connection closed or broken.
    static func gone(_ f: DaemonClient.Failure) -> Bool {
        if case .connectionLost = f { return true }
        return false
    }

    static func fail(_ f: SystemdManager.Failure) -> Error {
        writeLine("Error: \(f)", to: 2)
        if case .permissionDenied = f { return ExitCode(77) }
        return ExitCode(noManager)
    }
}

/// The options declared here, by name (see KioskCLI's OptionKey).
extension OptionKey {
    public static let bus = OptionKey("bus")
    public static let interval = OptionKey("interval")
}
