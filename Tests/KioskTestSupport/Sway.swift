// A real Wayland compositor for the host tests of the Wayland overlay: Debian 12's sway 1.7 with
// wlroots' headless backend and pixman renderer (no GPU, no DRM, no seat manager, no input
// devices), run as the stranger (nobody) in a runtime directory of its own, with a stand-in
// kiosk app of known pixels (Tests/Wayland/kiosk-wl-app.c) made fullscreen by the config.
//
// Why this shape:
// - sway refuses to run as root, and a kiosk's compositor belongs to the kiosk user, not root:
//   so sway, the app, swaymsg and grim all run as `Stranger` with a clean environment (env -i),
//   and what root wants to reach (the sockets, the logs, the screenshots) lies in the runtime
//   directory, which root may enter whatever its owner and mode.
// - The headless seat has no pointer until an input device exists; the app's
//   `--virtual-pointer` (wlr-virtual-pointer) adds one, so that `swaymsg seat seat0 cursor …`
//   presses reach clients. With a pointer, sway draws its cursor into the frames grim captures:
//   the app hides it over its own surface.
// - Every wait is bounded (a hang ends the test with sway's log in the error), and every
//   process started here is stopped by `stop()` (also at deinit).
//
// Coordinates: `click`, `moveCursor` and sway's layout are in logical units (pixels ÷ scale);
// screenshots (`grim -o`) and the app's picture are in pixels.
import Glibc
import KioskSys

/// sway 1.7 headless as the stranger, with the test app on demand.
///
///     let sway = try SwayHeadless(outputs: [.init(width: 800, height: 480, scale: 1)])
///     let app = try sway.startApp()
///     let png = try sway.screenshot()            // == the app's picture (TestApp.pixel)
///     try sway.click(x: 10, y: 10)
///     #expect(app.waitForLine("button pressed 10 10"))
public final class SwayHeadless: @unchecked Sendable {
    /// Why the compositor, a command or the app failed; each carries the tail of sway's log
    /// where it helps.
    public enum Failure: Error, CustomStringConvertible, Sendable {
        /// A tool or a privilege the harness needs is missing (`SwayHeadless.missing`).
        case unavailable(String)
        /// The runtime directory, the config or the app's build could not be made.
        case setup(String)
        /// sway did not come up (exited, or no sockets in time).
        case notStarted(String, log: String)
        /// A swaymsg or grim run failed or timed out.
        case command([String], status: Int32, output: String, log: String)
        /// The test app exited or did not print `ready` in time.
        case app(String, log: String)

        public var description: String {
            switch self {
            case let .unavailable(why): "sway headless unavailable: \(why)"
            case let .setup(why): "sway headless setup: \(why)"
            case let .notStarted(why, log): "sway did not start: \(why)\n--- sway log (tail) ---\n\(log)"
            case let .command(args, status, output, log):
                "\(args.joined(separator: " ")) → status \(status): \(output)\n--- sway log (tail) ---\n\(log)"
            case let .app(why, log): "kiosk-wl-app: \(why)\n--- sway log (tail) ---\n\(log)"
            }
        }
    }

    /// One headless output: its mode in pixels and its integer scale. Outputs are laid out left
    /// to right from (0, 0), in logical units, and named HEADLESS-1, HEADLESS-2, ….
    public struct Output: Sendable, Equatable {
        public var width: Int
        public var height: Int
        public var scale: Int
        public init(width: Int = 800, height: Int = 480, scale: Int = 1) {
            self.width = width; self.height = height; self.scale = scale
        }
    }

    /// How long sway may take to open its sockets, the app to show its picture, a swaymsg or
    /// grim to answer: only a hang takes that long.
    public static let timeout: Double = 15

    /// The outputs asked for (index i is `outputName(i)`).
    public let outputs: [Output]
    /// The runtime directory ($XDG_RUNTIME_DIR of everything started here): 0700, the
    /// stranger's. Holds the sockets, sway.conf, sway.log, the app and the screenshots.
    public let runtimeDir: String
    /// The Wayland socket ($XDG_RUNTIME_DIR/wayland-1), what a client connects to.
    public var socket: String { runtimeDir + "/wayland-1" }
    /// sway's IPC socket (SWAYSOCK).
    public var ipcSocket: String { runtimeDir + "/sway.sock" }
    /// sway's process id (setpriv execs env, which execs sway).
    public let pid: pid_t

    private var swayStatus: Int32?
    private var apps: [TestApp] = []
    private var shots = 0
    private var stopped = false

    /// What is missing for the harness to run here (root; sway, swaymsg, grim, gcc and setpriv
    /// on PATH; libwayland-client.so.0), or nil.
    public static var missing: String? {
        if geteuid() != 0 { return "not root (sway runs as uid \(Stranger.uid) through setpriv)" }
        let tools = ["sway", "swaymsg", "grim", "gcc", "setpriv", "timeout"].filter { !Proc.executable($0) }
        if !tools.isEmpty { return "not on PATH: \(tools.joined(separator: ", ")) (apt-get install sway grim gcc)" }
        if Proc.run(["sh", "-c", "ldconfig -p | grep -q 'libwayland-client.so.0 '"]).status != 0 {
            return "libwayland-client.so.0 not installed (libwayland-client0)"
        }
        return nil
    }

    /// Whether `missing` is nil.
    public static var available: Bool { missing == nil }

    /// The name sway gives output `index` (0-based): HEADLESS-1, ….
    public static func outputName(_ index: Int) -> String { "HEADLESS-\(index + 1)" }

    /// Starts sway with `outputs` (one or more) and waits until its Wayland and IPC sockets
    /// exist. Nothing is left behind when it throws.
    public init(outputs: [Output] = [Output()]) throws(Failure) {
        if let why = Self.missing { throw .unavailable(why) }
        guard !outputs.isEmpty, outputs.allSatisfy({ $0.width > 0 && $0.height > 0 && $0.scale >= 1 }) else {
            throw .setup("outputs must be one or more, each with a positive size and an integer scale ≥ 1")
        }
        self.outputs = outputs
        let dir = Proc.makeTempDir("kiosk-sway")
        runtimeDir = dir
        do throws(SysError) {
            try setOwner(dir, uid: Stranger.uid, gid: Stranger.gid)
            try setMode(dir, 0o700)
        } catch {
            _ = Proc.run(["rm", "-rf", dir])
            throw .setup("\(error)")
        }
        var config = """
            # Written by the tests (Tests/KioskTestSupport/Sway.swift).
            xwayland disable
            swaybg_command -
            swaynag_command -
            default_border none
            default_floating_border none
            focus_follows_mouse no

            """
        var x = 0
        for (i, o) in outputs.enumerated() {
            config += "output \(Self.outputName(i)) resolution \(o.width)x\(o.height) position \(x) 0 scale \(o.scale)\n"
            x += o.width / o.scale
        }
        config += "for_window [app_id=\"kiosk-test-app\"] fullscreen enable\n"
        guard Self.write(Array(config.utf8), to: dir + "/sway.conf", mode: 0o644) else {
            _ = Proc.run(["rm", "-rf", dir])
            throw .setup("cannot write \(dir)/sway.conf")
        }
        let env = [
            "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME=\(dir)", "XDG_RUNTIME_DIR=\(dir)",
            "SWAYSOCK=\(dir)/sway.sock", "WLR_BACKENDS=headless", "WLR_RENDERER=pixman", "WLR_LIBINPUT_NO_DEVICES=1",
            "WLR_HEADLESS_OUTPUTS=\(outputs.count)",
        ]
        guard let p = Proc.spawn(Stranger.command + ["env", "-i"] + env + ["sway", "-d", "-c", dir + "/sway.conf"],
                                 stdout: dir + "/sway.out", stderr: dir + "/sway.log") else {
            _ = Proc.run(["rm", "-rf", dir])
            throw .setup("cannot spawn setpriv … sway")
        }
        pid = p
        var exited: Int32?
        let up = waitUntil(Self.timeout) {
            if let st = Self.reap(p) { exited = st; return true }
            return Proc.exists(dir + "/wayland-1") && Proc.exists(dir + "/sway.sock")
        }
        if !up || exited != nil {
            let why = exited.map { "sway exited with status \($0)" } ?? "no \(dir)/wayland-1 and sway.sock after \(Int(Self.timeout)) s"
            swayStatus = exited
            let log = log
            stop()
            throw .notStarted(why, log: log)
        }
    }

    deinit { stop() }

    /// The environment a Wayland client of this compositor needs (as `KEY=value` words for
    /// `env -i`): PATH, HOME, XDG_RUNTIME_DIR, WAYLAND_DISPLAY, SWAYSOCK.
    public var clientEnvironment: [String] {
        ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME=\(runtimeDir)",
         "XDG_RUNTIME_DIR=\(runtimeDir)", "WAYLAND_DISPLAY=wayland-1", "SWAYSOCK=\(ipcSocket)"]
    }

    /// The words that run `args` as the compositor's user (the stranger) with only
    /// `clientEnvironment` and `extra` (`KEY=value`) set. The program must be reachable by that
    /// user (see `StrangerCopy`).
    ///
    ///     Proc.spawn(sway.asCompositorUser([copy.path(Proc.kioskHUD), "show", "--wayland", sway.socket]), …)
    public func asCompositorUser(_ args: [String], extra: [String] = []) -> [String] {
        Stranger.command + ["env", "-i"] + clientEnvironment + extra + args
    }

    /// The last lines of sway's log (sway -d), for error messages.
    public var log: String { Self.tail(Proc.readFile(runtimeDir + "/sway.log") ?? "", lines: 60) }

    /// Runs `swaymsg args…` (e.g. `["-t", "get_outputs"]`, or one command string with `;`
    /// between commands); its stdout. Throws on a nonzero status or after `timeout`.
    @discardableResult
    public func swaymsg(_ args: [String]) throws(Failure) -> String {
        let argv = ["timeout", String(Int(Self.timeout)), "swaymsg"] + args
        let r = Proc.run(asCompositorUser(argv))
        guard r.status == 0 else { throw .command(["swaymsg"] + args, status: r.status, output: r.out + r.err, log: log) }
        return r.out
    }

    /// Captures `output` with grim (wlr-screencopy, no cursor unless sway draws it) into a
    /// new PNG in the runtime directory; its path. The PNG has the output's mode in pixels
    /// whatever its scale.
    public func screenshot(output: String = SwayHeadless.outputName(0)) throws(Failure) -> String {
        shots += 1
        let path = runtimeDir + "/shot-\(shots)-\(output).png"
        let argv = ["timeout", String(Int(Self.timeout)), "grim", "-o", output, path]
        let r = Proc.run(asCompositorUser(argv))
        guard r.status == 0, Proc.exists(path) else { throw .command(["grim", "-o", output, path], status: r.status, output: r.out + r.err, log: log) }
        return path
    }

    /// Moves the pointer to (x, y) in layout (logical) coordinates. Needs a pointer on the
    /// seat: an app started with `virtualPointer`.
    public func moveCursor(x: Int, y: Int) throws(Failure) {
        try swaymsg(["seat seat0 cursor set \(x) \(y)"])
    }

    /// Presses `button` (sway's names: button1 is the left one) where the pointer is.
    public func press(_ button: String = "button1") throws(Failure) {
        try swaymsg(["seat seat0 cursor press \(button)"])
    }

    /// Releases `button` where the pointer is.
    public func release(_ button: String = "button1") throws(Failure) {
        try swaymsg(["seat seat0 cursor release \(button)"])
    }

    /// Moves the pointer to (x, y) (layout, logical), presses and releases `button`: one IPC
    /// call, so that the surface under the pointer gets enter, press and release in order.
    public func click(x: Int, y: Int, button: String = "button1") throws(Failure) {
        try swaymsg(["seat seat0 cursor set \(x) \(y); seat seat0 cursor press \(button); seat seat0 cursor release \(button)"])
    }

    /// Starts the test app (Tests/Wayland/kiosk-wl-app.c, built with gcc once per test process)
    /// as the stranger and waits until its fullscreen picture is on screen (`ready`). With
    /// `virtualPointer` it also gives the seat a pointer, which lasts while the app runs.
    public func startApp(virtualPointer: Bool = true) throws(Failure) -> TestApp {
        let bytes: [UInt8]
        switch Self.appBinary {
        case let .success(b): bytes = b
        case let .failure(e): throw e
        }
        let n = apps.count + 1
        let exe = runtimeDir + "/kiosk-wl-app", out = runtimeDir + "/app-\(n).out", err = runtimeDir + "/app-\(n).err"
        if !Proc.exists(exe) {
            guard Self.write(bytes, to: exe, mode: 0o755) else { throw .setup("cannot write \(exe)") }
        }
        guard let p = Proc.spawn(asCompositorUser([exe] + (virtualPointer ? ["--virtual-pointer"] : [])), stdout: out, stderr: err) else {
            throw .setup("cannot spawn setpriv … kiosk-wl-app")
        }
        let app = TestApp(pid: p, outputPath: out, errorPath: err)
        apps.append(app)
        var ready: String?
        _ = waitUntil(Self.timeout) {
            ready = (Proc.readFile(out) ?? "").split(separator: "\n").first { $0.hasPrefix("ready ") }.map(String.init)
            return ready != nil || app.hasExited
        }
        guard let line = ready else {
            let why = app.hasExited ? "exited (\(app.exitStatus ?? -1))" : "no `ready` after \(Int(Self.timeout)) s"
            let detail = (Proc.readFile(err) ?? "") + (Proc.readFile(out) ?? "")
            _ = app.stop()
            throw .app("\(why): \(detail)", log: log)
        }
        // "ready WxH scale S"
        let words = line.split(separator: " ")
        let size = words.count > 1 ? words[1].split(separator: "x").compactMap { Int($0) } : []
        app.width = size.count == 2 ? size[0] : 0
        app.height = size.count == 2 ? size[1] : 0
        app.scale = words.count > 3 ? Int(words[3]) ?? 0 : 0
        return app
    }

    /// Ends sway alone with `signal` (the compositor that goes away mid-show); its exit status,
    /// nil if it had to be killed or was already gone.
    @discardableResult
    public func killCompositor(signal: Int32 = SIGTERM) -> Int32? {
        if swayStatus != nil { return nil }
        let st = Self.end(pid, signal: signal)
        swayStatus = st ?? -1
        return st
    }

    /// Stops the apps and sway (SIGTERM, SIGKILL after `timeout`) and removes the runtime
    /// directory. Called again, does nothing.
    public func stop() {
        if stopped { return }
        stopped = true
        for app in apps { _ = app.stop() }
        killCompositor()
        _ = Proc.run(["rm", "-rf", runtimeDir])
    }

    // MARK: - Helpers

    /// The test app's binary, built once per process (into a private directory then removed;
    /// each compositor gets its own copy in its runtime directory).
    private static let appBinary: Result<[UInt8], Failure> = {
        let src = Proc.root + "/Tests/Wayland/kiosk-wl-app.c"
        let dir = Proc.makeTempDir("kiosk-wl-app")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let r = Proc.run(["gcc", "-O2", "-std=c11", "-Wall", "-o", dir + "/kiosk-wl-app", src, "-l:libwayland-client.so.0"])
        guard r.status == 0, let bytes = Proc.readBytes(dir + "/kiosk-wl-app"), !bytes.isEmpty else {
            return .failure(.setup("gcc \(src): status \(r.status): \(r.out)\(r.err)"))
        }
        return .success(bytes)
    }()

    static func write(_ bytes: [UInt8], to path: String, mode: mode_t) -> Bool {
        guard let f = fopen(path, "wb") else { return false }
        let n = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
        return fclose(f) == 0 && n == bytes.count && chmod(path, mode) == 0
    }

    /// The exit status of `pid` if it has exited (reaped now), else nil.
    static func reap(_ pid: pid_t) -> Int32? {
        var status: Int32 = 0
        let r = waitpid(pid, &status, WNOHANG)
        guard r == pid else { return r == -1 ? -1 : nil }
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Sends `signal` to `pid` and waits up to `timeout` for it; its exit status, or nil when
    /// it had to be killed with SIGKILL.
    static func end(_ pid: pid_t, signal: Int32) -> Int32? {
        kill(pid, signal)
        var status: Int32?
        // Not `timeout`: a SIGTERM that comes while sway is still starting is lost (wlroots'
        // wl_display_run sets the run flag that the handler's terminate cleared), so the
        // process is killed if it has not gone within 3 s.
        if waitUntil(3, { status = reap(pid); return status != nil }) { return status }
        kill(pid, SIGKILL)
        _ = Proc.wait(pid)
        return nil
    }

    static func tail(_ text: String, lines: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
    }
}

/// The stand-in kiosk app (Tests/Wayland/kiosk-wl-app.c) running on a `SwayHeadless`: a
/// fullscreen xdg_toplevel (app_id kiosk-test-app) showing `pixel(x:y:width:height:)`, which
/// prints `button pressed X Y` / `button released X Y` (surface-local logical units) when a
/// pointer button reaches it.
public final class TestApp: @unchecked Sendable {
    /// The app's process id.
    public let pid: pid_t
    /// Its picture in pixels (the output's mode) and the scale it drew at, from `ready`.
    public internal(set) var width = 0, height = 0, scale = 0
    let outputPath: String, errorPath: String
    private(set) var exitStatus: Int32?

    init(pid: pid_t, outputPath: String, errorPath: String) {
        self.pid = pid; self.outputPath = outputPath; self.errorPath = errorPath
    }

    /// The app's picture at pixel (x, y) of a `width`×`height` buffer, as kiosk-wl-app.c
    /// draws it (opaque; R, G, B).
    public static func pixel(x: Int, y: Int, width: Int, height: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let bands: [UInt8] = [0x00, 0x55, 0xAA, 0xFF]
        return (UInt8(x * 255 / max(width - 1, 1)), UInt8(y * 255 / max(height - 1, 1)), bands[x * 4 / width])
    }

    /// What the app printed so far (stdout), one event a line.
    public var lines: [String] { (Proc.readFile(outputPath) ?? "").split(separator: "\n").map(String.init) }

    /// What the app wrote on stderr.
    public var errors: String { Proc.readFile(errorPath) ?? "" }

    /// Waits until the app has printed `line` (whole), for up to `timeout` seconds.
    public func waitForLine(_ line: String, timeout: Double = SwayHeadless.timeout) -> Bool {
        waitUntil(timeout) { lines.contains(line) }
    }

    /// Whether the app has exited (its status in `exitStatus`).
    public var hasExited: Bool {
        if exitStatus == nil, let st = SwayHeadless.reap(pid) { exitStatus = st }
        return exitStatus != nil
    }

    /// Ends the app (SIGTERM, SIGKILL after the timeout); its exit status (0 when it ended
    /// cleanly), nil if it had to be killed. Called again, returns the first status.
    public func stop() -> Int32? {
        if !hasExited { exitStatus = SwayHeadless.end(pid, signal: SIGTERM) ?? -1 }
        return exitStatus.flatMap { $0 < 0 ? nil : $0 }
    }
}
