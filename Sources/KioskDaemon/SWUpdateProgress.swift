import Glibc
import KioskSeams
import KioskHUD
import KioskProtocol
import KioskSettings
import KioskSys

/// The daemon as a client of SWUpdate's progress socket (`--swupdate`): connected and read
/// without blocking on the daemon's loop, through the `Kernel` seam; the bytes decoded by
/// `SWUpdateDecoder`, what they mean decided by `SWUpdateMachine`, and its actions carried out
/// on the `Daemon`. Beside it, SWUpdate's control socket (`sockinstctrl`, in the same
/// directory) as a subscriber of its notifications (`SWUpdateNotification`), for a failure's
/// reason. With `--show-when-updating` the display is let go between updates (`Screen.suspend`)
/// and taken back for one. When SWUpdate is not there (not started yet, restarted, stopped) it tries
/// again every `retryInterval` seconds: one log line an outage.
///
/// Both sockets are believed only when `SWUpdateTrust` vouches for them (the listener root or
/// the daemon's own user, the socket file too, not a symbolic link): SWUpdate's default
/// directory is /tmp, where any user may bind the name first. One that is not is closed unread,
/// logged (`RepeatLog`: one line, then a count), and tried again as a missing SWUpdate is.
public final class SWUpdateProgress: UpdateSource {
    /// The socket's file name (SWUpdate's `SOCKET_PROGRESS_DEFAULT`).
    public static let socketName = "swupdateprog"
    /// Seconds between connection attempts while SWUpdate is away.
    public static let retryInterval: Seconds = 1
    /// Bytes read a turn (a few messages), so that a flood leaves room for frames.
    static let chunk = 8192, chunksPerTurn = 4
    /// Reads at most to catch up with the notifications before a failure (a socket buffer's worth).
    static let chunksToDrain = 64
    /// Seconds a refusal's repeats are counted before one line says how many: a squatter is
    /// met at every retry (each second), so the control socket's 10 s would still be a line
    /// every 10 s for as long as it stays; a minute keeps the log readable and still says it goes on.
    static let refusalLogWindow: Seconds = 60

    /// Where SWUpdate puts its progress socket, as its `get_prog_socket()` computes it for a
    /// SWUpdate built without a fixed path: SWUpdate 2024.05 and later use /run/swupdate when
    /// that directory is there (under systemd, `RuntimeDirectory=swupdate`), else — and
    /// Debian 12's 2022.12 always — $TMPDIR, else /tmp (Debian 12's swupdate.socket listens on
    /// /tmp/swupdateprog). SWUpdate's own $RUNTIME_DIRECTORY is not ours to read (ours is
    /// kiosk-hud's unit's): give --swupdate=PATH when it differs.
    public static func defaultPath(tmpdir: String?, runDirectoryExists: Bool) -> String {
        if runDirectoryExists { return "/run/swupdate/" + socketName }
        let dir = tmpdir.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return dir + "/" + socketName
    }

    let kernel: Kernel
    let loop: EventLoop
    let daemon: Daemon
    /// The socket's path; nil: the default, looked up at each attempt.
    let fixedPath: String?
    let log: (String) -> Void
    public private(set) var machine: SWUpdateMachine
    private var fd: Int32?
    private var token: LoopToken?
    private var retryTimer: LoopToken?
    private var decoder = SWUpdateDecoder()
    /// The control socket's subscription (nil: none now).
    private var notifyFD: Int32?
    private var notifyToken: LoopToken?
    private var notifyDecoder = SWUpdateNotificationDecoder()
    /// The notifications could not be had (logged once a run).
    private var notifyTroubleLogged = false
    private var buffer = [UInt8](repeating: 0, count: SWUpdateProgress.chunk)
    /// This outage was logged.
    private var outageLogged = false
    private var closed = false
    /// Messages read, and connections made (`ctl status`).
    public private(set) var messages = 0, connections = 0
    /// SWUpdate's notifications read (its control socket).
    public private(set) var notifications = 0
    /// Sockets closed unread because `trust` did not vouch for them (`ctl status`).
    public private(set) var refusals = 0
    /// Who may listen on SWUpdate's sockets.
    let trust: SWUpdateTrust
    /// The refusals' log lines: one a kind, then a count (a squatter is met at every retry).
    private let refusalLog: RepeatLog<SWUpdateSocket>

    /// Starts following SWUpdate at `path` (nil: the default) for `daemon`'s HUD on `loop`.
    /// `trust`: who may listen on SWUpdate's sockets (nil: root and this process's effective
    /// user, `SWUpdateTrust.daemon(kernel:)`).
    public init(path: String?, options: SWUpdateMachine.Options, daemon: Daemon, kernel: Kernel, loop: EventLoop,
                trust: SWUpdateTrust? = nil, log: @escaping (String) -> Void) {
        self.kernel = kernel; self.loop = loop; self.daemon = daemon; self.fixedPath = path; self.log = log
        self.trust = trust ?? .daemon(kernel: kernel)
        refusalLog = RepeatLog(loop: loop, window: SWUpdateProgress.refusalLogWindow, log: log) { socket in
            "swupdate: refused \(socket)"
        }
        machine = SWUpdateMachine(options: options)
        if options.showWhenUpdating {
            // Hidden between updates, the display is let go (as Plymouth's deactivate does):
            // the kiosk app has it, and the HUD takes it back for an update only.
            daemon.session.screen.suspend()
            daemon.session.addObserver { [weak self] event in
                if case .hud(.hidden, _) = event { self?.stepAsideBetweenUpdates() }
            }
        }
        connect()
    }

    /// The HUD went away (an end notice's time is up): the display is let go until the next
    /// update, unless one runs (or SWUpdate went away during one: its note stays).
    private func stepAsideBetweenUpdates() {
        guard !closed, machine.options.showWhenUpdating, machine.state != .updating, machine.state != .lost else { return }
        daemon.session.screen.suspend()
    }

    /// The path tried now.
    public var path: String {
        fixedPath ?? SWUpdateProgress.defaultPath(tmpdir: environmentValue("TMPDIR"),
                                                  runDirectoryExists: (try? kernel.fileStatus("/run/swupdate"))?.kind == .directory)
    }

    /// Connected to SWUpdate now.
    public var isConnected: Bool { fd != nil }

    /// `ctl status`'s `"swupdate"` object: the state, the socket, whether connected.
    public var statusFields: [(String, JSONValue)] {
        [("state", .string(machine.state.rawValue)), ("socket", .string(path)), ("connected", .bool(isConnected)),
         ("messages", .number(Double(messages))), ("notifications", .number(Double(notifications))),
         ("subscribed", .bool(notifyFD != nil)), ("refusals", .number(Double(refusals)))]
    }

    /// While followed, SWUpdate is the daemon's source (`status`'s `source` is `swupdate`, its
    /// state `swupdate.state`), whether an update runs or not.
    public var source: DaemonSource { .swupdate }
    public var drivesTheHUD: Bool { true }
    /// `status`'s `"swupdate"` entry (`statusFields`).
    public var statusEntry: (String, JSONValue) { ("swupdate", .object(JSONObject(statusFields))) }

    /// Why the socket `s`, just connected at `path`, is not SWUpdate's to believe (nil: it is).
    /// The listener is asked first — SO_PEERCRED names the process that bound what `connect`
    /// reached, which no later rename changes — then the file at `path` without following a
    /// symbolic link (lstat): a user's link to a root-owned socket would reach a root listener.
    private func refusal(_ s: Int32, path: String) -> SWUpdateRefusal? {
        let peer: PeerCredentials, file: FileStatus
        do { peer = try kernel.peerCredentials(s) } catch { return .unknown("\(error)") }
        if let r = trust.refusal(peer: peer) { return r }
        do { file = try kernel.linkStatus(path) } catch { return .unknown("\(error)") }
        return trust.refusal(file: file)
    }

    /// Closes `s` unread and logs why (rate-limited): it is then treated as SWUpdate not being
    /// there, so the daemon serves on and tries again (the squatter may go, SWUpdate may come).
    private func refuse(_ s: Int32, _ socket: SWUpdateSocket, path: String, _ why: SWUpdateRefusal) {
        kernel.close(s)
        refusals += 1
        let then = socket == .progress ? "trying again as while SWUpdate is away" : "a failure's notice comes without its reason"
        refusalLog.write(socket, "swupdate: refused \(socket) \(path): \(why); not believed, \(then)")
    }

    private func connect() {
        retryTimer = nil
        guard !closed else { return }
        let p = path
        do {
            let s = try kernel.connectUnixWithoutWaiting(p)
            if let why = refusal(s, path: p) {
                refuse(s, .progress, path: p, why)
                scheduleRetry()
                return
            }
            fd = s
            connections += 1
            decoder = SWUpdateDecoder()
            // After a version this daemon does not read, quiet: its one line was logged.
            if machine.state != .unsupported {
                outageLogged = false
                log("swupdate: following \(p)")
            }
            perform(machine.handle(.connected, now: loop.now))
            token = loop.watch(s, .readable) { [unowned self] _ in self.read() }
            subscribe(progressPath: p)
        } catch {
            if !outageLogged {
                outageLogged = true
                log("swupdate: waiting for SWUpdate's progress socket \(p) (\(error)); trying every \(formatSeconds(SWUpdateProgress.retryInterval)) s")
            }
            scheduleRetry()
        }
    }

    private func scheduleRetry() {
        guard retryTimer == nil, !closed else { return }
        retryTimer = loop.schedule(after: SWUpdateProgress.retryInterval) { [weak self] in self?.connect() }
    }

    private func read() {
        guard let s = fd else { return }
        for _ in 0..<SWUpdateProgress.chunksPerTurn {
            let n: Int
            do { n = try kernel.read(s, into: &buffer) } catch {
                if error.errno == EAGAIN || error.errno == EWOULDBLOCK { return }
                lost("\(error)")
                return
            }
            if n == 0 { lost("SWUpdate closed the connection"); return }
            let outputs = decoder.feed(buffer[..<n])
            // SWUpdate writes an error's notification before the failure's progress message:
            // whatever of them it sent is here by now, and is read first (the loop may well have
            // turned to this socket before the other).
            if outputs.contains(where: { if case let .message(m) = $0 { m.status == .failure } else { false } }) {
                readNotifications(chunks: SWUpdateProgress.chunksToDrain)
            }
            for output in outputs {
                switch output {
                case let .message(m):
                    messages += 1
                    perform(machine.handle(.message(m), now: loop.now))
                case let .unsupported(version):
                    let wasUnsupported = machine.state == .unsupported
                    let actions = machine.handle(.unsupported(version: version), now: loop.now)
                    if !wasUnsupported { perform(actions) }
                    disconnect()
                    outageLogged = true   // nothing more to say until it speaks a version we read
                    scheduleRetry()
                    return
                }
            }
            if n < buffer.count { return }
        }
    }

    private func lost(_ why: String) {
        disconnect()
        log("swupdate: lost SWUpdate's progress socket (\(why)); reconnecting")
        outageLogged = true
        perform(machine.handle(.disconnected, now: loop.now))
        scheduleRetry()
    }

    private func disconnect() {
        if let t = token { loop.cancel(t) }
        token = nil
        if let s = fd { kernel.close(s) }
        fd = nil
        unsubscribe()
    }

    // MARK: Notifications

    /// The control socket beside the progress socket.
    static func controlPath(progressPath: String) -> String {
        guard let slash = progressPath.lastIndex(of: "/") else { return "sockinstctrl" }
        return String(progressPath[...slash]) + "sockinstctrl"
    }

    private func subscribe(progressPath: String) {
        let p = SWUpdateProgress.controlPath(progressPath: progressPath)
        do {
            let s = try kernel.connectUnixWithoutWaiting(p)
            // Not SWUpdate's: no reasons (the failure notice comes without one, as when the
            // socket is missing) rather than a stranger's words on the HUD; asked again at the
            // next connection to the progress socket, as a missing one is.
            if let why = refusal(s, path: p) { return refuse(s, .control, path: p, why) }
            let request = SWUpdateNotification.subscription
            let sent = try request.withUnsafeBytes { b throws(SysError) in try kernel.sendWithoutWaiting(s, b) }
            notifyFD = s
            notifyDecoder = SWUpdateNotificationDecoder()
            notifyToken = loop.watch(s, .readable) { [unowned self] _ in self.readNotifications() }
            if sent != request.count { notifyTrouble("\(p): the request did not fit") }
        } catch {
            notifyTrouble("\(p): \(error)")
        }
    }

    private func notifyTrouble(_ why: String) {
        unsubscribe()
        guard !notifyTroubleLogged else { return }
        notifyTroubleLogged = true
        log("swupdate: no notifications from SWUpdate's control socket (\(why)): a failure's notice comes without its reason")
    }

    private func unsubscribe() {
        if let t = notifyToken { loop.cancel(t) }
        notifyToken = nil
        if let s = notifyFD { kernel.close(s) }
        notifyFD = nil
    }

    /// Reads what the control socket has, `chunks` reads at most.
    private func readNotifications(chunks: Int = SWUpdateProgress.chunksPerTurn) {
        guard let s = notifyFD else { return }
        for _ in 0..<chunks {
            let n: Int
            do { n = try kernel.read(s, into: &buffer) } catch {
                if error.errno == EAGAIN || error.errno == EWOULDBLOCK { return }
                notifyTrouble("\(error)")
                return
            }
            // SWUpdate going away closes both sockets: the progress socket's end says so.
            if n == 0 { unsubscribe(); return }
            for output in notifyDecoder.feed(buffer[..<n]) {
                switch output {
                case .acknowledged: break
                case let .notification(note):
                    notifications += 1
                    perform(machine.handle(.notification(note), now: loop.now))
                case .refused: notifyTrouble("not SWUpdate's records, or refused"); return
                }
            }
            if n < buffer.count { return }
        }
    }

    /// Stops following SWUpdate (the daemon's run ends).
    public func close() {
        closed = true
        disconnect()
        if let t = retryTimer { loop.cancel(t) }
        retryTimer = nil
        refusalLog.close()
    }

    private func perform(_ actions: [SWUpdateMachine.Action]) {
        for a in actions {
            do {
                switch a {
                case .show:
                    daemon.session.screen.resume()
                    _ = try daemon.handle(.show(animated: true))
                case let .progress(label, details, value):
                    // Bar unless the HUD's mode shows progress already, as every source of
                    // progress does (psplash, Plymouth, RAUC, follow-boot, run).
                    var fields: [(String, SettingValue)] = [("label", .text(label)), ("details", .text(details)),
                                                            ("progress", .number(value)), ("button", .text(""))]
                    if !daemon.session.configuration.content.mode.showsProgress { fields.insert(("mode", .text(HUDMode.bar.rawValue)), at: 0) }
                    try daemon.apply(fields)
                case let .details(text):
                    try daemon.apply([("details", .text(text))])
                case let .success(text): _ = try daemon.handle(.notice(.success, text: text, duration: nil))
                case let .failure(text): _ = try daemon.handle(.notice(.error, text: text, duration: nil))
                case let .log(line): log(line)
                }
            } catch {
                log("swupdate: \(error)")
            }
        }
    }
}

/// One of SWUpdate's two sockets, as a refusal names it.
public enum SWUpdateSocket: Hashable, Sendable, CustomStringConvertible {
    /// `swupdateprog`: the progress messages.
    case progress
    /// `sockinstctrl`: the notifications (a failure's reason).
    case control

    public var description: String {
        switch self {
        case .progress: "SWUpdate's progress socket"
        case .control: "SWUpdate's control socket"
        }
    }
}

/// Why a socket of SWUpdate's was not believed.
public enum SWUpdateRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// The process listening is another user's.
    case listener(uid: UInt32, pid: Int32)
    /// The file at the path is another user's.
    case fileOwner(UInt32)
    /// The path is not a socket itself (a symbolic link, most likely: who owns what it names
    /// is not who put it there).
    case notASocket(FileKind)
    /// The listener or the file could not be asked (SO_PEERCRED, lstat): not vouched for.
    case unknown(String)

    public var description: String {
        switch self {
        case let .listener(uid, pid): "its listener is uid \(uid) (pid \(pid)), not root or this daemon's user"
        case let .fileOwner(uid): "the socket file is owned by uid \(uid), not root or this daemon's user"
        case let .notASocket(kind): "the path is \(kind), not a socket"
        case let .unknown(why): "who listens cannot be told (\(why))"
        }
    }
}

/// Who may speak as SWUpdate on its sockets (pure): the process listening and the socket file
/// both belong to a trusted user. SWUpdate runs as root; the daemon's own effective user is
/// trusted too so that a daemon run as an ordinary user (development) can follow a SWUpdate
/// of its own — the control socket likewise accepts the daemon's own user. The file's mode is
/// not asked: who may connect to SWUpdate is SWUpdate's business, and no mode of the socket
/// lets another user replace it (the directory decides that, and the listener check catches
/// a replacement whatever the directory).
public struct SWUpdateTrust: Equatable, Sendable {
    /// The trusted user IDs.
    public var users: Set<UInt32>

    public init(users: Set<UInt32>) { self.users = users }

    /// Root and this process's effective user.
    public static var daemon: SWUpdateTrust { daemon(kernel: LinuxKernel()) }

    /// Root and this process's effective user, as `kernel` tells it.
    public static func daemon(kernel: any Kernel) -> SWUpdateTrust { SWUpdateTrust(users: [0, kernel.effectiveUserID()]) }

    /// Why the listener `peer` is not trusted, or nil.
    public func refusal(peer: PeerCredentials) -> SWUpdateRefusal? {
        users.contains(peer.uid) ? nil : .listener(uid: peer.uid, pid: peer.pid)
    }

    /// Why the file at the socket's path (lstat's, not followed) is not trusted, or nil.
    public func refusal(file: FileStatus) -> SWUpdateRefusal? {
        // A symbolic link is refused whoever owns it: its owner is whoever made the link, and
        // the socket it names may be anyone's (the daemon's own control socket, say).
        guard file.kind == .socket else { return .notASocket(file.kind) }
        return users.contains(file.ownerID) ? nil : .fileOwner(file.ownerID)
    }
}

/// "1", "0.5": seconds as a log line says them.
private func formatSeconds(_ s: Double) -> String {
    s == s.rounded() ? String(Int(s)) : String(s)
}
