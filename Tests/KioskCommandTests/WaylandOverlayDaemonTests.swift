// `kiosk-hud overlay`: the root daemon's HUD drawn over the compositor by a process of the
// compositor's user (docs/wayland.md). The daemon runs as root (offscreen: its own screen does not
// matter here), the overlay and the app as the compositor's user; the picture must be what
// `render --overlay` of the daemon's state gives, over the app.
import Glibc
import KioskPNG
import KioskTestSupport
import Testing

extension WaylandOverlayTests {
    /// A root daemon whose socket the compositor's user may use (its group: nogroup).
    final class RootDaemon {
        let socket: String
        let pid: pid_t
        let log: String
        /// In `dir` (a directory of root's that the compositor's user may pass through), else a new one.
        init(_ args: [String], in given: String? = nil) throws {
            let dir = given ?? Proc.makeTempDir("kiosk-overlay-daemon")
            chmod(dir, 0o755)
            socket = dir + "/control.sock"
            log = dir + "/daemon.log"
            guard let pid = Proc.spawn([Proc.kioskHUD, "daemon", "--offscreen", "-", "--socket", socket, "--group", "nogroup", "--glyph-cache", "none"] + args,
                                       stderr: log) else { throw WaylandTestError(description: "cannot start the daemon") }
            self.pid = pid
            guard waitUntil(15, { text.contains("control socket: listening") }) else { throw WaylandTestError(description: "the daemon did not listen: \(text)") }
        }
        var text: String { Proc.readFile(log) ?? "" }
        func ctl(_ args: [String]) -> (status: Int32, out: String, err: String) { Proc.run([Proc.kioskHUD, "ctl"] + args + ["--socket", socket]) }
        func stop() {
            kill(pid, SIGTERM)
            var st: Int32 = 0
            if !waitUntil(10, { waitpid(pid, &st, WNOHANG) == pid }) { kill(pid, SIGKILL); waitpid(pid, &st, 0) }
        }
    }

    /// The overlay as the compositor's user, following `daemon`.
    func overlay(_ sway: SwayHeadless, socket: String) throws -> HUDProcess {
        try HUDProcess(sway, ["overlay", "--wayland", sway.socket, "--socket", socket])
    }

    /// The screen shows `render --overlay` of `args` over the app (`before`: its screenshot).
    func expectShows(_ sway: SwayHeadless, _ args: [String], before: String, _ what: String) throws {
        let expected = try overApp(args, width: 800, height: 480, underlay: before, dir: sway.runtimeDir)
        let bezel = try layout(args, width: 800, height: 480, dir: sway.runtimeDir).bezel
        let d = try settle(sway, output: SwayHeadless.outputName(0), expected: expected, box: bezel)
        #expect(d.isNone, "\(what): \(d), against render --overlay \(args.joined(separator: " ")) over the app")
    }

    @Test func theOverlayShowsTheDaemonsHUDAndEachChange() throws {
        _ = try ready()
        let sway = try SwayHeadless(outputs: [.init(width: 800, height: 480, scale: 1)])
        defer { sway.stop() }
        _ = try sway.startApp()
        let before = try sway.screenshot()
        let daemon = try RootDaemon(Self.still)
        defer { daemon.stop() }
        let o = try overlay(sway, socket: daemon.socket)
        defer { _ = o.stop() }
        #expect(waitUntil(15) { o.text.contains("overlay: following the daemon at") }, "\(o.text)")
        // The state it found, then a change.
        try expectShows(sway, Self.still, before: before, "the daemon's state")
        #expect(daemon.ctl(["update", "--label", "Nearly there", "--progress", "0.9"]).status == 0)
        var changed = Self.still
        changed[changed.firstIndex(of: "--label")! + 1] = "Nearly there"
        changed[changed.firstIndex(of: "--progress")! + 1] = "0.9"
        try expectShows(sway, changed, before: before, "after ctl update")
        // status: the overlay listed, the daemon's own screen still its (offscreen is never taken).
        let status = daemon.ctl(["status"])
        #expect(status.out.contains("\"overlays\":[{\"pid\":\(o.pid),\"uid\":\(Stranger.uid),\"screen\":\"wayland\"}]"), "\(status.out)")
        #expect(daemon.text.contains("uid \(Stranger.uid) draws the HUD on wayland (an overlay)"), "\(daemon.text)")
        // Hidden: the app alone.
        #expect(daemon.ctl(["hide", "--no-animated"]).status == 0)
        let app = try PNG.read(path: before)
        #expect(try waitUntilThrowing(5) { try PNG.read(path: try sway.screenshot()).rgba == app.rgba }, "the HUD stayed after hide")
    }

    @Test func aTapOnTheOverlaysCancelCancelsARunOnTheDaemon() throws {
        _ = try ready()
        let sway = try SwayHeadless(outputs: [.init(width: 800, height: 480, scale: 1)])
        defer { sway.stop() }
        _ = try sway.startApp(virtualPointer: true)
        let daemon = try RootDaemon(["--hidden", "--scale", "1"])
        defer { daemon.stop() }
        let o = try overlay(sway, socket: daemon.socket)
        defer { _ = o.stop() }
        #expect(waitUntil(15) { o.text.contains("overlay: following the daemon at") }, "\(o.text)")
        let runLog = daemon.log + ".run"
        let args = ["--mode", "indeterminate", "--label", "Working"]
        guard let run = Proc.spawn([Proc.kioskHUD, "run", "--hud", "daemon", "--socket", daemon.socket] + args + ["--", "sleep", "60"], stderr: runLog) else {
            throw WaylandTestError(description: "cannot start run")
        }
        defer { kill(run, SIGKILL); var st: Int32 = 0; waitpid(run, &st, 0) }
        // The overlay shows run's HUD, Cancel and all: its button pressed through the compositor.
        #expect(waitUntil(15) { daemon.ctl(["status"]).out.contains("\"button\":\"Cancel\"") }, "run's HUD never came: \(Proc.readFile(runLog) ?? "")")
        let b = try layout(args + ["--button", "Cancel"], width: 800, height: 480, dir: sway.runtimeDir).button
        var status: Int32 = 0
        var ended = false
        // The overlay draws the change a frame or two after the daemon has it: click until run ends.
        _ = waitUntil(15) {
            try? sway.click(x: Int(b.x), y: Int(b.y))
            ended = waitUntil(1) { waitpid(run, &status, WNOHANG) == run }
            return ended
        }
        #expect(ended && (status >> 8) & 0xff == 130, "run did not end with 130 on the overlay's Cancel: \(Proc.readFile(runLog) ?? "") \(o.text)")
    }

    @Test func theOverlayWaitsForADaemonAndHidesWhenItGoes() throws {
        _ = try ready()
        let sway = try SwayHeadless(outputs: [.init(width: 800, height: 480, scale: 1)])
        defer { sway.stop() }
        _ = try sway.startApp()
        let before = try sway.screenshot()
        let dir = Proc.makeTempDir("kiosk-overlay-none")
        chmod(dir, 0o755)
        let o = try overlay(sway, socket: dir + "/control.sock")
        defer { _ = o.stop() }
        #expect(waitUntil(10) { o.text.contains("trying again every 2.0 s") }, "\(o.text)")
        #expect(o.exitStatus(within: 0.5) == nil, "the overlay ended with no daemon: \(o.text)")
        // A daemon there later is followed; its quit hides the HUD and the overlay waits on.
        let d2 = try RootDaemon(Self.still, in: dir)
        defer { d2.stop() }
        #expect(waitUntil(15) { o.text.contains("overlay: following the daemon at") }, "\(o.text)")
        try expectShows(sway, Self.still, before: before, "a daemon that came later")
        #expect(d2.ctl(["quit"]).status == 0)
        #expect(waitUntil(10) { o.text.contains("overlay: the daemon is gone") }, "\(o.text)")
        let app = try PNG.read(path: before)
        #expect(try waitUntilThrowing(5) { try PNG.read(path: try sway.screenshot()).rgba == app.rgba }, "the HUD stayed after the daemon's quit")
        #expect(o.exitStatus(within: 0.5) == nil, "the overlay ended with the daemon: \(o.text)")
    }

    @Test func theOverlayEndsWithItsCompositorAndTheDaemonForgetsIt() throws {
        _ = try ready()
        let sway = try SwayHeadless(outputs: [.init(width: 800, height: 480, scale: 1)])
        defer { sway.stop() }
        let daemon = try RootDaemon(Self.still)
        defer { daemon.stop() }
        let o = try overlay(sway, socket: daemon.socket)
        defer { _ = o.stop() }
        #expect(waitUntil(15) { o.text.contains("overlay: following the daemon at") }, "\(o.text)")
        #expect(daemon.ctl(["status"]).out.contains("\"screen\":\"wayland\"}]"), "not listed as an overlay")
        _ = sway.killCompositor(signal: SIGKILL)
        #expect(o.exitStatus(within: 10) == 0, "the overlay outlived its compositor: \(o.text)")
        #expect(o.text.contains("overlay: the compositor is gone; the overlay ends"), "\(o.text)")
        #expect(waitUntil(5) { daemon.ctl(["status"]).out.contains("\"overlays\":[]") }, "the daemon still lists it: \(daemon.ctl(["status"]).out)")
    }

    @Test func anOverlayTheDaemonDoesNotLetInEndsWithWhy() throws {
        _ = try ready()
        let sway = try SwayHeadless(outputs: [.init(width: 800, height: 480, scale: 1)])
        defer { sway.stop() }
        // Root's group only: the compositor's user is refused by the socket's permissions.
        let dir = Proc.makeTempDir("kiosk-overlay-closed")
        chmod(dir, 0o755)
        let socket = dir + "/control.sock", log = dir + "/daemon.log"
        guard let pid = Proc.spawn([Proc.kioskHUD, "daemon", "--offscreen", "-", "--socket", socket, "--glyph-cache", "none"], stderr: log) else {
            throw WaylandTestError(description: "cannot start the daemon")
        }
        defer { kill(pid, SIGTERM); var st: Int32 = 0; waitpid(pid, &st, 0) }
        #expect(waitUntil(15) { (Proc.readFile(log) ?? "").contains("control socket: listening") })
        let o = try overlay(sway, socket: socket)
        defer { _ = o.stop() }
        #expect(o.exitStatus(within: 15) == 1, "\(o.text)")
        #expect(o.text.contains("permission denied"), "\(o.text)")
    }
}

extension WaylandOverlayTests {
    @Test func theSplashsWholePictureStaysUntilTheAppsWindowThenTheHUDAloneOverIt() throws {
        _ = try ready()
        let sway = try SwayHeadless(outputs: [.init(width: 800, height: 480, scale: 1)])
        defer { sway.stop() }
        let look = Self.still + ["--underlay-color", "#203040"]
        let daemon = try RootDaemon(look)
        defer { daemon.stop() }
        let o = try HUDProcess(sway, ["overlay", "--wayland", sway.socket, "--socket", daemon.socket, "--splash-until-window", "kiosk-test-app"])
        defer { _ = o.stop() }
        #expect(waitUntil(15) { o.text.contains("overlay: following the daemon at") }, "\(o.text)")
        // Before the app: the daemon's picture as on its own display, `render` of its options.
        let whole = sway.runtimeDir + "/whole.png"
        let r = Proc.run([Proc.kioskHUD, "render", "--size", "800x480", "-o", whole] + look)
        #expect(r.status == 0, "\(r.err)")
        let bezel = try layout(look, width: 800, height: 480, dir: sway.runtimeDir).bezel
        let d = try settle(sway, output: SwayHeadless.outputName(0), expected: try PNG.read(path: whole), box: bezel)
        #expect(d.isNone, "before the app's window: \(d), against render \(look.joined(separator: " "))")
        // The app's window: the HUD alone over it.
        let app = try sway.startApp()
        #expect(waitUntil(10) { o.text.contains("window kiosk-test-app is on screen: the HUD alone over it") }, "\(o.text)")
        // The app's picture alone (the HUD hidden a moment), then the HUD over it: render --overlay.
        #expect(daemon.ctl(["hide", "--no-animated"]).status == 0)
        let centre = TestApp.pixel(x: 400, y: 240, width: app.width, height: app.height)
        var before = ""
        _ = try waitUntilThrowing(5) {
            before = try sway.screenshot()
            let shot = try PNG.read(path: before), i = (240 * shot.width + 400) * 4
            return shot.rgba[i] == centre.r && shot.rgba[i + 1] == centre.g && shot.rgba[i + 2] == centre.b
        }
        #expect(daemon.ctl(["show", "--no-animated"]).status == 0)
        try expectShows(sway, Self.still, before: before, "over the app's window")
    }
}
