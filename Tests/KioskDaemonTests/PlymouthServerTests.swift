// The Plymouth front end in process: a real event loop, a real abstract socket (a name of the
// test's own), the session on an offscreen display that notes when each frame went out and what
// its details line said. Requests in order, bad clients, limits, deactivate and stepping aside,
// the held quit, systemd's connect-write-close burst, the progress through the estimate.
import Glibc
import KioskBoards
import KioskDaemon
import KioskSeams
import KioskTestDoubles
import KioskHUD
import KioskProtocol
import KioskRaster
import KioskSession
import KioskSettings
import KioskSys
import KioskTestSupport
import KioskText
import Testing

/// Each present's time and the details line shown then (an offscreen display's `onPresent`).
final class PresentNotes {
    var note: () -> String = { "" }
    private let lock = NSLockLike()
    private var noted: [(time: Double, details: String)] = []
    func add() {
        let d = note()
        lock.locked { noted.append((monotonicSeconds(), d)) }
    }
    var presents: [(time: Double, details: String)] { lock.locked { noted } }
}

/// The front end on its own abstract socket.
final class PlymouthRig {
    nonisolated(unsafe) static var serial = 0
    let name: String
    let clock = SystemClock()
    let loop: PollEventLoop
    let notes: PresentNotes
    let screen: OffscreenScreen
    let session: HUDSession
    let daemon: Daemon
    let splash: PlymouthSplash
    let listener: FileDescriptor
    let server: PlymouthServer
    var quit: Bool?
    let logLines: Shared<[String]>

    /// `language`: the profile's words put in it (`BoardProfile.localize`), as the daemon does.
    init(content: HUDContent = HUDContent(mode: .text, label: "Booting"), estimate: BootEstimate? = nil, language: Language? = nil) throws {
        PlymouthRig.serial += 1
        name = "/kiosk-hud-test/\(getpid())/\(PlymouthRig.serial)"
        loop = PollEventLoop(clock: clock)
        let offscreen = try OffscreenDisplay(width: 320, height: 240)
        let n = PresentNotes()
        notes = n
        offscreen.onPresent = { n.add() }
        screen = OffscreenScreen(offscreen)
        var settings = HUDSettings.defaults
        settings.content = content
        if let language { settings.words = settings.profile.localize(system: language) }
        var timing = settings.profile.timing
        timing.animationDuration = 0
        session = HUDSession(loop: loop, screen: screen, fonts: try FontLibrary(), clock: clock,
                             configuration: SessionConfiguration(content: content, timing: timing))
        daemon = Daemon(session: session, settings: settings) { _ in throw RequestError("no pictures here") }
        splash = PlymouthSplash(daemon: daemon, estimate: estimate)
        listener = try unixAbstractListener(name, backlog: PlymouthServer.backlog)
        let s = splash
        let lines = Shared<[String]>([])
        logLines = lines
        server = PlymouthServer(kernel: loop.kernel, loop: loop, listener: listener.rawValue, log: { l in lines.set { $0.append(l) } }) { s.handle($0, order: $1) }
        splash.onQuit = { [unowned self] in self.quit = $0 }
        notes.note = { [unowned session] in session.configuration.content.details }
        try session.start()
    }

    deinit {
        server.close()
        try? listener.close()
    }

    var details: String { session.configuration.content.details }

    func run(_ seconds: Double = 1, until done: () -> Bool = { false }) throws {
        let end = monotonicSeconds() + seconds
        while !done() && monotonicSeconds() < end { try loop.runOnce(timeout: 0.01) }
    }
}

/// A raw client on the abstract socket: bytes out, replies in, non-blocking.
final class PlymouthRawClient {
    let fd: Int32
    var decoder = PlymouthReplyDecoder()
    init(_ name: String) throws {
        fd = try unixAbstractConnection(name).rawValue
        _ = fcntl(fd, F_SETFL, O_NONBLOCK)
    }
    deinit { Glibc.close(fd) }

    @discardableResult
    func send(_ bytes: [UInt8]) -> Int { bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
    func send(_ requests: [PlymouthRequest]) throws { for r in requests { send(try r.frame().bytes) } }

    /// Replies so far, after running the rig's loop until `count` came (or `seconds` passed).
    func replies(_ rig: PlymouthRig, count: Int, seconds: Double = 2) throws -> [PlymouthReply] {
        var out: [PlymouthReply] = []
        try rig.run(seconds) {
            var b = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = Glibc.read(fd, &b, b.count)
                if n <= 0 { break }
                decoder.append(b[..<n])
            }
            while let r = try? decoder.next() { out.append(r) }
            return out.count >= count
        }
        return out
    }

    var isClosed: Bool {
        var b: UInt8 = 0
        return Glibc.recv(fd, &b, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0
    }
}

/// Values shared with client threads.
final class Shared<T>: @unchecked Sendable {
    private let lock = NSLockLike()
    private var value: T
    init(_ v: T) { value = v }
    func get() -> T { lock.locked { value } }
    func set(_ f: (inout T) -> Void) { lock.locked { f(&value) } }
}

func median(_ xs: [Double]) -> Double { xs.isEmpty ? .nan : xs.sorted()[xs.count / 2] }
func percentile(_ xs: [Double], _ p: Double) -> Double { xs.isEmpty ? .nan : xs.sorted()[min(xs.count - 1, Int(Double(xs.count) * p))] }

@Suite(.serialized) struct PlymouthServerTests {
    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let rig = try PlymouthRig()
        let c = try PlymouthRawClient(rig.name)
        c.send(try PlymouthRequest.ping.frame().bytes + PlymouthRequest.status("NetworkManager.service").frame().bytes
               + Array("z\0".utf8) + PlymouthRequest.changeMode(.updates).frame().bytes + PlymouthRequest.showMessage("Hi").frame().bytes
               + PlymouthRequest.ping.frame().bytes)
        #expect(try c.replies(rig, count: 6) == [.ack, .ack, .nak, .ack, .ack, .ack])
        #expect(rig.details == "Starting NetworkManager.service…")
        #expect(rig.session.configuration.content.label == "Hi")
        #expect(rig.session.configuration.content.mode == .bar)
        #expect(rig.splash.mode == .updates)
        try c.send([.hideMessage("Hi")])
        #expect(try c.replies(rig, count: 1) == [.ack])
        #expect(rig.session.configuration.content.label == "Installing updates…")
        #expect(rig.daemon.settings.content.label == "Installing updates…", "the control protocol's status sees it too")
    }

    @Test func badFramingIsRefusedAndTheConnectionClosed() throws {
        let rig = try PlymouthRig()
        let bad = try PlymouthRawClient(rig.name), good = try PlymouthRawClient(rig.name)
        bad.send(Array("P\0P\u{1}P\0".utf8))
        #expect(try bad.replies(rig, count: 2) == [.ack, .nak])
        try rig.run(0.2) { bad.isClosed }
        #expect(bad.isClosed && rig.server.malformed == 1)
        try good.send([.ping])
        #expect(try good.replies(rig, count: 1) == [.ack])
    }

    @Test func aClientThatNeverReadsIsDropped() throws {
        let rig = try PlymouthRig()
        let lazy = try PlymouthRawClient(rig.name)
        var size: Int32 = 4096
        setsockopt(lazy.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        let pings = [UInt8](repeating: 0, count: 20000).enumerated().map { $0.offset % 2 == 0 ? UInt8(ascii: "P") : 0 }
        // Pings until the server gives up on it (a loaded machine takes more turns to fill the
        // queue: sends are non-blocking and the server reads a bounded amount a turn).
        let end = monotonicSeconds() + 10
        while rig.server.dropped == 0 && monotonicSeconds() < end { lazy.send(pings); try rig.run(0.02) }
        #expect(rig.server.dropped == 1)
        let c = try PlymouthRawClient(rig.name)
        try c.send([.ping])
        #expect(try c.replies(rig, count: 1) == [.ack])
    }

    @Test func atMostSixtyFourConnections() throws {
        let rig = try PlymouthRig()
        var idle: [PlymouthRawClient] = []
        for _ in 0..<PlymouthServer.maxClients { idle.append(try PlymouthRawClient(rig.name)) }
        try rig.run(0.2) { rig.server.clientCount == PlymouthServer.maxClients }
        #expect(rig.server.clientCount == PlymouthServer.maxClients)
        let extra = try PlymouthRawClient(rig.name)
        #expect(try extra.replies(rig, count: 1) == [.nak])
        try rig.run(0.2) { extra.isClosed }
        #expect(extra.isClosed && rig.server.turnedAway == 1)
        idle.removeAll()
        try rig.run(0.5) { rig.server.clientCount == 0 }
        let c = try PlymouthRawClient(rig.name)
        try c.send([.ping])
        #expect(try c.replies(rig, count: 1) == [.ack])
    }

    /// `deactivate` lets the display go and keeps the state: a status then changes it but is
    /// not drawn; `reactivate` draws it.
    @Test func deactivateKeepsTheStateAndReactivateDrawsIt() throws {
        let rig = try PlymouthRig()
        let c = try PlymouthRawClient(rig.name)
        try c.send([.deactivate])
        #expect(try c.replies(rig, count: 1) == [.ack])
        try rig.run(0.05)
        #expect(rig.screen.isSuspended && !rig.screen.isActive)
        let before = rig.notes.presents.count
        try c.send([.status("late.service")])
        #expect(try c.replies(rig, count: 1) == [.ack])
        try rig.run(0.2)
        #expect(rig.details == "Starting late.service…" && rig.notes.presents.count == before && rig.screen.isSuspended,
                "a status does not end a deactivate")
        try c.send([.reactivate])
        #expect(try c.replies(rig, count: 1) == [.ack])
        try rig.run(0.5) { rig.notes.presents.last?.details == "Starting late.service…" }
        #expect(!rig.screen.isSuspended && rig.notes.presents.last?.details == "Starting late.service…")
    }

    /// A password, question or keystroke is refused at once (the agent falls back to the
    /// console), and the HUD steps aside until the next status or progress.
    @Test(arguments: [PlymouthRequest.password(prompt: "Passphrase for /dev/sda2"), .cachedPassword, .question(prompt: "Continue?"),
                      .watchKeystroke(keys: "\u{3}")])
    func aQuestionIsRefusedAtOnceAndTheHUDStepsAside(_ question: PlymouthRequest) throws {
        let rig = try PlymouthRig()
        let c = try PlymouthRawClient(rig.name)
        try c.send([.pauseProgress])
        #expect(try c.replies(rig, count: 1) == [.ack])
        // "At once" is counted in loop turns, not timed: the request is already in the socket
        // when the loop turns, so one turn that does not wait must read it and answer it — no
        // timer, no later turn. (A 10 ms bound here failed twice beside the whole run's guests.)
        for _ in 0..<5 {
            try c.send([question])
            try rig.loop.runOnce(timeout: 0)
            #expect(try c.replies(rig, count: 1, seconds: 0) == [.nak], "NAK in the turn that read \(question.name)")
        }
        try rig.run(0.05)
        #expect(rig.screen.isSuspended && rig.splash.steppedAside)
        try c.send([.systemUpdate(30)])
        #expect(try c.replies(rig, count: 1) == [.ack])
        try rig.run(0.05)
        #expect(!rig.screen.isSuspended && !rig.splash.steppedAside, "back at the next progress")
        #expect(rig.session.configuration.content.mode == .bar && rig.session.configuration.content.progress == 0.3)
    }

    @Test func quitIsAcknowledgedOnceTheDisplayIsLetGo() throws {
        let rig = try PlymouthRig()
        let c = try PlymouthRawClient(rig.name)
        try c.send([.quit(retain: true), .ping])
        #expect(try c.replies(rig, count: 1, seconds: 0.3).isEmpty, "no reply before the display is let go")
        #expect(rig.quit == true)
        rig.server.stopListening()
        rig.server.close(answeringHeld: .ack)
        var b = [UInt8](repeating: 0, count: 16)
        let n = Glibc.read(c.fd, &b, b.count)
        #expect(n == 1 && b[0] == 0x06, "the quit's ACK; the request after it is not answered")
    }

    @Test func theOffscreenScreenHasNoVT() throws {
        let rig = try PlymouthRig()
        let c = try PlymouthRawClient(rig.name)
        try c.send([.hasActiveVT, .reportError, .systemInitialized, .newRoot("/root"), .reload, .ignoreKeystroke(keys: "x")])
        #expect(try c.replies(rig, count: 6) == [.nak, .ack, .ack, .ack, .ack, .ack])
    }

    /// A burst of statuses in one write: the details line changes a few times, not 50, and the
    /// last status is the one shown.
    @Test func aBurstOfStatusesIsRateLimited() throws {
        let rig = try PlymouthRig()
        let c = try PlymouthRawClient(rig.name)
        try c.send((0..<50).map { PlymouthRequest.status("unit-\($0).service") })
        #expect(try c.replies(rig, count: 50).count == 50)
        try rig.run(0.5) { rig.details == "Starting unit-49.service…" }
        #expect(rig.details == "Starting unit-49.service…")
        #expect(rig.splash.statusesShown <= 3, "\(rig.splash.statusesShown) details lines for 50 statuses")
    }

    /// `ctl follow-boot`'s progress goes through the boot estimate in boot-up mode (never
    /// backwards), and as it is in the other modes.
    @Test func aClientsProgressGoesThroughTheEstimate() throws {
        let rig = try PlymouthRig(content: HUDContent(mode: .bar, label: "Booting"), estimate: BootEstimate())
        func update(_ p: Double) throws {
            _ = try rig.daemon.handle(try DaemonRequest(JSONObject([("v", .number(1)), ("op", .string("update")), ("progress", .number(p))])))
        }
        try update(0.7)
        #expect(rig.session.configuration.content.progress == 0.7)
        try update(0.3)
        #expect(rig.session.configuration.content.progress == 0.7, "never backwards")
        try update(1)
        #expect(rig.session.configuration.content.progress == 1 && rig.splash.estimate?.finished == true)
        let c = try PlymouthRawClient(rig.name)
        try c.send([.changeMode(.updates), .systemUpdate(20)])
        #expect(try c.replies(rig, count: 2) == [.ack, .ack])
        try update(0.1)
        #expect(rig.session.configuration.content.progress == 0.1, "outside boot-up, as the client says")
    }

    /// The estimate moves the bar by itself in boot-up mode.
    @Test func theEstimateMovesTheBar() throws {
        var e = BootEstimate(previous: ["a.service": 0.5])
        e.status("a.service", at: 0.5)   // the boot is expected to take about a second
        let rig = try PlymouthRig(content: HUDContent(mode: .bar, label: "Booting"), estimate: e)
        try rig.run(1) { rig.session.configuration.content.progress > 0.3 }
        let p = rig.session.configuration.content.progress
        #expect(p > 0.3 && p < BootEstimate.cap)
        #expect(rig.splash.finish()?.hasPrefix("0.") == true)
    }

    /// Plymouth's name held by another socket (anyone may bind an abstract name first): the
    /// listener says why and logs it once however often it asks again; once the name is free
    /// it takes it, and Plymouth's clients reach the front end.
    @Test func aSquattedNameIsAskedForAgainUntilFree() throws {
        let rig = try PlymouthRig()
        let name = rig.name + "/squatted"
        let squatter = try unixAbstractListener(name, backlog: 1)
        let listener = PlymouthListener(name: name, kernel: rig.loop.kernel, retryInterval: 0.05)
        defer { listener.close() }
        #expect(listener.state == .unavailable(.taken(name: name)) && listener.fd == nil)
        #expect(listener.statusText.hasPrefix("unavailable: @\(name) is taken by another process"), "\(listener.statusText)")
        var lines: [String] = []
        var server: PlymouthServer?
        listener.start(loop: rig.loop, log: { lines.append($0) }) { fd in
            server = PlymouthServer(kernel: rig.loop.kernel, loop: rig.loop, listener: fd, log: { _ in }) { rig.splash.handle($0, order: $1) }
        }
        try rig.run(0.4)
        #expect(listener.attempts >= 4 && server == nil)
        #expect(lines.count == 1 && lines[0].contains("running without Plymouth's socket"), "\(lines)")
        try squatter.close()
        try rig.run(1) { server != nil }
        #expect(listener.state == .listening && listener.statusText == "listening")
        #expect(lines.count == 2 && lines[1].contains("is free again"), "\(lines)")
        let c = try PlymouthRawClient(name)
        try c.send([.ping])
        #expect(try c.replies(rig, count: 1) == [.ack])
        server?.close()
    }

    /// A name that is free is held at once, and `start` hands it over without a log line.
    @Test func aFreeNameIsHeldAtOnce() throws {
        let rig = try PlymouthRig()
        let listener = PlymouthListener(name: rig.name + "/free", kernel: rig.loop.kernel)
        var handed: Int32?
        var lines: [String] = []
        listener.start(loop: rig.loop, log: { lines.append($0) }) { handed = $0 }
        #expect(listener.state == .listening && handed != nil && handed == listener.fd && lines.isEmpty && listener.attempts == 1)
        listener.close()
        listener.close()
        #expect(listener.fd == nil)
    }

    /// A user who is not root gets NAK for each request (Plymouth's rule), by SO_PEERCRED.
    @Test func aStrangerIsRefused() throws {
        let rig = try PlymouthRig()
        let box = ResultBox()
        let copy = try StrangerCopy([Proc.kioskHUD])   // the checkout may be out of nobody's reach
        try spawnDetachedThread { [name = rig.name, binary = copy.path(Proc.kioskHUD)] in
            box.set(Proc.run(Stranger.command + [binary, "plymouth", "--socket", name, "--ping"]))
        }
        try rig.run(10) { box.get() != nil }
        withExtendedLifetime(copy) {}
        #expect(box.get()?.status == 1, "\(String(describing: box.get()))")
        #expect(rig.server.refused == 1 && rig.server.served == 0)
        let c = try PlymouthRawClient(rig.name)
        try c.send([.ping])
        #expect(try c.replies(rig, count: 1) == [.ack])
    }

    /// systemd's PID 1 writes each unit it starts as it does — a non-blocking socket, one
    /// request, closed without reading — 500 of them in a burst (and spread over a second, as a
    /// boot does), while another client pings: every status is delivered, pings are answered
    /// quickly, and the last status is the one on screen. Measures the request → frame
    /// presented latency and the redraws per second.
    @Test(arguments: [0, 2000])
    func systemdsBurstOfUnits(pacingMicroseconds: Int) throws {
        let rig = try PlymouthRig()
        let count = 500
        let sent = Shared<[Int: Double]>([:])
        let failures = Shared<[Int32]>([])
        let done = Shared(false)
        let pings = Shared<[Double]>([])
        try spawnDetachedThread { [name = rig.name] in
            for i in 0..<count {
                if pacingMicroseconds > 0 { usleep(UInt32(pacingMicroseconds)) }
                let fd: FileDescriptor
                do throws(SysError) { fd = try unixAbstractConnection(name, nonBlocking: true) } catch {
                    failures.set { $0.append(error.errno) }
                    continue   // EAGAIN: the accept queue is full; PID 1 drops the status too
                }
                let bytes = (try? PlymouthRequest.status("unit-\(i).service").frame().bytes) ?? []
                let t = monotonicSeconds()
                let n = bytes.withUnsafeBytes { Glibc.write(fd.rawValue, $0.baseAddress, $0.count) }
                try? fd.close()
                if n == bytes.count { sent.set { $0[i] = t } }
            }
            done.set { $0 = true }
        }
        try spawnDetachedThread { [name = rig.name] in
            while !done.get() {
                guard let c = try? PlymouthClient(name: name) else { continue }
                let t = monotonicSeconds()
                if (try? c.send(.ping)) == .ack { pings.set { $0.append(monotonicSeconds() - t) } }
                usleep(5000)
            }
        }
        try rig.run(20) { done.get() }
        let delivered = sent.get()
        try rig.run(2) { rig.notes.presents.last?.details == "Starting unit-\(count - 1).service…" }
        #expect(delivered.count == count && failures.get().isEmpty, "every status delivered: \(failures.get().count) connects refused")
        #expect(rig.server.served >= delivered.count)
        #expect(rig.details == "Starting unit-\(count - 1).service…", "the last status wins")
        #expect(rig.notes.presents.last?.details == "Starting unit-\(count - 1).service…")
        // Latency: from a status's write to the first frame that shows it or a later one.
        let presents = rig.notes.presents.compactMap { p -> (Double, Int)? in
            guard p.details.hasPrefix("Starting unit-"), let i = Int(p.details.dropFirst(14).prefix { $0.isNumber }) else { return nil }
            return (p.time, i)
        }
        var latencies: [Double] = []
        for (i, t) in delivered {
            if let p = presents.first(where: { $0.1 >= i && $0.0 >= t }) { latencies.append(p.0 - t) }
        }
        let first = delivered.values.min() ?? 0, window = (presents.last?.0 ?? first) - first
        let ping = pings.get()
        let what = pacingMicroseconds == 0 ? "a burst" : "\(pacingMicroseconds) µs apart"
        print("plymouth: \(count) statuses, \(what), over \(Int(window * 1000)) ms: request → frame presented median \(Int(median(latencies) * 1000)) ms, p99 \(Int(percentile(latencies, 0.99) * 1000)) ms; \(presents.count) redraws (\(window > 0 ? Int((Double(presents.count) / window).rounded()) : 0)/s); \(ping.count) pings meanwhile, max \(Int((ping.max() ?? 0) * 1000)) ms")
        #expect(latencies.count == delivered.count)
        #expect(percentile(latencies, 0.99) < 0.5)
        #expect((ping.max() ?? 0) < 0.5, "the daemon stays responsive")
        #expect(presents.count <= Int(window / PlymouthSplash.statusInterval) + 2, "at most one redraw per \(PlymouthSplash.statusInterval) s")
    }

    /// The profile's words: a mode's label and a unit's status line in its language (German
    /// here), a label the profile gives as given.
    @Test func theLabelsAndTheUnitStatusInTheProfilesLanguage() throws {
        let rig = try PlymouthRig(language: .de)
        let c = try PlymouthRawClient(rig.name)
        // The unit's status in boot-up mode (the shutdown and reboot modes show none).
        try c.send([.status("ssh.service")])
        let statusReplies = try c.replies(rig, count: 1)
        #expect(statusReplies == [.ack])
        try rig.run(0.5) { rig.details == "ssh.service wird gestartet…" }
        #expect(rig.details == "ssh.service wird gestartet…")
        try c.send([.changeMode(.shutdown)])
        let modeReplies = try c.replies(rig, count: 1)
        #expect(modeReplies == [.ack])
        try rig.run(0.5) { rig.session.configuration.content.label == "Wird heruntergefahren…" }
        #expect(rig.session.configuration.content.label == "Wird heruntergefahren…")
    }
}
