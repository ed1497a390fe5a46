import KioskCLI
import KioskSys

/// `kiosk-hud doctor`: this machine as the boot will meet it — the board profile the daemon
/// takes, the initramfs, the units, what else wants the display, the display itself — one line
/// a check, with what to do (DoctorCheck.swift says how the checks are made).
public enum DoctorCommand {
    static let root = OptionSpec(.root, value: "DIR", rule: .path,
                                 help: "A directory standing for / (another system's files: /etc, /boot, /sys, /proc/device-tree; tests). Default: $KIOSK_BOARD_ROOT, else /.")

    /// `kiosk-hud doctor`'s options, help and manual page.
    public static let spec = CommandSpec(
        "doctor", abstract: "Check this machine as the boot meets it: board, initramfs, units, Plymouth and display manager, display.",
        discussion: """
        One line a check: ok, warn or fail, what was found, and after → what to do. board: the profile \
        the boot's daemon takes (--board in /etc/default/kiosk-hud, else detected) and why, and whether \
        its [match] waits for the display. initramfs: the image the boot loads (/boot/initrd.img-VERSION; \
        on a Raspberry Pi what config.txt loads, /boot/firmware/initramfs8 or initramfs_2712 with \
        auto_initramfs=1), and whether kiosk-hud, the pictures the settings name and the display's \
        modules are in it (lsinitramfs), and whether it is older than the settings. units: \
        systemd-analyze verify of kiosk-hud.service, kiosk-hud.socket and kiosk-hud-quit.service with \
        their drop-ins (an ordering cycle fails). handover: Plymouth installed too (two splashes), a \
        display manager not ordered after kiosk-hud-quit.service. display: the DRM cards, their drivers \
        and connectors, the display's modules loaded. lsinitramfs and systemd-analyze run only when \
        installed (a warning says what to install).

        Exit codes: 0 nothing failed (warnings do not fail), 1 a check failed, 64 bad options.
        """,
        groups: [OptionGroup([root])])

    /// Runs the checks and prints their lines; throws `ExitCode(1)` when one failed.
    public static func run(_ a: ParsedArguments) throws {
        let root = rootDirectory(a.string(.root) ?? environmentValue("KIOSK_BOARD_ROOT") ?? "")
        let report = check(root: root, kernel: LinuxKernel())
        writeText(report.text, to: 1)
        if report.exitCode != 0 { throw ExitCode(report.exitCode) }
    }

    /// Every check on the system under `root` ("" for this one), read through `kernel`.
    static func check(root: String, kernel: any Kernel) -> DoctorReport {
        let g = DoctorGather(root: root, kernel: kernel)
        return DoctorReport(DoctorChecks.board(g.boardFacts) + DoctorChecks.initramfs(g.initramfsFacts()) + DoctorChecks.units(g.unitsFacts())
                                + DoctorChecks.handover(g.handoverFacts()) + DoctorChecks.display(g.displayFacts()))
    }
}

/// A root directory as the commands use it: "" for /, else without trailing slashes.
func rootDirectory(_ path: String) -> String {
    var r = Substring(path)
    while r.hasSuffix("/") { r = r.dropLast() }
    return String(r)
}
