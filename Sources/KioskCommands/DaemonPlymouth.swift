import Glibc
import KioskBoards
import KioskCLI
import KioskDaemon
import KioskSeams
import KioskProtocol
import KioskSettings
import KioskSys

extension DaemonParts {
    /// The daemon's options for Plymouth's socket (the settings of `[plymouth]` come with them).
    static let plymouthOptions: [OptionSpec] = [
        .flag(.plymouth, help: """
            Also answer on Plymouth's socket (the abstract \\0\(PlymouthWire.defaultSocketName)): the system's plymouth \
            command, systemd's PID 1 and the initramfs scripts drive the HUD unchanged (docs/plymouth.md). Only root may use it.
            """),
        OptionSpec(.plymouthSocket, value: "NAME", rule: .text(100, nonEmpty: true, "an abstract socket name"),
                   help: "Plymouth's abstract socket name, without the leading NUL. Default: \(PlymouthWire.defaultSocketName)."),
        OptionSpec(.plymouthBootDuration, value: "PATH", rule: .path, help: """
            Plymouth's boot estimate: read at start, written at quit after a boot (Plymouth's format); 'none': no \
            estimate. Default: \(PlymouthParts.defaultDurationPath).
            """),
        OptionSpec(.plymouthMode, value: "MODE", rule: .choice(PlymouthMode.allCases.map(\.rawValue)), help: """
            Start in this Plymouth mode, as plymouthd --mode does: the mode's label and HUD mode ([plymouth] MODE_label \
            and MODE_mode, e.g. shutdown_label) replace --label and --mode, and the bar starts at 0 outside boot-up. \
            With --plymouth it is Plymouth's mode too (plymouth change-mode changes it). The shutdown screens' units \
            run daemon --plymouth-mode shutdown (or reboot) --retain. Default: boot-up, with --label and --mode as given.
            """),
    ]

    /// `--plymouth-mode`, checked by its rule (Plymouth's modes only: a usage error names them)
    /// and typed; nil when not given.
    static func startMode(_ a: ParsedArguments) throws(UsageError) -> PlymouthMode? {
        try a.value(.plymouthMode).flatMap { PlymouthMode(rawValue: $0.string) }
    }
}

/// The Plymouth front end of a daemon run: the socket's name (asked for before the display is
/// touched, as plymouthd binds it first), the server, the controller, and the boot estimate's file.
///
/// Plymouth's name is an abstract socket's, which any user may bind first: a name that is taken
/// does not stop the daemon (it did: a squatter could keep the splash from ever coming). The
/// daemon runs on without it, `ctl status` says why (`"plymouth": {"socket": "unavailable: …"}`),
/// and `PlymouthListener` asks for the name again on the loop until it is free.
final class PlymouthParts {
    static let defaultDurationPath = "/var/lib/plymouth/boot-duration"

    /// Plymouth's socket: held, or asked for again.
    let socket: PlymouthListener
    let kernel: Kernel
    var name: String { socket.name }
    /// Where the estimate is kept (nil: none).
    let durationPath: String?
    private var estimate: BootEstimate?
    private(set) var server: PlymouthServer?
    private(set) var splash: PlymouthSplash?
    private var closed = false

    /// nil without --plymouth (its other options are then warned about: they change nothing).
    init?(_ a: ParsedArguments, kernel: Kernel) throws {
        guard a.flag(.plymouth) else {
            for o in ["plymouth-socket", "plymouth-boot-duration"] where a.given(o) { showLog("warning: --\(o) has no effect without --plymouth") }
            return nil
        }
        self.kernel = kernel
        let name = a.string(.plymouthSocket) ?? PlymouthWire.defaultSocketName
        guard !name.utf8.contains(0) else { throw UsageError(optionError("plymouth-socket", name, expected: "an abstract socket name")) }
        let path = a.string(.plymouthBootDuration) ?? PlymouthParts.defaultDurationPath
        durationPath = path == "none" ? nil : path
        socket = PlymouthListener(name: name, kernel: kernel)
        if let p = durationPath { estimate = BootEstimate(previous: PlymouthParts.previousBoot(p, kernel: kernel)) }
    }

    /// `ctl status`'s `"plymouth"` object: the socket's state ("listening", or "unavailable:
    /// why") and the controller's fields; nil before the front end is attached.
    var statusFields: [(String, JSONValue)]? {
        guard let splash else { return nil }
        return [("socket", .string(socket.statusText))] + splash.statusFields
    }

    /// Last boot's messages from the estimate file; none when it is missing or not readable
    /// (the log says why, but for a first boot).
    static func previousBoot(_ path: String, kernel: Kernel) -> [String: Double] {
        do {
            let previous = try BootEstimate.parse(try kernel.readFileBytes(path, limit: BootEstimate.maxCacheBytes))
            showLog("plymouth: boot estimate from \(path): \(previous.count) messages of the last boot")
            return previous
        } catch let e as SysError where e.errno == ENOENT {
            showLog("plymouth: no boot estimate yet (\(path)); expecting \(formatNumber(BootEstimate.defaultDuration)) s")
        } catch {
            showLog("plymouth: not using \(path): \(error)")
        }
        return [:]
    }

    /// Starts serving `daemon`'s HUD on `loop` (through the kernel the socket was made with);
    /// `quit` ends the run (retain the last frame or not).
    func attach(daemon: Daemon, loop: EventLoop, quit: @escaping (Bool) -> Void) {
        let splash = PlymouthSplash(daemon: daemon, estimate: estimate, log: showLog)
        splash.onQuit = quit
        self.splash = splash
        // The controller runs with or without the socket: `--plymouth-mode` goes through it, and
        // requests find it as soon as the name is held.
        socket.start(loop: loop, log: showLog) { [unowned self] listener in
            self.server = PlymouthServer(kernel: self.kernel, loop: loop, listener: listener, log: showLog) { splash.handle($0, order: $1) }
            showLog("plymouth: listening on @\(self.name)")
        }
    }

    /// The run ends: no more requests (a quit waiting for its reply keeps its connection until
    /// `close`), and the estimate written for the next boot.
    func detach() {
        server?.stopListening()
        socket.close()
        guard let splash, let text = splash.finish(), let path = durationPath else { return }
        do {
            if let slash = path.lastIndex(of: "/"), slash != path.startIndex { try kernel.makeDirectories(String(path[..<slash])) }
            try kernel.replaceFile(path, with: Array(text.utf8))
            showLog("plymouth: boot estimate written to \(path)")
        } catch {
            showLog("plymouth: cannot write the boot estimate: \(error)")
        }
    }

    /// Acknowledges a waiting quit and closes everything (safe to call twice).
    func close() {
        guard !closed else { return }
        closed = true
        if let s = server {
            s.close(answeringHeld: .ack)
            showLog("plymouth: \(s.served) requests, \(s.refused) refused, \(s.malformed) cut for bad framing, \(s.dropped) dropped, \(s.turnedAway) turned away")
        }
        socket.close()
    }
}

/// The options declared here, by name (see KioskCLI's OptionKey).
extension OptionKey {
    public static let plymouth = OptionKey("plymouth")
    public static let plymouthBootDuration = OptionKey("plymouth-boot-duration")
    public static let plymouthMode = OptionKey("plymouth-mode")
    public static let plymouthSocket = OptionKey("plymouth-socket")
}
