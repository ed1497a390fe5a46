import KioskBoards
import KioskCLI
import KioskSeams
import KioskDRM
import KioskSession
import KioskSys

// `--wait-display SECONDS` (the board profile's [display] wait): when the display is not there
// at start, the run goes on on a `PendingScreen` — the loop, the daemon's control socket, the
// signals — while a `ScreenWait` (KioskDRM) listens to the kernel's uevents and opens the
// display when a drm device appears. After SECONDS it gives up with one log line and opens the
// display as without the option (the fbdev fallback included); if that fails too, the run ends
// with the same error as without the option. And systemd hears READY=1 (Type=notify) once the
// first frame is on screen, or when the wait gives up.

/// The wait for a display, and the service manager's readiness, for one display run.
final class ScreenStart {
    let seconds: Double
    /// The real display, once it is open (nil while waiting).
    let pending: PendingScreen?
    /// Why the first attempt found no display.
    let firstReason: String
    var wait: ScreenWait?
    /// A daemon started hidden: `pending` is opened when asked to show (ShowOnDemand.swift),
    /// not waited for.
    var onDemand = false
    private var notified = false
    private let started = monotonicSeconds()
    /// The seam systemd is told through (sd_notify).
    let kernel: any Kernel

    init(seconds: Double, pending: PendingScreen?, reason: String, kernel: any Kernel = LinuxKernel()) {
        self.seconds = seconds; self.pending = pending; firstReason = reason; self.kernel = kernel
    }

    /// The screen the run shows on, behind the pending one once it has appeared.
    func realScreen(_ screen: Screen) -> Screen { pending?.inner ?? screen }

    /// Tells systemd the service is up (READY=1), once; nothing without $NOTIFY_SOCKET.
    func notifyReady(_ status: String) {
        guard !notified else { return }
        notified = true
        do { try kernel.notifyServiceManager("READY=1\nSTATUS=\(status)\n") } catch { showLog("cannot tell systemd we are ready: \(error)") }
    }

    /// Tells systemd what the daemon waits for (STATUS=, shown by `systemctl status`).
    func notifyStatus(_ status: String) { _ = try? kernel.notifyServiceManager("STATUS=\(status)\n") }

    var elapsed: String { fmt(monotonicSeconds() - started) }
}

extension ShowCommand {
    /// Seconds to wait for a display that is not there (0: none): the one given, else the
    /// daemon's default (8 s). The wait is for DRM: with --offscreen or --fbdev there is nothing
    /// to wait for.
    func displayWait(_ profile: BoardProfile) -> Double {
        offscreen == nil && arguments.string(.fbdev) == nil ? profile.display.waitSeconds(daemon: extras is DaemonParts) : 0
    }

    /// Opens the display, or — with a wait and no display yet — a `PendingScreen` to run on
    /// until it appears (`startWaiting` then waits for it).
    func openOrWait(profile: BoardProfile, rotation: Rotation?, request: ModeRequest?, scale: Double?) throws -> (Screen, ScreenStart) {
        let seconds = displayWait(profile)
        do {
            let s = try openScreen(profile: profile, rotation: rotation, request: request, scale: scale)
            return (s, ScreenStart(seconds: seconds, pending: nil, reason: ""))
        } catch let e as UsageError { throw e } catch {
            guard seconds > 0 else { throw ScreenUnavailable(description: "cannot open the display: \(error)") }
            let pending = PendingScreen()
            showLog("display: none yet (\(shortReason(error))); waiting up to \(fmt(seconds)) s for one, the control socket answers meanwhile")
            return (pending, ScreenStart(seconds: seconds, pending: pending, reason: shortReason(error)))
        }
    }

    /// With a pending screen: waits on `loop` for the display (see the file's header).
    func startWaiting(_ start: ScreenStart, session: HUDSession, loop: EventLoop, kernel: Kernel,
                      profile: BoardProfile, rotation: Rotation?, request: ModeRequest?, scale: Double?) throws {
        guard let pending = start.pending, !start.onDemand else { return }
        start.notifyStatus("Waiting up to \(fmt(start.seconds)) s for a display")
        let open = { () throws -> Screen in
            // The profile detected again since the start (ShowBoard.swift), else the one given.
            guard let p = self.board.settings?.profile else {
                return try self.openScreen(profile: profile, rotation: rotation, request: request, scale: scale)
            }
            return try self.openScreen(profile: p, rotation: p.display.rotation, request: p.display.mode.flatMap(ModeRequest.init(parsing:)), scale: p.scale)
        }
        let adopt = { (screen: Screen) in
            do { try pending.adopt(screen) } catch { session.end(.failed("the display: \(error)")) }
        }
        let wait = ScreenWait(
            kernel: kernel, loop: loop, seconds: start.seconds, reason: start.firstReason,
            attempt: { () -> ScreenWait.Outcome in
                do { return .opened(try open()) } catch { return .notYet(shortReason(error)) }
            },
            opened: { [unowned start] screen in
                showLog("display: appeared after \(start.elapsed) s (\(start.wait?.drmUevents ?? 0) drm uevents, \(start.wait?.attempts ?? 0) attempts)")
                adopt(screen)
            },
            gaveUp: { [unowned start] why in
                showLog("display: none appeared within \(fmt(start.seconds)) s (\(why)); going on as without --wait-display")
                start.notifyReady("No display appeared within \(fmt(start.seconds)) s")
                do { adopt(try open()) } catch {
                    // `run`'s command is running already: it goes on, without a HUD.
                    if self.extras?.runsWithoutDisplay == true {
                        showLog("cannot open the display: \(error); the command goes on without a HUD")
                    } else {
                        session.end(.failed("cannot open the display: \(error)"))
                    }
                }
            })
        start.wait = wait
        do { try wait.start() } catch {
            showLog("display: cannot listen for uevents (\(error)); no display to wait for")
            start.notifyReady("No display")
            session.end(.failed("cannot open the display: \(start.firstReason)"))
        }
    }
}

/// An error as one short line (cut at ~200 characters).
private func shortReason(_ error: Error) -> String {
    let s = "\(error)"
    return s.count > 200 ? String(s.prefix(200)) + "…" : s
}
