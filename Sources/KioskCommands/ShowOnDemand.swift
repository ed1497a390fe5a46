import KioskBoards
import KioskSeams
import KioskDRM
import KioskSession
import KioskSys

// A daemon with nothing to show leaves the display alone. One started hidden — on its socket
// after the boot's handover (a `ctl status` health check is enough to start it), with --hidden,
// or with --show-when-updating — opens no display and touches no VT until it is asked to show:
// the kiosk app's compositor (labwc under lightdm on Raspberry Pi OS) keeps DRM master, its VT
// stays as logind set it, and a display manager that restarts finds the card free. Asked to
// show, the daemon opens the display then; once everything is hidden again and stays so for
// `linger` seconds (a `run`'s next job, a second `show`, reuse the open display), it lets the
// display go: DRM master dropped, the CRTCs given back what they showed.
//
// Whose screen it is: a real DRM card that another program is master of (the compositor) is
// that program's. The daemon does not wait for it to let go (a compositor that restarts would
// find the card taken), nor show on the firmware's /dev/fb0 instead, which nobody sees under a
// compositor: the HUD keeps its state, `status` says `active: false`, input presses nothing,
// and the next `show` tries again.

/// The display of a daemon started hidden (see the file's header).
final class OnDemandDisplay {
    /// How long everything stays hidden before the display is let go.
    static let linger = 2.0
    let pending: PendingScreen
    let loop: EventLoop
    let open: () throws -> Screen
    private var releaseTimer: LoopToken?
    private var lastFailure: String?
    /// Suspended here because another program has the display (`status`: not active), until
    /// the next show tries again.
    private var heldElsewhere = false

    init(pending: PendingScreen, loop: EventLoop, open: @escaping () throws -> Screen) {
        self.pending = pending; self.loop = loop; self.open = open
    }

    /// Follows `session`: opens on `showing`, lets go once hidden for `linger` seconds.
    func follow(_ session: HUDSession) {
        session.addObserver { [unowned self, unowned session] event in
            switch event {
            case .showing:
                self.cancelRelease()
                self.take()
            case .hud(.hidden, _):
                guard !session.isVisible else { return }
                self.cancelRelease()
                self.releaseTimer = self.loop.schedule(after: OnDemandDisplay.linger) { [unowned self, unowned session] in
                    self.releaseTimer = nil
                    guard !session.isVisible, self.pending.inner != nil else { return }
                    showLog("display: nothing to show for \(fmt(OnDemandDisplay.linger)) s; letting it go")
                    self.pending.release(retain: false)
                }
            default: break
            }
        }
    }

    private func cancelRelease() {
        if let t = releaseTimer { loop.cancel(t) }
        releaseTimer = nil
    }

    /// Opens the display for a show, unless it is open.
    private func take() {
        guard pending.inner == nil else { return }
        if heldElsewhere { heldElsewhere = false; pending.resume() }
        do {
            let s = try open()
            lastFailure = nil
            showLog("display: opened to show (\(s.innermost.summary))")
            try pending.adopt(s)
        } catch {
            let why = "\(error)"
            if why != lastFailure { showLog("display: cannot show now: \(why); the HUD keeps its state and the next show tries again") }
            lastFailure = why
            if error is DisplayHeldElsewhere, !pending.isSuspended {
                heldElsewhere = true
                pending.suspend()
            }
        }
    }
}

extension ShowCommand {
    /// Whether the run starts on an `OnDemandDisplay`: a daemon started hidden, on a real display
    /// (an overlay on a compositor keeps its surfaces: a hidden HUD there costs nothing).
    var opensDisplayOnShow: Bool { extras?.startHidden == true && offscreen == nil && arguments.string(.fbdev) == nil && arguments.string(.wayland) == nil }

    /// The display opened for a show of a daemon started hidden: a real DRM card when there is
    /// one — none that another program is master of, and then not /dev/fb0 in its place — else
    /// the display as `show` opens it.
    func openToShow(profile: BoardProfile, rotation: Rotation?, request: ModeRequest?, scale: Double?, kernel: Kernel) throws -> Screen {
        if profile.display.card == nil, let real = ScreenDevice.scan(kernel: kernel, log: { _ in }).first(where: \.isReal) {
            do {
                return try openDRM(profile: profile, card: real.path, rotation: rotation, request: request, scale: scale)
            } catch where isHeldByAnother(error) {
                throw DisplayHeldElsewhere(device: real)
            }
        }
        return try openScreen(profile: profile, rotation: rotation, request: request, scale: scale)
    }
}

/// A real DRM card another program is master of: its screen, not ours to show on.
struct DisplayHeldElsewhere: Error, CustomStringConvertible {
    var device: ScreenDevice
    var description: String { "\(device) belongs to another program (its DRM master: the kiosk app's compositor, a display manager)" }
}
