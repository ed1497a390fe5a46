// The initramfs's daemon told its new root while a page flip of its DRM screen is still in flight
// (docs/initramfs.md: on a board the root can be mounted while the display's first frames are
// still going out). In process, on a fake card whose flip-complete event the test holds back: the
// daemon is wired as `daemon --initramfs` wires it (DaemonParts, InitramfsDaemon), on a kernel
// whose chroot and execve are recorded, not made (this process is the test runner).
//
// Which buffer is "on screen" while a flip is in flight: once PAGE_FLIP has returned, the kernel
// has taken the new framebuffer as the CRTC's (the legacy ioctl sets plane->fb at once, an atomic
// driver swaps the plane's state at commit; GETCRTC names it, and RMFB of the old one no longer
// turns the CRTC off); the flip cannot be taken back, only its event is still to come. So the
// buffer handed to the next image is the one flipped to, and the one shown before is released —
// which is what `DRMScreen.handOff` does once its wait for the event (0.5 s) runs out. (The fake
// card shows the new framebuffer only when the flip completes: there the old one stays on its
// CRTC until the test releases the event.)
import Glibc
import KioskBoards
import KioskCLI
@testable import KioskCommands
import KioskDaemon
@testable import KioskDRM
import KioskFakeKernel
import KioskHUD
import KioskPresentation
import KioskProtocol
import KioskSeams
import KioskSession
import KioskSys
import KioskTestSupport
import KioskText
import Testing

/// A kernel that is `inner` (a fake card, the real system beside it) but for chroot and execve,
/// which are recorded: the new roots asked for, and each program image asked for with its
/// environment and the state file's bytes (read at the call, as the next image would). execve
/// fails (ENOEXEC), so the daemon goes on as after a failed `adopt`.
private final class ImageRecordingKernel: Kernel {
    let inner: FakeKernel
    private(set) var roots: [String] = []
    private(set) var images: [(path: String, environment: [String], state: [UInt8])] = []

    init(_ inner: FakeKernel) { self.inner = inner }

    func changeRoot(_ path: String) throws(SysError) { roots.append(path) }

    func replaceImage(_ path: String, arguments: [String], environment: [String]) -> SysError {
        var state: [UInt8] = []
        let prefix = DaemonResume.variable + "="
        if let v = environment.first(where: { $0.hasPrefix(prefix) }), let r = try? DaemonResume.decode(environment: String(v.dropFirst(prefix.count))),
           let fd = r.stateFD {
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = Glibc.pread(fd, &chunk, chunk.count, state.count)
                guard n > 0 else { break }
                state += chunk[..<n]
            }
        }
        images.append((path, environment, state))
        return SysError(call: "execve", errno: ENOEXEC, target: path)
    }

    func setCloseOnExec(_ fd: Int32, _ on: Bool) throws(SysError) {
        guard !inner.isFake(fd) else { return }
        try LinuxKernel().setCloseOnExec(fd, on)
    }

    // Everything else: the fake's.
    func open(_ path: String, flags: Int32, mode: UInt32) throws(SysError) -> Int32 { try inner.open(path, flags: flags, mode: mode) }
    func close(_ fd: Int32) { inner.close(fd) }
    func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SysError) -> Int { try inner.read(fd, into: buffer) }
    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SysError) -> Int { try inner.write(fd, bytes) }
    func ioctl(_ fd: Int32, _ request: UInt, _ arg: UnsafeMutableRawPointer?, name: String) throws(SysError) {
        try inner.ioctl(fd, request, arg, name: name)
    }
    func mmap(_ fd: Int32, length: Int, offset: Int) throws(SysError) -> UnsafeMutableRawPointer { try inner.mmap(fd, length: length, offset: offset) }
    func munmap(_ address: UnsafeMutableRawPointer, length: Int) { inner.munmap(address, length: length) }
    func status(_ fd: Int32) throws(SysError) -> FileStatus { try inner.status(fd) }
    func poll(_ fds: inout [pollfd], timeoutMs: Int32) throws(SysError) -> Int { try inner.poll(&fds, timeoutMs: timeoutMs) }
    func pread(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(SysError) -> Int {
        try inner.pread(fd, into: buffer, at: offset)
    }
    func setNonBlocking(_ fd: Int32) throws(SysError) { try inner.setNonBlocking(fd) }
    func pipe() throws(SysError) -> (read: Int32, write: Int32) { try inner.pipe() }
    func makeMemoryFile(_ name: String) throws(SysError) -> Int32 { try inner.makeMemoryFile(name) }
    func fileStatus(_ path: String) throws(SysError) -> FileStatus { try inner.fileStatus(path) }
    func linkStatus(_ path: String) throws(SysError) -> FileStatus { try inner.linkStatus(path) }
    func openRegularFile(_ path: String, as user: PeerCredentials?) throws(SysError) -> (fd: Int32, status: FileStatus) {
        try inner.openRegularFile(path, as: user)
    }
    func listDirectory(_ path: String) -> [String]? { inner.listDirectory(path) }
    func readTextFile(_ path: String) -> String? { inner.readTextFile(path) }
    func removeFile(_ path: String) throws(SysError) { try inner.removeFile(path) }
    func renameFile(_ from: String, to: String) throws(SysError) { try inner.renameFile(from, to: to) }
    func makeDirectories(_ path: String) throws(SysError) { try inner.makeDirectories(path) }
    func setMode(_ path: String, _ mode: UInt32) throws(SysError) { try inner.setMode(path, mode) }
    func setOwner(_ path: String, uid: UInt32?, gid: UInt32) throws(SysError) { try inner.setOwner(path, uid: uid, gid: gid) }
    func lockFile(_ path: String) throws(SysError) -> Int32 { try inner.lockFile(path) }
    func signalDescriptor(_ signals: [Int32], updating fd: Int32?) throws(SysError) -> Int32 {
        try inner.signalDescriptor(signals, updating: fd)
    }
    func unblockSignals(_ signals: [Int32]) { inner.unblockSignals(signals) }
    func isPending(_ signals: [Int32]) -> Bool { inner.isPending(signals) }
    func eventDescriptor() throws(SysError) -> Int32 { try inner.eventDescriptor() }
    func ueventDescriptor() throws(SysError) -> Int32 { try inner.ueventDescriptor() }
    func listenUnix(_ path: String, backlog: Int32) throws(SysError) -> Int32 { try inner.listenUnix(path, backlog: backlog) }
    func connectUnix(_ path: String) throws(SysError) -> Int32 { try inner.connectUnix(path) }
    func connectUnixWithoutWaiting(_ path: String) throws(SysError) -> Int32 { try inner.connectUnixWithoutWaiting(path) }
    func accept(_ fd: Int32) throws(SysError) -> Int32? { try inner.accept(fd) }
    func peerCredentials(_ fd: Int32) throws(SysError) -> PeerCredentials { try inner.peerCredentials(fd) }
    func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SysError) -> Int { try inner.send(fd, bytes) }
    func sendWithoutWaiting(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SysError) -> Int { try inner.sendWithoutWaiting(fd, bytes) }
    func connectUnixAbstract(_ name: String) throws(SysError) -> Int32 { try inner.connectUnixAbstract(name) }
    func activationSockets() -> [Int32] { inner.activationSockets() }
    func setSocketFileAccess(_ path: String, group: UInt32?, mode: UInt32) throws(SysError) {
        try inner.setSocketFileAccess(path, group: group, mode: mode)
    }
    func kill(_ pid: Int32, _ signal: Int32) throws(SysError) { try inner.kill(pid, signal) }
    func fork() throws(SysError) -> Int32 { try inner.fork() }
    func becomeKeeper(keeping: Set<Int32>) { inner.becomeKeeper(keeping: keeping) }
    func sleep(_ seconds: Double) { inner.sleep(seconds) }
    func setNice(_ nice: Int32) throws(SysError) { try inner.setNice(nice) }
    func exit(_ status: Int32) -> Never { inner.exit(status) }
    func spawn(_ request: SpawnRequest) throws(SysError) -> Int32 { try inner.spawn(request) }
    func processDescriptor(_ pid: Int32) throws(SysError) -> Int32 { try inner.processDescriptor(pid) }
}

/// `daemon --initramfs --mode bar` in process: a DRM screen on a fake card (one head, 64x48), the
/// session, and the daemon's parts on a control socket in a directory of its own.
private final class InFlightRig {
    let dir: String
    let card = FakeKernel.card(modes: [(64, 48, true)])
    let kernel: ImageRecordingKernel
    let loop: PollEventLoop
    let screen: DRMScreen
    let session: HUDSession
    let parts: DaemonParts
    /// The screen's log lines.
    final class Lines { var items: [String] = [] }
    let log: Lines
    var logs: [String] { log.items }
    var crtc: UInt32 { card.crtcIDs[0] }
    var socket: String { dir + "/run/c.sock" }

    init(_ name: String) throws {
        dir = Proc.makeTempDir("kiosk-newroot-\(name)")
        kernel = ImageRecordingKernel(card)
        loop = PollEventLoop(kernel: card, clock: SystemClock())
        var o = DRMOptions()
        o.vt = false
        let lines = Lines()
        log = lines
        o.log = { lines.items.append($0) }
        screen = try DRMScreen(options: o, kernel: card)
        let root = CommandSpec("kiosk-hud", abstract: KioskHUDCommandLine.abstract, subcommands: [DaemonCommand.spec])
        guard case let .run(_, a) = try parseCommandLine(["daemon", "--initramfs", "--socket", dir + "/run/c.sock", "--no-input",
                                                          "--mode", "bar", "--label", "Unlocking"], root: root) else {
            throw ShowError("not a run")
        }
        var settings = HUDSettings.defaults
        settings.content = HUDContent(mode: .bar, progress: 0.25, label: "Unlocking")
        var timing = PresentationConfig()
        timing.graceTime = 0
        session = HUDSession(loop: loop, screen: screen, fonts: try FontLibrary(), clock: SystemClock(),
                             configuration: SessionConfiguration(content: settings.content, timing: timing, animateIn: false))
        parts = try DaemonParts(a, kernel: kernel)
        try session.start()
        try parts.attach(session: session, loop: loop, kernel: kernel, screen: screen, settings: settings)
    }

    func close() {
        _ = parts.detach()
        screen.close(retain: false)
        _ = Proc.run(["rm", "-rf", dir])
    }

    func run(_ seconds: Double, until done: () -> Bool = { false }) throws {
        let end = monotonicSeconds() + seconds
        while !done() && monotonicSeconds() < end { try loop.runOnce(timeout: 0.01) }
    }

    /// One request line and its reply, on a connection of its own, the loop turning meanwhile.
    func ask(_ line: String) throws -> JSONObject? {
        try askOnce(socket, line) { try run($0, until: $1) }
    }

    func status() throws -> JSONObject? { try ask(#"{"v":1,"op":"status"}"#) }

    /// The first frame lit and nothing in flight; then the card holds every flip's completion
    /// back, and a label change queues one flip: the framebuffer shown before it, and the one in flight.
    func flipHeld(label: String) throws -> (shown: UInt32, inFlight: UInt32) {
        try run(3) { self.screen.drmDisplays.first?.frontBuffer != nil && !self.screen.anyFlipPending && self.card.crtcs[self.crtc]?.fb != self.card.consoleFB }
        try run(0.1)
        let shown = card.crtcs[crtc]?.fb ?? 0
        card.flipLatencyPolls = Int.max / 2
        let r = try ask(#"{"v":1,"op":"update","label":"\#(label)"}"#)
        #expect(r?["ok"]?.bool == true, "\(r.map { JSON.encode(.object($0)) } ?? "no reply")")
        try run(2) { self.card.pendingFlips[self.crtc] != nil }
        return (shown, card.pendingFlips[crtc]?.fb ?? 0)
    }

    /// The held flip completes at the next poll, its event readable after it.
    func releaseFlip() {
        card.flipLatencyPolls = 0
        if card.pendingFlips[crtc] != nil { card.pendingFlips[crtc]!.wait = 0 }
    }

    /// Our framebuffers on the card (the console's left out).
    var ourFramebuffers: [UInt32] { card.fbs.keys.filter { $0 != card.consoleFB }.sorted() }
}

@Suite(.serialized) struct InitramfsNewRootInFlightTests {
    /// `new_root` while a flip is in flight: answered at once (it neither waits for the flip nor
    /// touches the screen), the daemon's root is the new one; the flip's event, released after,
    /// lands as any other: the flipped buffer on screen, one flip, no second present, no modeset,
    /// no write into a buffer on screen, the same two buffers.
    @Test func newRootAnswersWhileAFlipIsInFlight() throws {
        guard getuid() == 0 else { print("InitramfsNewRootInFlightTests: not root (new_root is root's), skipped"); return }
        let rig = try InFlightRig("flight")
        defer { rig.close() }
        let (shown, inFlight) = try rig.flipHeld(label: "Mounting")
        #expect(shown != 0 && inFlight != 0 && shown != inFlight, "shown \(shown), in flight \(inFlight)")
        let buffers = rig.ourFramebuffers, dumbs = rig.card.dumbs.count
        let flips = rig.card.count("ioctl(DRM_IOCTL_MODE_PAGE_FLIP)"), done = rig.card.flipsDone, setCRTCs = rig.card.setCRTCs

        let newRoot = rig.dir + "/root"
        #expect(mkdir(newRoot, 0o755) == 0)
        let started = monotonicSeconds()
        let r = try rig.ask(#"{"v":1,"op":"new_root","path":"\#(newRoot)"}"#)
        #expect(r?["ok"]?.bool == true, "\(r.map { JSON.encode(.object($0)) } ?? "no reply")")
        #expect(monotonicSeconds() - started < 1, "new_root waited for the flip")
        #expect(rig.kernel.roots == [newRoot])
        #expect(rig.card.pendingFlips[rig.crtc]?.fb == inFlight && rig.screen.anyFlipPending, "new_root disturbed the flip in flight")
        #expect(rig.card.crtcs[rig.crtc]?.fb == shown && rig.card.setCRTCs == setCRTCs)
        let status = try rig.status()
        #expect(status?["initramfs"]?.string == "new-root" && status?["content"]?["label"]?.string == "Mounting", "\(String(describing: status))")

        // The event released: the flip lands once; nothing else goes out.
        rig.releaseFlip()
        try rig.run(2) { !rig.screen.anyFlipPending }
        try rig.run(0.2)
        #expect(!rig.screen.anyFlipPending)
        #expect(rig.card.crtcs[rig.crtc]?.fb == inFlight, "the flipped buffer is on screen")
        #expect(rig.screen.drmDisplays.first?.frontBuffer?.fbID == inFlight)
        #expect(rig.card.flipsDone == done + 1 && rig.card.count("ioctl(DRM_IOCTL_MODE_PAGE_FLIP)") == flips, "presented twice")
        #expect(rig.card.setCRTCs == setCRTCs, "a modeset")
        #expect(rig.card.scanoutWrites == 0 && rig.screen.flipTimeouts == 0)
        #expect(rig.ourFramebuffers == buffers && rig.card.dumbs.count == dumbs)
        // And the next frame flips back to the other buffer, as any other.
        _ = try rig.ask(#"{"v":1,"op":"update","label":"Starting"}"#)
        try rig.run(2) { rig.card.crtcs[rig.crtc]?.fb == shown && !rig.screen.anyFlipPending }
        #expect(rig.card.crtcs[rig.crtc]?.fb == shown && rig.card.flipsDone == done + 2 && rig.card.scanoutWrites == 0)
    }

    /// `new_root` and then `adopt` while the flip is still in flight (its event never comes within
    /// the hand-off's wait): `adopt` answers ok, and after the wait the state handed to the next
    /// image names the buffer flipped to (the kernel's framebuffer for the CRTC: the file's
    /// notes) and releases the one shown before — never both, never the console's. Here the
    /// execve fails: the daemon goes on (`adopt_error`), and the event released afterwards is
    /// taken for a flip already counted as landed: no second present, no buffer freed or lost,
    /// no write into the buffer on screen; the next frame goes out as usual.
    @Test func adoptWhileAFlipIsInFlightNamesTheBufferFlippedTo() throws {
        guard getuid() == 0 else { print("InitramfsNewRootInFlightTests: not root (new_root is root's), skipped"); return }
        let rig = try InFlightRig("adopt")
        defer { rig.close() }
        let (shown, inFlight) = try rig.flipHeld(label: "Mounting")
        #expect(shown != 0 && inFlight != 0 && shown != inFlight, "shown \(shown), in flight \(inFlight)")
        let buffers = rig.ourFramebuffers, dumbs = rig.card.dumbs.count
        let done = rig.card.flipsDone, setCRTCs = rig.card.setCRTCs

        #expect(try rig.ask(#"{"v":1,"op":"new_root","path":"/"}"#)?["ok"]?.bool == true)
        let adopt = try rig.ask(#"{"v":1,"op":"adopt"}"#)
        #expect(adopt?["ok"]?.bool == true, "\(adopt.map { JSON.encode(.object($0)) } ?? "no reply")")
        try rig.run(3) { !rig.kernel.images.isEmpty }
        let image = try #require(rig.kernel.images.first, "no execve after adopt: \(rig.logs)")
        #expect(image.path == CommandLine.arguments[0])
        #expect(rig.card.pendingFlips[rig.crtc]?.fb == inFlight && rig.card.crtcs[rig.crtc]?.fb == shown,
                "the flip was no longer in flight at the hand-off")

        // What the next image would get: the buffer flipped to, the other one released.
        let prefix = DaemonResume.variable + "="
        let value = try #require(image.environment.first { $0.hasPrefix(prefix) })
        let resume = try DaemonResume.decode(environment: String(value.dropFirst(prefix.count)))
        let handoff = try #require(resume.screen, "no screen in the resume")
        #expect(handoff.crtcID == rig.crtc && handoff.fbID == inFlight, "handed over fb \(handoff.fbID): shown \(shown), in flight \(inFlight)")
        #expect(handoff.released.map(\.fbID) == [shown], "released \(handoff.released)")
        #expect(handoff.saved.fbID == rig.card.consoleFB, "what the CRTC showed before us")
        let state = try DaemonResume.parseState(image.state)
        #expect(state["content"]?["label"]?.string == "Mounting", "the state handed over: \(JSON.encode(.object(state)))")
        // Nothing was changed on the card by the hand-off itself (the next image does that).
        #expect(rig.ourFramebuffers == buffers && rig.card.dumbs.count == dumbs && rig.card.setCRTCs == setCRTCs)

        // The execve failed: the daemon serves on from this image and says why.
        let status = try rig.status()
        #expect(status?["initramfs"]?.string == "new-root" && status?["adopt_error"]?.string?.contains("cannot carry on as") == true,
                "\(String(describing: status))")
        // The event released: taken for the flip already counted as landed.
        rig.releaseFlip()
        try rig.run(0.3)
        #expect(rig.card.crtcs[rig.crtc]?.fb == inFlight && rig.card.flipsDone == done + 1)
        #expect(rig.screen.drmDisplays.first?.frontBuffer?.fbID == inFlight && !rig.screen.anyFlipPending)
        #expect(rig.card.scanoutWrites == 0 && rig.ourFramebuffers == buffers && rig.card.dumbs.count == dumbs)
        // The next frame: one flip, to the buffer released in the record (not on screen here).
        let next = try rig.ask(#"{"v":1,"op":"update","label":"Starting"}"#)
        #expect(next?["ok"]?.bool == true)
        try rig.run(2) { rig.card.crtcs[rig.crtc]?.fb == shown && !rig.screen.anyFlipPending }
        #expect(rig.card.crtcs[rig.crtc]?.fb == shown && rig.card.flipsDone == done + 2, "flips \(rig.card.flipsDone - done)")
        #expect(rig.card.scanoutWrites == 0 && rig.card.setCRTCs == setCRTCs && rig.screen.flipsSupported, "fell back to SETCRTC")
    }

    /// The execve failed and a frame comes before the late flip event: the flip the carry-over
    /// took as landed is still queued (PAGE_FLIP says EBUSY, again after the short wait), so that
    /// one frame goes out by SETCRTC — and flips stay in use: once the event came, the next frame
    /// flips. (Before, the driver was taken for one that cannot flip: SETCRTC for every frame.)
    @Test func aFrameBeforeTheLateEventDoesNotEndFlipping() throws {
        guard getuid() == 0 else { print("InitramfsNewRootInFlightTests: not root (new_root is root's), skipped"); return }
        let rig = try InFlightRig("late-event")
        defer { rig.close() }
        _ = try rig.flipHeld(label: "Mounting")
        #expect(try rig.ask(#"{"v":1,"op":"new_root","path":"/"}"#)?["ok"]?.bool == true)
        #expect(try rig.ask(#"{"v":1,"op":"adopt"}"#)?["ok"]?.bool == true)
        try rig.run(3) { !rig.kernel.images.isEmpty }
        #expect(try rig.status()?["adopt_error"] != nil)
        let setCRTCs = rig.card.setCRTCs
        #expect(try rig.ask(#"{"v":1,"op":"update","label":"Starting"}"#)?["ok"]?.bool == true)
        try rig.run(2) { rig.card.setCRTCs > setCRTCs }
        #expect(rig.card.setCRTCs == setCRTCs + 1, "the frame while the flip was still queued: by SETCRTC")
        #expect(rig.screen.flipsSupported, "one busy flip ended flipping for good")
        rig.releaseFlip()
        try rig.run(0.3)
        let done = rig.card.flipsDone
        #expect(try rig.ask(#"{"v":1,"op":"update","label":"Started"}"#)?["ok"]?.bool == true)
        try rig.run(2) { rig.card.flipsDone > done && !rig.screen.anyFlipPending }
        #expect(rig.card.flipsDone == done + 1 && rig.card.setCRTCs == setCRTCs + 1, "flips \(rig.card.flipsDone - done), SETCRTCs \(rig.card.setCRTCs - setCRTCs)")
    }

}
