import KioskBoards
import KioskCLI
import KioskDaemon
import KioskProtocol
import KioskSeams
import KioskSession
import KioskSys

// `kiosk-hud overlay`: the daemon's HUD over the kiosk's compositor, drawn by a process of the
// compositor's user (docs/wayland.md, docs/security.md).
//
// Why a process of its own and not the daemon connecting. The compositor's socket is the kiosk
// user's: a root daemon connected to it would parse that user's Wayland messages (libwayland's
// parser, in a root process) and take that user's input. So the daemon stays on DRM and the
// control socket, and this process — started with the compositor, as its user — draws. It is a
// control-socket client like any other (the daemon's group, or --allow-uid): `overlay` asks for
// the HUD's state and every change after it, as the requests that make them (RequestMirror.swift),
// which it carries out on its own session with the daemon's own code (`Daemon`): the animations,
// the notices' timers and the activity count are the same behaviour, not a copy. Its button is
// sent back as `press`, so a `kiosk-hud run` on the daemon's HUD is cancelled by a tap on the
// compositor's screen. A picture a client named with its own rights is not sent (the overlay
// would read it with the kiosk user's); the daemon's own pictures are read here with the kiosk
// user's rights.
//
// The daemon may come and go (a socket-activated daemon quits at the boot's end and starts again
// at the next `ctl`): while there is none the HUD is hidden and the socket is tried every two
// seconds, each connection starting again from the state.

/// `kiosk-hud overlay`.
public enum OverlayCommand {
    /// `kiosk-hud overlay`'s options, help and manual page.
    public static let spec = CommandSpec(
        "overlay", abstract: "Draw the daemon's HUD over a running Wayland compositor, as the compositor's user.",
        discussion: """
        Started with the kiosk's compositor, as its user (labwc's autostart, a systemd user unit): \
        connects to the daemon's control socket (the user must be in the daemon's group or allowed \
        with --allow-uid), and shows what the daemon's HUD shows — content, look, visibility, \
        animations, notices — on an overlay surface of each output (wlr-layer-shell), while the \
        daemon's own display is the compositor's. Its button presses the daemon's (`press`): a \
        `kiosk-hud run` on the daemon's HUD is cancelled by a tap here. The daemon's `status` says \
        `"screen": "wayland"` and lists it under `overlays`. No daemon at the socket: the HUD is \
        hidden and the socket tried again every 2 s. A picture a client named (read with that \
        client's rights) is not shown here; the daemon's own are read with this user's rights.

        Exit codes: 0 SIGINT/SIGTERM/SIGHUP, or the compositor gone; 1 error (no compositor, the daemon refused this user); 64 bad options.
        """,
        groups: [OptionGroup("Overlay", [
            OptionSpec(.wayland, value: "SOCKET", rule: .path,
                       help: "The compositor: a name under $XDG_RUNTIME_DIR (wayland-1), an absolute path, or 'auto' for $WAYLAND_DISPLAY (the default)."),
            OptionSpec(.socket, value: "PATH", rule: .path, help: "The daemon's control socket. Default: \(ControlSocket.defaultPath)."),
            OptionSpec(.splashUntilWindow, value: "APP_ID", rule: .text(256, nonEmpty: true),
                       help: "Until the compositor has a window of APP_ID ('any': any window), draw the daemon's whole picture — its underlay too, as on the display — over the compositor, so the boot splash stays on screen through the compositor's start; then the HUD alone over the app (wlr-foreign-toplevel-management)."),
        ])])

    /// Runs until a quit signal (or a failure: the compositor cannot be reached, the daemon
    /// refuses this user).
    public static func run(_ a: ParsedArguments) throws {
        let given = a.defaulting(OptionKey.wayland.name, to: "auto")
        let parts = OverlayParts(socket: a.string(.socket) ?? ControlSocket.defaultPath, splashUntil: a.string(.splashUntilWindow))
        do { try ShowCommand(given, extras: parts).run() } catch {
            // The session ended with 1 because the daemon refused: say why.
            throw parts.failure ?? error
        }
    }
}

extension OptionKey {
    public static let splashUntilWindow = OptionKey("splash-until-window")
}

/// What `overlay` adds to a display run on Wayland: the daemon followed (`DaemonMirror`).
final class OverlayParts: ShowExtras {
    let socket: String
    /// Nothing is shown until the daemon says what.
    var startHidden: Bool { true }
    private var mirror: DaemonMirror?
    /// Why the run ended on its own (the daemon refused this user).
    private(set) var failure: ShowError?

    /// The app whose window ends the splash's whole picture (`--splash-until-window`).
    let splashUntil: String?

    init(socket: String, splashUntil: String?) { self.socket = socket; self.splashUntil = splashUntil }

    func attach(session: HUDSession, loop: EventLoop, kernel: Kernel, screen: Screen, settings: HUDSettings) throws {
        // The daemon's requests carried out here, by the daemon's own code; pictures with this
        // process's rights (the kiosk user's), within the screen's limit.
        let local = Daemon(session: session, settings: settings) { [unowned screen] path in
            let first = screen.displays.first
            return try loadPNG(path, what: "", limit: pictureLimit(canvasWidth: first?.width ?? 1920, canvasHeight: first?.height ?? 1080))
        }
        local.kernel = kernel
        let m = DaemonMirror(path: socket, daemon: local, loop: loop, kernel: kernel, log: showLog)
        m.onRefused = { [weak self] why in
            self?.failure = ShowError("overlay: \(why)")
            session.end(.exit(1))
        }
        session.setButtonAction(.call { [weak m] in m?.press() })
        // The compositor gone (its session ended, it crashed): so is what this process is for.
        // It ends, leaving the daemon's overlays (`status`) to the next compositor's overlay,
        // rather than staying connected to the daemon with nothing to draw on.
        session.addObserver { [unowned screen] e in
            guard case .screen(.deactivated) = e, !screen.isActive, !screen.isSuspended else { return }
            showLog("overlay: the compositor is gone; the overlay ends")
            session.end(.exit(0))
        }
        if let wanted = splashUntil {
            guard let windows = screen.windows else { throw ShowError("--splash-until-window: this compositor does not tell its windows") }
            session.drawsUnderlayOnOverlays = true
            try windows.watchWindows { appID in
                guard session.drawsUnderlayOnOverlays, wanted == "any" || appID == wanted else { return }
                showLog("window \(appID.isEmpty ? "without an app id" : appID) is on screen: the HUD alone over it from now on")
                session.drawsUnderlayOnOverlays = false
            }
        }
        mirror = m
        m.start()
    }

    func inputChanged(_ name: String, added: Bool) {}
    func detach() -> Bool? { mirror?.stop(); return false }
}
