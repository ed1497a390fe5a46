// The daemon in process: a real event loop and a real Unix socket in a temp directory, the
// offscreen screen, clients as plain sockets. Every request, every kind of bad client, the
// limits, events in order, psplash's FIFO.
import Glibc
import KioskBoards
import KioskDaemon
import KioskSeams
import KioskTestDoubles
import KioskHUD
import KioskProtocol
import KioskRaster
import KioskSession
import KioskSys
import KioskTestSupport
import KioskText
import Testing

/// A daemon on an offscreen display, its socket in a fresh directory.
final class DaemonRig {
    let dir = Proc.makeTempDir("kiosk-daemon")
    let clock = SystemClock()
    let loop: PollEventLoop
    let display: OffscreenDisplay
    let session: HUDSession
    let daemon: Daemon
    let socket: ControlSocket
    let server: ControlServer
    /// Every line the server logged.
    let logged = LogLines()
    var log: [String] { logged.lines }
    var quit: Bool?

    init(content: HUDContent = HUDContent(mode: .annular, progress: 0.2, label: "Booting"), access: AccessRule = AccessRule(group: nil),
         kernel: Kernel = LinuxKernel()) throws {
        loop = PollEventLoop(kernel: kernel, clock: clock)
        display = try OffscreenDisplay(width: 320, height: 240)
        var settings = HUDSettings.defaults
        settings.content = content
        session = HUDSession(loop: loop, screen: OffscreenScreen(display), fonts: try FontLibrary(), clock: clock,
                             configuration: SessionConfiguration(content: content))
        daemon = Daemon(session: session, settings: settings) { _ in throw RequestError("no pictures here") }
        socket = try ControlSocket.open(dir + "/c.sock", group: nil, kernel: kernel)
        let d = daemon
        server = ControlServer(kernel: loop.kernel, loop: loop, listener: socket.fd, daemon: d, access: access, log: { [logged] in logged.lines.append($0) })
        daemon.onQuit = { [unowned self] in self.quit = $0 }
        try session.start()
    }

    deinit {
        server.close()
        socket.close()
        _ = Proc.run(["rm", "-rf", dir])
    }

    var path: String { dir + "/c.sock" }

    /// Runs the loop until `done` or `seconds` pass.
    func run(_ seconds: Double = 1, until done: () -> Bool = { false }) throws {
        let end = monotonicSeconds() + seconds
        while !done() && monotonicSeconds() < end { try loop.runOnce(timeout: 0.01) }
    }
}

/// Lines a server logged (shared with its log closure).
final class LogLines {
    var lines: [String] = []
}

/// A raw client: lines in and out, non-blocking.
final class RawClient {
    let fd: Int32
    var input: [UInt8] = []
    init(_ path: String) throws {
        fd = try unixConnection(path).rawValue
        _ = fcntl(fd, F_SETFL, O_NONBLOCK)
    }
    deinit { Glibc.close(fd) }

    func send(_ text: String) { _ = Array(text.utf8).withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }

    /// Lines received so far (each a JSON object), after running the rig's loop for a while.
    func lines(_ rig: DaemonRig, count: Int, seconds: Double = 2) throws -> [JSONObject] {
        var out: [JSONObject] = []
        try rig.run(seconds) {
            var b = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = Glibc.read(fd, &b, b.count)
                if n <= 0 { break }
                input += b[..<n]
            }
            while let nl = input.firstIndex(of: 0x0A) {
                if case let .object(o)? = try? JSON.parse(input[..<nl]) { out.append(o) }
                input.removeSubrange(...nl)
            }
            return out.count >= count
        }
        return out
    }

    /// Whether the daemon closed this connection.
    var isClosed: Bool {
        var b: UInt8 = 0
        return Glibc.recv(fd, &b, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0
    }
}

/// A child's result handed from the thread that waits for it.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLockLike()
    private var value: (status: Int32, out: String, err: String)?
    func set(_ v: (status: Int32, out: String, err: String)) { lock.locked { value = v } }
    func get() -> (status: Int32, out: String, err: String)? { lock.locked { value } }
}

/// A pthread mutex (the tests avoid Foundation).
final class NSLockLike: @unchecked Sendable {
    private var m = pthread_mutex_t()
    init() { pthread_mutex_init(&m, nil) }
    func locked<T>(_ body: () -> T) -> T { pthread_mutex_lock(&m); defer { pthread_mutex_unlock(&m) }; return body() }
}

func request(_ op: String, _ more: String = "") -> String { "{\"v\":1,\"op\":\"\(op)\"\(more.isEmpty ? "" : "," + more)}\n" }

@Suite(.serialized) struct DaemonTests {
    @Test func everyRequestIsAnsweredInOrder() throws {
        let rig = try DaemonRig()
        let c = try RawClient(rig.path)
        let reqs = [request("ping", "\"id\":7"), request("update", "\"progress\":0.5,\"label\":\"Step 2\",\"animated\":true"),
                    request("style", "\"theme\":\"dark\",\"margin\":12"), request("hide", "\"animated\":false"), request("show"),
                    request("push"), request("pop"), request("info", "\"text\":\"Hello\",\"duration\":0.2"), request("status")]
        for r in reqs { c.send(r) }
        let replies = try c.lines(rig, count: reqs.count)
        #expect(replies.count == reqs.count)
        #expect(replies.allSatisfy { $0["ok"]?.bool == true && $0["v"]?.int == 1 }, "\(replies.map { JSON.encode(.object($0)) })")
        #expect(replies[0]["id"]?.int == 7 && replies[0]["version"]?.int == 1)
        let status = try #require(replies.last)
        #expect(status["content"]?["label"]?.string == "Hello" && status["content"]?["mode"]?.string == "text")
        #expect(status["style"]?["theme"]?.string == "dark" && status["style"]?["margin"]?.double == 12)
        #expect(rig.session.primaryHUD?.style.margin == 12)
        // Which backend draws (docs/protocol.md): the rig's screen is the offscreen one.
        #expect(status["screen"]?.string == "offscreen", "\(JSON.encode(.object(status)))")
        // info hides itself after its duration.
        try rig.run(1) { !rig.session.isVisible }
        #expect(!rig.session.isVisible)
    }

    @Test func successUsesSVProgressHUDsTiming() {
        #expect(Daemon.displayDuration(for: "Done") == 5)
        #expect(abs(Daemon.displayDuration(for: String(repeating: "x", count: 100)) - 6.5) < 1e-9)
    }

    static let bad: [(String, String)] = [
        ("garbage\n", "not JSON: at byte 0: invalid literal \"garbage\" (expected a value)"),
        ("[1,2]\n", "a request is a JSON object"),
        ("{\"op\":\"ping\"}\n", "missing \"v\" (the protocol version, 1)"),
        ("{\"v\":2,\"op\":\"ping\"}\n", "unsupported protocol version 2; this daemon speaks 1"),
        ("{\"v\":1}\n", "missing \"op\" (one of ping, show, hide, update, style, success, error, info, push, pop, press, status, subscribe, quit, new_root, adopt or overlay)"),
        (request("fly"), "unknown op \"fly\"; expected ping, show, hide, update, style, success, error, info, push, pop, press, status, subscribe, quit, new_root, adopt or overlay"),
        (request("update", "\"progress\":5"), "progress 5: expected a fraction from 0 to 1"),
        (request("update", "\"mode\":\"wobbly\""), "mode \"wobbly\": expected indeterminate, determinate, annular, bar, text, custom, success or error"),
        (request("update", "\"theme\":\"dark\""), "update: unknown field \"theme\""),
        (request("style", "\"label\":\"x\""), "style: unknown field \"label\""),
        (request("update", "\"mode\":\"custom\""), "mode custom needs an image"),
        (request("hide", "\"delay\":-1"), "delay -1: expected seconds from 0 to 86400"),
        (request("success"), "success: missing \"text\""),
        (request("subscribe", "\"events\":[\"boom\"]"), "events: \"boom\" is not one of button, tap_outside, hidden, display_lost, display_regained, displays_changed, input_added, input_removed or changed"),
        ("{\"v\":1,\"op\":\"ping\",\"op\":\"ping\"}\n", "not JSON: at byte 19: duplicate key \"op\""),
        (request("update", "\"label\":\"" + String(repeating: "x", count: 2000) + "\""), "label \"" + String(repeating: "x", count: 79) + "…: expected text of at most 1024 bytes"),
    ]

    /// Each malformed or refused request gets an error reply, and the same connection goes on.
    @Test(arguments: bad)
    func badRequestsGetAReasonAndTheConnectionGoesOn(_ line: String, _ error: String) throws {
        let rig = try DaemonRig()
        let c = try RawClient(rig.path)
        c.send(line)
        c.send(request("ping"))
        let replies = try c.lines(rig, count: 2)
        #expect(replies.count == 2)
        #expect(replies.first?["ok"]?.bool == false)
        #expect(replies.first?["error"]?.string == error)
        #expect(replies.last?["ok"]?.bool == true)
    }

    /// A line over 64 KiB (here 10 MB) is answered once and the connection closed; others go on.
    @Test func hugeLinesAndHalfLinesNeverHurt() throws {
        let rig = try DaemonRig()
        let big = try RawClient(rig.path)
        let half = try RawClient(rig.path)
        half.send("{\"v\":1,\"op\":\"upd")
        let chunk = String(repeating: "x", count: 1 << 20)
        for _ in 0..<10 { big.send(chunk); try rig.run(0.02) }
        let r = try big.lines(rig, count: 1)
        #expect(r.first?["error"]?.string == "request longer than 65536 bytes; closing the connection")
        try rig.run(0.2)
        #expect(big.isClosed)
        withExtendedLifetime(half) {}
        let c = try RawClient(rig.path)
        c.send(request("ping"))
        #expect(try c.lines(rig, count: 1).first?["ok"]?.bool == true)
    }

    /// A client that never reads is dropped once its replies pile up; the daemon goes on.
    @Test func aClientThatNeverReadsIsDropped() throws {
        let rig = try DaemonRig()
        let lazy = try RawClient(rig.path)
        var size: Int32 = 4096
        setsockopt(lazy.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        let many = String(repeating: request("status"), count: 400)
        for _ in 0..<10 { lazy.send(many); try rig.run(0.05) }
        try rig.run(0.5) { rig.server.dropped > 0 }
        #expect(rig.server.dropped == 1)
        let c = try RawClient(rig.path)
        c.send(request("ping"))
        #expect(try c.lines(rig, count: 1).first?["ok"]?.bool == true)
    }

    /// 32 clients at once are served; the 33rd gets one refusal line and is closed.
    @Test func atMost32Clients() throws {
        let rig = try DaemonRig()
        var clients: [RawClient] = []
        for _ in 0..<32 { clients.append(try RawClient(rig.path)) }
        try rig.run(0.2)
        #expect(rig.server.clientCount == 32)
        let extra = try RawClient(rig.path)
        let r = try extra.lines(rig, count: 1)
        #expect(r.first?["error"]?.string == "too many clients (32)")
        for c in clients { c.send(request("ping")) }
        var answered = 0
        for c in clients { answered += try c.lines(rig, count: 1).count }
        #expect(answered == 32)
    }

    /// Subscribers get the events they asked for, in order; others get none.
    @Test func eventsReachSubscribersInOrder() throws {
        let rig = try DaemonRig(content: HUDContent(mode: .annular, label: "x", buttonTitle: "Cancel", buttonHasAction: true))
        let sub = try RawClient(rig.path), other = try RawClient(rig.path)
        sub.send(request("subscribe", "\"events\":[\"button\",\"hidden\"]"))
        _ = try sub.lines(rig, count: 1)
        let input = ScriptedInput()
        try rig.session.attachInput(input)
        let b = try #require(rig.session.primaryHUD?.renderer.layout.button)
        let now = rig.clock.now
        input.tap(x: b.midX, y: b.midY, at: now + 0.05)
        let server = rig.server
        rig.session.addObserver { e in
            if case .hud(.buttonPressed, _) = e { server.publish(.button) }
            if case .hud(.hidden, _) = e { server.publish(.hidden) }
        }
        try rig.run(0.3)
        other.send(request("hide", "\"animated\":false"))
        _ = try other.lines(rig, count: 1)
        let events = try sub.lines(rig, count: 2)
        #expect(events.map { $0["event"]?.string } == ["button", "hidden"])
        #expect(try other.lines(rig, count: 1, seconds: 0.2).isEmpty)
    }

    /// A peer that is not root, the daemon's user, in its group or allowed is refused by its
    /// credentials (the socket is world-writable here so that only SO_PEERCRED stands in the way).
    @Test func aStrangerIsRefused() throws {
        let rig = try DaemonRig()
        try setMode(rig.path, 0o666)
        try setMode(rig.dir, 0o755)
        let start = rig.server.refused
        let box = ResultBox()
        let copy = try StrangerCopy([Proc.kioskHUD])   // the checkout may be out of nobody's reach
        try spawnDetachedThread { [path = rig.path, binary = copy.path(Proc.kioskHUD)] in
            box.set(Proc.run(Stranger.command + [binary, "ctl", "ping", "--socket", path]))
        }
        try rig.run(10) { box.get() != nil }
        withExtendedLifetime(copy) {}
        let result = box.get()
        #expect(result?.status == 77, "\(String(describing: result))")
        #expect(result?.err.contains("permission denied: uid 65534") == true, "\(result?.err ?? "")")
        #expect(rig.server.refused == start + 1)
    }

    /// Only one daemon per socket; a socket file left by a crash does not stop a new one.
    @Test func oneDaemonPerSocketAndStaleFilesAreReplaced() throws {
        let rig = try DaemonRig()
        #expect(throws: SysError.self) { _ = try ControlSocket.open(rig.path, group: nil) }
        let stale = rig.dir + "/stale.sock"
        let s = try unixListener(stale, backlog: 1)
        try s.close()   // the file stays, nobody listens: what a crash leaves
        let again = try ControlSocket.open(stale, group: nil)
        again.close()
        #expect(!fileExists(stale))
    }

    /// psplash-write's way: open the FIFO write-only, non-blocking, write each command and its NUL.
    @Test func psplashWritersMoveTheHUD() throws {
        let rig = try DaemonRig()
        var got: [PsplashFIFO.Command] = []
        let fifo = try PsplashFIFO(path: rig.dir + "/psplash_fifo", kernel: rig.loop.kernel, loop: rig.loop, log: { _ in }) { got.append($0) }
        defer { fifo.close() }
        for cmd in ["PROGRESS 50", "MSG Starting network", "PROGRESS 250", "QUIT"] {
            let fd = open(rig.dir + "/psplash_fifo", O_WRONLY | O_NONBLOCK)
            #expect(fd >= 0)
            _ = Array((cmd + "\0").utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
            try rig.run(0.05)
        }
        try rig.run(0.5) { got.count >= 3 }
        #expect(got == [.progress(0.5), .message("Starting network"), .quit])
        #expect(PsplashFIFO.parse(Array("PROGRESS 7\n".utf8).dropLast().map { $0 }) == .progress(0.07))
    }
}
