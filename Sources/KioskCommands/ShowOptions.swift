import KioskBoards
import KioskCLI
import KioskSeams
import KioskSession
import KioskSys

extension ShowCommand {
    /// The options of every command that shows the HUD on a display (show, daemon, run).
    public static let displayGroups: [OptionGroup] = [
            OptionGroup([SettingOptions.boardAuto] + SettingOptions.options(group: SettingGroup.hud)
                + SettingOptions.options(SettingOptions.canvas.union(SettingOptions.screen)) + [
                OptionSpec(.onButton, value: "action", rule: .choice(ButtonChoice.allCases.map(\.rawValue)),
                           help: "When the button is pressed: exit (code 10), hide (animated, then exit 0) or none (default: exit when --button is given)."),
                OptionSpec(.onTapOutside, value: "action", rule: .choice(ButtonChoice.onTapOutside.map(\.rawValue)),
                           help: "On a tap outside the bezel: exit (code 11) or none (default: exit if the board profile's [touch] tap_outside is on, else none)."),
                .flag(.fractionalScale, help: "Automatic scale in quarter steps (1…2) instead of 1 or 2."),
                .flag(.retain, help: "On quit, leave the last frame on screen (for the next program) instead of restoring the console."),
                OptionSpec(.duration, rule: .number(0, 31_536_000, "seconds"), help: "Quit after this many seconds (default: run until Ctrl+C or SIGTERM)."),
                OptionSpec(.fbdev, rule: .path, help: "Use this fbdev device (e.g. /dev/fb0) instead of DRM."),
                OptionSpec(.wayland, value: "SOCKET", rule: .path,
                           help: "Draw over a running Wayland compositor instead of DRM: an overlay surface on each of its outputs (wlr-layer-shell: sway, labwc, wayfire). SOCKET: a name under $XDG_RUNTIME_DIR (wayland-1), an absolute path, or 'auto' for $WAYLAND_DISPLAY. Input comes from the compositor's seat."),
                OptionSpec(.untilWindow, value: "APP_ID", rule: .text(256, nonEmpty: true),
                           help: "With --wayland: end (exit 0) once the compositor has a window of APP_ID ('any': any window) — the splash kept over the compositor's start until the kiosk app is on screen (wlr-foreign-toplevel-management)."),
                OptionSpec(.offscreen, value: "DIR", rule: .path, help: "No display: write the first and last frames as PNGs into DIR (first.png, last.png; '-': none)."),
                .flag(.animate, help: "Fade the HUD in (the board profile's animation) instead of showing it at once."),
                OptionSpec("glyph-cache", value: "DIR", rule: .path, help: "Keep rendered glyphs and the first frame here between runs, so a start whose text was shown before does not load FreeType, and a start with the same options shows its first frame before start-up finishes; 'none' to turn both off (default: /var/cache/kiosk-hud when writable, else $XDG_CACHE_HOME/kiosk-hud or ~/.cache/kiosk-hud)."),
                .flag("no-frame-cache", help: "Do not show a cached first frame at start, and do not keep one."),
                .flag(.noHotplug, help: "Do not follow connector hotplug."),
                .flag(.noVt, help: "Do not take part in VT switching."),
                .flag(.checkScanout, help: "Check with GETCRTC before each copy that the buffer is not on screen (testing)."),
                .flag(.benchCopy, help: "Time the copy to a scanout-like buffer for each rotation.", hidden: true),
            ]),
            OptionGroup("Input", SettingOptions.options(SettingOptions.input) + [.flag(.noInput, help: "No touch, pointer or keys.")]),
            OptionGroup("Tilt", SettingOptions.options(group: SettingGroup.tilt)),
        ]
}

extension ShowCommand {
    /// Options that choose or tune another backend than the one asked for are an error (they
    /// would be ignored), and the ones that change nothing there a warning — never silence.
    func checkBackendOptions() throws {
        let a = arguments
        let backend = a.given(.offscreen) ? "--offscreen" : a.given(.fbdev) ? "--fbdev" : a.given(.wayland) ? "--wayland" : nil
        if a.given(.untilWindow) && backend != "--wayland" {
            throw UsageError("--until-window goes with --wayland (a compositor tells its windows)")
        }
        guard let backend else {
            if a.given(.size) { showLog("warning: --size applies to --offscreen only; the display's mode sets the size") }
            return
        }
        var wrong = ["card", "connector", "video-mode"]
        var moot = ["no-hotplug", "check-scanout", "no-frame-cache", "wait-display", "display-switch", "wait-real-timeout"]
        if backend == "--offscreen" {
            wrong += ["fbdev", "wayland"]
            moot += ["retain", "no-vt", "fractional-scale"]
        } else if backend == "--wayland" {
            wrong.append("fbdev")
            moot += ["retain", "no-vt", "fractional-scale"]
            if a.given(.size) { showLog("warning: --size applies to --offscreen only; the compositor sizes each output's surface") }
        } else if a.given(.size) {
            showLog("warning: --size applies to --offscreen only; the framebuffer's size is used")
        }
        if let o = wrong.first(where: a.given) { throw UsageError("--\(o) does not go with \(backend)") }
        for o in moot where a.given(o) { showLog("warning: --\(o) has no effect with \(backend)") }
    }

    /// `--on-button`/`--on-tap-outside` (checked by their rules): exit (with `exitCode`), hide, or none.
    func action(_ choice: ButtonChoice, exitCode: Int32) -> SessionAction {
        switch choice {
        case .exit: .exit(exitCode)
        case .hide: .hide
        case .none: .none
        }
    }
}

/// `--on-button`'s and `--on-tap-outside`'s words.
enum ButtonChoice: String, CaseIterable {
    case exit, hide, none
    /// What a tap outside the bezel may do (it never hides).
    static let onTapOutside: [ButtonChoice] = [.exit, .none]
}

/// What a command adds to a display run (the daemon's control socket and psplash FIFO).
protocol ShowExtras: AnyObject {
    /// The session starts hidden (`daemon --hidden`).
    var startHidden: Bool { get }
    /// Called with the open screen and the session before its first frame, on the session's
    /// loop and the kernel it calls.
    func attach(session: HUDSession, loop: EventLoop, kernel: Kernel, screen: Screen, settings: HUDSettings) throws
    /// An input device came (true) or went.
    func inputChanged(_ name: String, added: Bool)
    /// The run ends; whether to leave the last frame on screen (nil: as --retain says).
    func detach() -> Bool?
    /// The screen is closed (the display let go, or left with the keeper).
    func screenClosed()
    /// SIGINT, SIGTERM and SIGHUP end the session (false: the extras take them, as `run` passes
    /// them to its command).
    var quitsOnSignals: Bool { get }
    /// When a display waited for (--wait-display) never comes, the run goes on without one
    /// (`run`: its command has started) instead of failing.
    var runsWithoutDisplay: Bool { get }
    /// The first frame is on screen (its caches written, systemd told): called once, on the loop.
    func firstFrameShown()
    /// Where the first frame is kept for the next start (FrameCacheSupport.swift).
    var frameKeeping: FrameKeeping { get }
}

extension ShowExtras {
    var quitsOnSignals: Bool { true }
    var runsWithoutDisplay: Bool { false }
    var frameKeeping: FrameKeeping { .cache }
    func screenClosed() {}
    func firstFrameShown() {}
}

/// The options declared here, by name (see KioskCLI's OptionKey).
extension OptionKey {
    public static let animate = OptionKey("animate")
    public static let duration = OptionKey("duration")
    public static let retain = OptionKey("retain")
    public static let size = OptionKey("size")
    public static let socket = OptionKey("socket")
    public static let benchCopy = OptionKey("bench-copy")
    public static let checkScanout = OptionKey("check-scanout")
    public static let fbdev = OptionKey("fbdev")
    public static let fractionalScale = OptionKey("fractional-scale")
    public static let noHotplug = OptionKey("no-hotplug")
    public static let noInput = OptionKey("no-input")
    public static let noVt = OptionKey("no-vt")
    public static let offscreen = OptionKey("offscreen")
    public static let wayland = OptionKey("wayland")
    public static let untilWindow = OptionKey("until-window")
    public static let onButton = OptionKey("on-button")
    public static let onTapOutside = OptionKey("on-tap-outside")
}
