import Glibc
import KioskProtocol
import KioskSeams
import KioskSettings
import KioskSys

/// The Plymouth front end of a daemon run (`daemon --plymouth`): the socket's name (asked for
/// before the display is touched, as plymouthd binds it first), the server, the controller, and
/// the boot estimate's file.
///
/// Plymouth's name is an abstract socket's, which any user may bind first: a name that is taken
/// does not stop the daemon (it did: a squatter could keep the splash from ever coming). The
/// daemon runs on without it, `ctl status` says why (`"plymouth": {"socket": "unavailable: …"}`),
/// and `PlymouthListener` asks for the name again on the loop until it is free.
public final class PlymouthFrontEnd {
    /// Where Plymouth keeps its boot estimate (`--plymouth-boot-duration`'s default).
    public static let defaultDurationPath = "/var/lib/plymouth/boot-duration"

    /// Plymouth's socket: held, or asked for again.
    public let socket: PlymouthListener
    let kernel: Kernel
    let log: (String) -> Void
    public var name: String { socket.name }
    /// Where the estimate is kept (nil: none).
    public let durationPath: String?
    private var estimate: BootEstimate?
    public private(set) var server: PlymouthServer?
    public private(set) var splash: PlymouthSplash?
    private var closed = false

    /// Asks for the abstract socket `socketName` (now, or again on the loop while taken) and
    /// reads the estimate at `durationPath` (nil: no estimate).
    public init(socketName: String, durationPath: String?, kernel: Kernel, log: @escaping (String) -> Void) {
        self.kernel = kernel; self.log = log
        self.durationPath = durationPath
        socket = PlymouthListener(name: socketName, kernel: kernel)
        if let p = durationPath { estimate = BootEstimate(previous: PlymouthFrontEnd.previousBoot(p, kernel: kernel, log: log)) }
    }

    /// `ctl status`'s `"plymouth"` object: the socket's state ("listening", or "unavailable:
    /// why") and the controller's fields; nil before the front end is attached.
    public var statusFields: [(String, JSONValue)]? {
        guard let splash else { return nil }
        return [("socket", .string(socket.statusText))] + splash.statusFields
    }

    /// Last boot's messages from the estimate file; none when it is missing or not readable
    /// (the log says why, but for a first boot).
    static func previousBoot(_ path: String, kernel: Kernel, log: (String) -> Void) -> [String: Double] {
        do {
            let previous = try BootEstimate.parse(try kernel.readFileBytes(path, limit: BootEstimate.maxCacheBytes))
            log("plymouth: boot estimate from \(path): \(previous.count) messages of the last boot")
            return previous
        } catch let e as SysError where e.errno == ENOENT {
            log("plymouth: no boot estimate yet (\(path)); expecting \(formatNumber(BootEstimate.defaultDuration)) s")
        } catch {
            log("plymouth: not using \(path): \(error)")
        }
        return [:]
    }

    /// Starts serving `daemon`'s HUD on `loop` (through the kernel the socket was made with);
    /// `quit` ends the run (retain the last frame or not).
    public func attach(daemon: Daemon, loop: EventLoop, quit: @escaping (Bool) -> Void) {
        let splash = PlymouthSplash(daemon: daemon, estimate: estimate, log: log)
        splash.onQuit = quit
        self.splash = splash
        // The controller runs with or without the socket: `--plymouth-mode` goes through it, and
        // requests find it as soon as the name is held.
        socket.start(loop: loop, log: log) { [unowned self] listener in
            self.server = PlymouthServer(kernel: self.kernel, loop: loop, listener: listener, log: self.log) { splash.handle($0, order: $1) }
            self.log("plymouth: listening on @\(self.name)")
        }
    }

    /// The run ends: no more requests (a quit waiting for its reply keeps its connection until
    /// `close`), and the estimate written for the next boot.
    public func detach() {
        server?.stopListening()
        socket.close()
        guard let splash, let text = splash.finish(), let path = durationPath else { return }
        do {
            if let slash = path.lastIndex(of: "/"), slash != path.startIndex { try kernel.makeDirectories(String(path[..<slash])) }
            try kernel.replaceFile(path, with: Array(text.utf8))
            log("plymouth: boot estimate written to \(path)")
        } catch {
            log("plymouth: cannot write the boot estimate: \(error)")
        }
    }

    /// Acknowledges a waiting quit and closes everything (safe to call twice).
    public func close() {
        guard !closed else { return }
        closed = true
        if let s = server {
            s.close(answeringHeld: .ack)
            log("plymouth: \(s.served) requests, \(s.refused) refused, \(s.malformed) cut for bad framing, \(s.dropped) dropped, \(s.turnedAway) turned away")
        }
        socket.close()
    }
}
