// `--wait-display` in process: the daemon on a `PendingScreen` over the fake kernel (no card
// yet), its control socket real. A drm uevent with the card now there → the display opened
// and the first frame drawn with what the requests set meanwhile; no uevent → the wait gives
// up after its seconds with the last reason; requests are answered while waiting.
import Glibc
import KioskBoards
import KioskDaemon
import KioskSeams
import KioskDRM
import KioskFakeKernel
import KioskHUD
import KioskProtocol
import KioskSession
import KioskSys
import KioskTestSupport
import KioskText
import Testing

/// A daemon whose display does not exist yet: the fake kernel has no card until `cardAppears`.
final class WaitRig {
    let dir = Proc.makeTempDir("kiosk-wait")
    let kernel = FakeKernel.card()
    let clock = SystemClock()
    let loop: PollEventLoop
    let pending = PendingScreen()
    let session: HUDSession
    let daemon: Daemon
    let socket: ControlSocket
    let server: ControlServer
    var wait: ScreenWait!
    var opened: Screen?
    var gaveUp: String?
    var firstFrame: Double?

    init(seconds: Double) throws {
        kernel.cardPaths = []
        loop = PollEventLoop(kernel: kernel, clock: clock)
        let content = HUDContent(mode: .bar, progress: 0.1, label: "Starting")
        var settings = HUDSettings.defaults
        settings.content = content
        session = HUDSession(loop: loop, screen: pending, fonts: try FontLibrary(), clock: clock,
                             configuration: SessionConfiguration(content: content))
        daemon = Daemon(session: session, settings: settings) { _ in throw RequestError("no pictures here") }
        socket = try ControlSocket.open(dir + "/c.sock", group: nil)
        server = ControlServer(kernel: loop.kernel, loop: loop, listener: socket.fd, daemon: daemon, access: AccessRule(group: nil), log: { _ in })
        session.addObserver { [unowned self] e in if case let .firstFrame(t) = e { self.firstFrame = t } }
        try session.start()
        let k = kernel, p = pending
        wait = ScreenWait(
            kernel: k, loop: loop, seconds: seconds, reason: "no DRM device (/dev/dri/card*)",
            attempt: {
                var o = DRMOptions()
                o.vt = false
                do { return .opened(try DRMScreen(options: o, kernel: k)) } catch { return .notYet("\(error)") }
            },
            opened: { [unowned self] s in self.opened = s; try? p.adopt(s) },
            gaveUp: { [unowned self] why in self.gaveUp = why })
        try wait.start()
    }

    deinit {
        wait.cancel()
        server.close()
        socket.close()
        pending.close(retain: false)
        _ = Proc.run(["rm", "-rf", dir])
    }

    /// The kernel makes card0 and says so on the uevent socket, as drm_dev_register does.
    func cardAppears() {
        kernel.cardPaths = ["card0"]
        kernel.ueventsQueued.append(Array("add@/devices/pci0000:00/0000:00:02.0/drm/card0\0ACTION=add\0DEVPATH=/devices/pci0000:00/0000:00:02.0/drm/card0\0SUBSYSTEM=drm\0DEVNAME=dri/card0\0MAJOR=226\0MINOR=0\0".utf8))
    }

    func run(_ seconds: Double, until done: () -> Bool) throws {
        let end = monotonicSeconds() + seconds
        while !done() && monotonicSeconds() < end { try loop.runOnce(timeout: 0.01) }
    }

    /// One request and its reply, the loop running meanwhile.
    func ask(_ line: String) throws -> JSONObject? {
        try askOnce(dir + "/c.sock", line) { try run($0, until: $1) }
    }
}


@Suite(.serialized) struct WaitDisplayTests {
    /// Requests while there is no display are answered and change the state; the card's uevent
    /// opens the display, and its first frame shows that state.
    @Test func aUeventBringsTheDisplayAndTheFirstFrame() throws {
        let rig = try WaitRig(seconds: 30)
        try rig.run(0.1) { false }
        #expect(rig.opened == nil && rig.session.displays.isEmpty && rig.firstFrame == nil)
        let update = try rig.ask(request("update", "\"progress\":0.4,\"label\":\"Mounting\""))
        #expect(update?["ok"]?.bool == true, "\(update.map { JSON.encode(.object($0)) } ?? "no reply")")
        let status = try rig.ask(request("status"))
        #expect(status?["content"]?["label"]?.string == "Mounting" && status?["content"]?["progress"]?.double == 0.4)
        #expect(rig.kernel.count("uevent socket") == 1 && rig.kernel.masterFD == nil)

        rig.cardAppears()
        try rig.run(5) { rig.firstFrame != nil }
        #expect(rig.opened != nil, "the uevent did not open the display")
        #expect(rig.firstFrame != nil, "no first frame after the display appeared")
        #expect(rig.wait.finished && rig.wait.drmUevents == 1 && rig.wait.attempts == 3, "attempts \(rig.wait.attempts)")
        #expect(rig.session.displays.count == 1)
        let hud = try #require(rig.session.primaryHUD)
        #expect(hud.content.label == "Mounting" && hud.content.progress == 0.4 && hud.content.mode == .bar)
        #expect(rig.kernel.setCRTCs >= 1, "nothing was put on the CRTC")
        #expect(rig.gaveUp == nil)
        // The wait's socket is closed; the screen's own is open.
        #expect(rig.kernel.count("uevent socket") == 2)
        let after = try rig.ask(request("status"))
        #expect(after?["visible"]?.bool == true)
    }

    /// No display within the seconds: the wait gives up once, with the last reason, and stops
    /// listening; the socket answered meanwhile.
    @Test func theWaitGivesUpAfterItsSeconds() throws {
        let rig = try WaitRig(seconds: 0.3)
        let t0 = monotonicSeconds()
        #expect(try rig.ask(request("ping"))?["ok"]?.bool == true)
        try rig.run(3) { rig.gaveUp != nil }
        let waited = monotonicSeconds() - t0
        #expect(rig.gaveUp == "no DRM device (/dev/dri/card*)", "\(rig.gaveUp ?? "nil")")
        #expect(waited >= 0.3 && waited < 2.5, "gave up after \(waited) s")
        #expect(rig.opened == nil && rig.wait.finished)
        // A card that comes afterwards is not the wait's business any more.
        rig.cardAppears()
        try rig.run(0.2) { false }
        #expect(rig.opened == nil)
        #expect(rig.kernel.ueventFD < 0 || !rig.kernel.openFDs.contains(rig.kernel.ueventFD), "the uevent socket is still open")
    }

    /// Other subsystems' uevents (an input device) do not make an attempt; simpledrm is passed
    /// over while waiting.
    @Test func onlyDRMUeventsMakeAnAttempt() throws {
        let rig = try WaitRig(seconds: 30)
        try rig.run(0.1) { false }
        let before = rig.wait.attempts
        rig.kernel.ueventsQueued.append(Array("add@/devices/virtual/input/input3\0ACTION=add\0SUBSYSTEM=input\0".utf8))
        try rig.run(0.2) { false }
        #expect(rig.wait.attempts == before && rig.wait.drmUevents == 0)

        rig.kernel.cardPaths = ["card0"]
        rig.kernel.driverName = "simpledrm"
        var o = DRMOptions()
        o.vt = false
        o.ignoredDrivers = ["simpledrm"]
        #expect(throws: ScreenError.noCard("no usable DRM card: /dev/dri/card0: simpledrm passed over")) {
            _ = try DRMScreen(options: o, kernel: rig.kernel)
        }
    }
}
