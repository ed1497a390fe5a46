import Glibc
import KioskBoards
import KioskCLI
import KioskSeams
import KioskDRM
import KioskOffscreen
import KioskHUD
import KioskIIO
import KioskInput
import KioskPNG
import KioskSession
import KioskRaster
import KioskSys
import KioskText

/// `kiosk-hud show`: the HUD on the real display (DRM/KMS, fbdev fallback, or PNGs offscreen),
/// until Ctrl+C/SIGTERM or for `--duration` seconds. Logs (stderr) the card, connector, mode,
/// rotation and the time from exec to the first frame on screen. No Foundation on the way to
/// the first frame.
public struct ShowCommand {
    /// `kiosk-hud show`'s options, help and manual page.
    public static let spec = CommandSpec(
        "show", abstract: "Show the HUD on the display (DRM/KMS; fbdev fallback).",
        discussion: """
        The HUD options are render's; --card, --connector, --video-mode and --rotate override the board \
        profile's [display]. Picture size = the display mode (rotated); --size applies to --offscreen only. Scale: --scale, else the board profile's [display] scale, else chosen \
        from the panel's physical size (~135 DPI target, like Plymouth). The board profile: --board (auto by default: one \
        log line says which profile and why; kiosk-hud boards detect; with --offscreen, the built-in generic). Log lines go to stderr; \
        "first-frame exec_ms=" is exec -> first frame on screen (KIOSK_EXEC_T0_NS=<CLOCK_MONOTONIC \
        ns at spawn> makes it exact; else /proc/self/stat, 10 ms resolution), with source=frame-cache \
        when an earlier run with the same options left its first frame in the cache directory and it \
        was put on screen before start-up (--no-frame-cache: never), else source=drawn.

        Input (libinput: touch, mouse, keys) and the tilt effect start after the first frame. \
        Touch and pointer positions are mapped onto the first output's picture (its rotation); \
        --touch-matrix, the board profile's [touch] matrix and udev's LIBINPUT_CALIBRATION_MATRIX \
        calibrate. The board profile's [touch] keys press the button. No input devices or no \
        udev is not an error (one log line; --no-input: none). The tilt: the board profile's \
        [motion] and the tilt options (as for `kiosk-hud tilt`); the display's rotation applies.

        Exit codes: 0 normal end (--duration, SIGINT/SIGTERM/SIGHUP, or --on-button hide once \
        the HUD is hidden); 1 error; 10 the button was pressed (--on-button exit); 11 a tap \
        outside the bezel (--on-tap-outside exit); 64 bad options. The display is restored (or \
        retained with --retain) the same way for each.
        """,
        groups: displayGroups)

    let arguments: ParsedArguments
    /// What a command adds to the display run (the daemon's control socket); nil for `show`.
    var extras: ShowExtras?
    /// The loop to run on (run going on on its own display: its command's loop); nil: a new one.
    let givenLoop: ScreenLoop?
    /// The board profile followed (detected again when a display appears: ShowBoard.swift).
    let board = BoardFollow()
    /// What the run has done of its first frame.
    let firstFrame = FirstFrameMark()
    init(_ a: ParsedArguments, extras: ShowExtras?, loop: ScreenLoop? = nil) { arguments = a; self.extras = extras; givenLoop = loop }
    /// `show` with the parsed options.
    public init(_ a: ParsedArguments) { self.init(a, extras: nil) }
    var offscreen: String? { arguments.string(.offscreen) }
    var noInput: Bool { arguments.flag(.noInput) }

    /// Runs until the session ends, on the given `ScreenLoop`, else a new real one (`ScreenLoop.system()`); throws
    /// `ExitCode` for a non-zero end, `ShowError` for a failure.
    public func run() throws {
        try run { givenLoop ?? .system() }
    }

    /// Runs until the session ends on the loop `makeLoop` gives (called once the options are
    /// known to be good, before the display opens): its `run` turns the loop until it stops.
    /// A test passes an `EmbeddedEventLoop` and moves its clock.
    public func run(on makeLoop: () -> ScreenLoop) throws {
        StartMarks.mark(.cli)
        let a = arguments
        if a.flag(.benchCopy) { try runCopyBench(); return }
        try checkBackendOptions()
        var settings = try SettingOptions.resolve(a)
        board.start(settings, arguments: a)
        // Read before the screen opens (a bad picture is an error before anything is drawn), and
        // let go of once the session has them (below): a local kept for the loop's life held the
        // start's pictures after a client set others — at 1920x1080 a decoded underlay, 8 MB.
        var (content, underlay) = try loadPictures(settings, underlayOption: a.written(.underlayImage))
        var logo = try loadLogo(settings)
        let duration = try a.double(.duration)
        var profile = settings.profile
        StartMarks.mark(.profile)
        // The quit signals are the loop's from here on (blocked, read by its signalfd): one that
        // comes while the screen opens or the first frame is drawn stops the drawing and ends the
        // run through the same clean-up as any other (the session's own handler ends it).
        let runner = makeLoop()
        let loop = runner.loop, clock = runner.clock
        for q in ShowCommand.quitSignals { loop.onSignal(q) {} }
        // The input options checked now (cheap); libinput starts after the first frame.
        _ = try settings.libinputOptions(transform: DisplayTransform(rotation: .none, width: 1, height: 1), connector: nil, log: { _ in })
        var request = profile.display.mode.flatMap(ModeRequest.init(parsing:))
        let fonts: FontLibrary
        do { fonts = try FontLibrary(glyphCache: glyphCacheDirectory()) } catch { throw UsageError("\(error)") }
        StartMarks.mark(.fonts)
        var scale = profile.scale
        let (screen, start): (Screen, ScreenStart)
        if opensDisplayOnShow {
            // Started hidden: no display, no VT until asked to show (ShowOnDemand.swift).
            let pending = PendingScreen()
            (screen, start) = (pending, ScreenStart(seconds: 0, pending: pending, reason: ""))
            start.onDemand = true
            showLog("display: not opened while hidden; opened when asked to show")
        } else {
            (screen, start) = try openOrWait(profile: profile, rotation: profile.display.rotation, request: request, scale: scale)
        }
        StartMarks.mark(.display)
        // The display opened made detection choose another profile (ShowBoard.swift): its settings from here on.
        if let s = board.settings, s.profile != profile {
            settings = s; profile = s.profile
            request = profile.display.mode.flatMap(ModeRequest.init(parsing:)); scale = profile.scale
            do { (content, underlay) = try loadPictures(s); logo = try loadLogo(s) } catch {
                showLog("board: \(error); keeping the pictures of the profile chosen at start")
            }
        }
        var configuration = sessionConfiguration(profile: profile, content: content, underlay: underlay, logo: logo, scale: scale)
        logo = nil
        // What the options show (its picture aside, which the frame cache's files cover), as the
        // extras set it from them too (the daemon's --plymouth-mode: the reboot screen's words),
        // taken once they are attached: a first frame of anything a client sent after that is no
        // frame for the next start with these options.
        var startContent = configuration.content
        startContent.image = nil
        let session = HUDSession(loop: loop, screen: screen, fonts: fonts, clock: clock, configuration: configuration, log: showLog)
        configuration.logo = nil; configuration.underlay = nil   // the session holds its own
        (content, underlay) = (HUDContent(), nil)   // not `consume`: Swift 6.0.3's checker crashes on it
        session.onEnd = { _ in loop.stop() }
        var onDemand: OnDemandDisplay?
        if start.onDemand, let pending = start.pending {
            let d = OnDemandDisplay(pending: pending, loop: loop) { [board] in
                let p = board.settings?.profile ?? profile
                return try self.openToShow(profile: p, rotation: p.display.rotation, request: p.display.mode.flatMap(ModeRequest.init(parsing:)),
                                           scale: p.scale, kernel: runner.kernel)
            }
            d.follow(session)
            onDemand = d
        }
        defer { _ = onDemand }
        var devices = ShowDevices()
        var inputRotation: Rotation?
        // A profile detected again later (a display switch, a display waited for) changes the
        // look and the input from then on.
        board.changed = { old, new in
            var logo: Bitmap?, underlay: Bitmap?
            if new.profile.logo != old.profile.logo {
                do { logo = try loadLogo(new) } catch { showLog("board: \(error); no logo") }
            }
            if new.underlayImage != old.underlayImage {
                do { underlay = try loadPictures(new).underlay } catch { showLog("board: \(error); no underlay picture") }
            }
            session.takeBoard(from: old.profile, to: new.profile, logo: logo, underlay: underlay)
            guard let rotation = inputRotation else { return }
            devices.stop()
            devices.start(self, session: session, settings: new, rotation: new.profile.display.rotation ?? rotation, clock: clock)
        }
        session.addObserver { event in
            // Another program has the screen before a first frame (VT switched away, Plymouth's
            // deactivate): the daemon is up all the same; systemd must not wait for a frame.
            if case .screen(.deactivated) = event { start.notifyReady("Another program has the screen") }
            guard case let .firstFrame(t) = event else { return }
            let real = start.realScreen(screen)
            var shown = session.configuration.content
            shown.image = nil
            self.firstFrameShown(at: t, screen: real, fonts: fonts, asStarted: shown == startContent)
            start.notifyReady("On screen")
            self.extras?.firstFrameShown()
            // Off the path to the first frame: input and the tilt.
            let now = self.board.settings ?? settings
            let displayRotation = now.profile.display.rotation ?? real.displays.first?.transform.rotation ?? .none
            inputRotation = displayRotation
            devices.start(self, session: session, settings: now, rotation: displayRotation, clock: clock)
        }
        var timedOut = false
        if let duration { loop.schedule(after: duration) { timedOut = true; session.end(.exit(0)) } }
        var failure: Error?
        do {
            try extras?.attach(session: session, loop: loop, kernel: runner.kernel, screen: screen, settings: settings)
            if let wanted = a.string(.untilWindow) { try endAtWindow(wanted, screen: screen, session: session) }
            startContent = session.configuration.content
            startContent.image = nil
            try session.start { StartMarks.mark(.layout) }
            try startWaiting(start, session: session, loop: loop, kernel: runner.kernel, profile: profile, rotation: profile.display.rotation, request: request, scale: scale)
            // Nothing to draw (--hidden): up once the socket listens.
            if extras?.startHidden == true { start.notifyReady("Hidden") }
            try runner.run()
        } catch {
            failure = error
        }
        if let dir = offscreen, dir != "-", let picture = screen.innermost.presentedPicture { try? writePNG(picture, to: dir + "/last.png") }
        start.wait?.cancel()
        devices.stop()
        screen.close(retain: extras?.detach() ?? a.flag(.retain))
        extras?.screenClosed()
        for problem in fonts.saveGlyphCache() { showLog(problem) }
        keepInitramfsFrame()
        let code: Int32? = { if !timedOut, case let .exit(c) = session.ended { return c } else { return nil } }()
        showLog("done " + screen.summary + (code.map { " exit=\($0)" } ?? ""))
        if case let .failed(why) = session.ended { failure = failure ?? ShowError(why) }
        if let failure { throw ShowError("\(failure)") }
        if let code, code != 0 { throw ExitCode(code) }
    }

    /// The signals that end a display run (SIGINT, SIGTERM, SIGHUP).
    public static let quitSignals = [SIGINT, SIGTERM, SIGHUP]

    /// `--glyph-cache`, else /var/cache/kiosk-hud where it can be written (root, the boot case),
    /// else the user's cache directory; nil for 'none' or when there is no place. The C
    /// constructor's rule (the early frame looks there before this code runs).
    /// The session's configuration: the profile's look, timing and keys, the content and
    /// pictures, the options' actions (`run`'s, and the frame cache's renewal's).
    func sessionConfiguration(profile: BoardProfile, content: HUDContent, underlay: Bitmap?, logo: Bitmap?, scale: Double?) -> SessionConfiguration {
        let a = arguments
        // show ends when the button is pressed (unless told otherwise); a daemon tells its clients.
        let buttonAction = action(a.string(.onButton).flatMap(ButtonChoice.init) ?? (content.showsButton && extras == nil ? .exit : .none), exitCode: 10)
        let tapAction = action(a.string(.onTapOutside).flatMap(ButtonChoice.init) ?? (profile.touch.tapOutside ? .exit : .none), exitCode: 11)
        var configuration = SessionConfiguration(
            style: profile.style, content: content, timing: profile.timing, underlayColor: profile.underlayColor, underlay: underlay,
            scale: scale, buttonKeys: profile.touch.keys, tapOutside: profile.touch.tapOutside || a.string(.onTapOutside).flatMap(ButtonChoice.init) == .exit,
            onButton: buttonAction, onTapOutside: tapAction, animateIn: a.flag(.animate), quitSignals: extras?.quitsOnSignals == false ? [] : ShowCommand.quitSignals,
            startHidden: extras?.startHidden ?? false)
        configuration.underlayFit = profile.underlayFit
        configuration.logo = logo
        return configuration
    }

    func glyphCacheDirectory() -> String? { FrameCache.cacheDirectory(CommandLine.arguments) }
}

/// `ScreenLoop`'s earlier name.
@available(*, deprecated, renamed: "ScreenLoop")
public typealias DisplayLoop = ScreenLoop

/// What a display run runs on: its event loop, the kernel behind it, the clock of the loop and
/// the session, and how to turn the loop until it stops.
public struct ScreenLoop {
    /// The loop the session, the screen and the extras register with.
    public var loop: EventLoop
    /// The system calls behind `loop` (the control socket, the display wait).
    public var kernel: Kernel
    /// The loop's clock, also the session's.
    public var clock: any Clock & Sendable
    /// Turns the loop until it is stopped (`PollEventLoop.run`; a test moves an embedded loop's clock).
    public var run: () throws -> Void
    /// The parts of a display run's loop, for a loop that makes no system calls of its own (a
    /// test's `EmbeddedEventLoop`): `kernel` serves the screen, the sockets and the files. A
    /// `PollEventLoop` takes `init(_:clock:)`, which uses the loop's own kernel.
    public init(loop: EventLoop, kernel: Kernel, clock: any Clock & Sendable, run: @escaping () throws -> Void) {
        self.loop = loop; self.kernel = kernel; self.clock = clock; self.run = run
    }

    /// A `PollEventLoop` and the clock it was made with: the screen and the sockets use the
    /// loop's own kernel (one value, so the two cannot differ).
    public init(_ loop: PollEventLoop, clock: any Clock & Sendable) {
        self.init(loop: loop, kernel: loop.kernel, clock: clock) { try loop.run() }
    }

    /// A new real loop (`PollEventLoop` on the system's kernel), one clock for the loop and the session.
    static func system() -> ScreenLoop {
        let clock = SystemClock()
        return ScreenLoop(PollEventLoop(clock: clock), clock: clock)
    }
}

/// The command line's root: `kiosk-hud COMMAND [options]` (the executable lists the commands).
public enum KioskHUDCommandLine {
    /// The root's one-line description (help, manual page).
    public static let abstract = "An MBProgressHUD-style overlay for kiosk Linux boards, drawn straight to the screen."
}
