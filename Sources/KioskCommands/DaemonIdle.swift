import KioskCLI
import KioskSys

// `daemon --idle-after-first-frame`: once its first frame is on screen, the daemon runs at nice 19
// (every thread; the lowest CPU priority an ordinary scheduling class has). The shutdown screens'
// units pass it (dist/systemd/kiosk-hud-{poweroff,reboot,halt,kexec}.service).
//
// Why. A shutdown screen starts while the machine stops its units, and nothing waits for it
// (Type=exec), so all it can cost the shutdown is CPU. Its first frame usually comes from the
// frame cache, put up by the C constructor before the Swift runtime starts; the daemon's start
// after that (board detection, fonts, layout, the frame drawn again to take the early one over)
// is the bulk of its CPU and shows nothing new. Measured under QEMU TCG (one guest CPU, Debian
// 12, release build, a quiet host; dist/README.md): with the screens at the default priority a
// power-off took 0.7 s and 1.9 s longer than without them, the extra spread over the whole
// unit-stopping stage. At nice 19 from the start, a busy shutdown starved the daemon before its
// first frame and the screen never came. So the frame at the default priority, the rest at 19:
// on a board's other cores the rest runs at once, and on a busy one CPU it only takes idle time.
// With it (the same set-up, three rounds each way, alternated): the median reboot took 4.73 s
// with the screens against 4.98 s without, the median power-off 5.08 s against 5.10 s, the label
// on screen 1.4–2.2 s after the command.
//
// Not SCHED_IDLE: a nice-19 task still gets ~1.5 % of a busy CPU (weight 15 against 1024), so a
// file it holds open (the glyph cache written after the first frame) is closed within the
// shutdown, not held over systemd-shutdown's read-only remount by a thread that never runs.

/// `--idle-after-first-frame`: the priority drop, made once.
final class IdleAfterFirstFrame {
    /// The nice value after the first frame.
    static let nice: Int32 = 19
    let kernel: Kernel
    private(set) var dropped = false

    /// nil without the option.
    init?(_ a: ParsedArguments, kernel: Kernel) {
        guard a.flag(.idleAfterFirstFrame) else { return nil }
        self.kernel = kernel
    }

    /// Lowers the priority (once), logging why; a failure is logged and changes nothing else.
    func drop(_ why: String) {
        guard !dropped else { return }
        dropped = true
        do {
            try kernel.setNice(IdleAfterFirstFrame.nice)
            showLog("\(why): the rest at nice \(IdleAfterFirstFrame.nice) (--idle-after-first-frame)")
        } catch {
            showLog("--idle-after-first-frame: the priority stays: \(error)")
        }
    }
}

extension OptionKey {
    public static let idleAfterFirstFrame = OptionKey("idle-after-first-frame")
}
