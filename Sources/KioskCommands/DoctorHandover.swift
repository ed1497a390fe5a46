// doctor's handover check: what else wants the display at boot. Plymouth beside kiosk-hud is two
// splashes (Plymouth's hook puts plymouthd into the initramfs, and kiosk-hud's then stays out);
// a display manager (display-manager.service, e.g. lightdm starting labwc on Raspberry Pi OS's
// desktop image) not ordered after kiosk-hud-quit.service may start its compositor while the
// splash still holds the display.

/// What the handover check looks at.
struct DoctorHandoverFacts {
    /// Plymouth's daemon, where found (nil: not installed).
    var plymouthd: String?
    /// KIOSK_HUD_INITRAMFS (/etc/kiosk-hud/initramfs.conf).
    var hookMode = "yes"
    /// The unit display-manager.service is an alias of (nil: none).
    var displayManager: String?
    /// The file that orders it after kiosk-hud-quit.service (nil: none does).
    var orderedBy: String?
}

extension DoctorChecks {
    /// The handover's lines.
    static func handover(_ f: DoctorHandoverFacts) -> [DoctorResult] {
        var out: [DoctorResult] = []
        if let p = f.plymouthd {
            let inInitramfs = f.hookMode == "force" ? "both are in the initramfs (KIOSK_HUD_INITRAMFS=force)" : "Plymouth's in the initramfs, kiosk-hud's after it"
            out.append(DoctorResult(.handover, .warn, "Plymouth is installed (\(p)) beside kiosk-hud: two splashes, \(inInitramfs)",
                                    todo: "apt purge plymouth (kiosk-hud answers the plymouth command), then update-initramfs -u; or keep Plymouth and disable kiosk-hud.service"))
        } else {
            out.append(DoctorResult(.handover, .ok, "no Plymouth: kiosk-hud is the only splash"))
        }
        guard let dm = f.displayManager else {
            out.append(DoctorResult(.handover, .ok, "no display manager (display-manager.service)"))
            return out
        }
        if let by = f.orderedBy {
            out.append(DoctorResult(.handover, .ok, "\(dm) (display-manager.service) starts after kiosk-hud-quit.service (\(by))"))
        } else {
            out.append(DoctorResult(.handover, .warn, "\(dm) (display-manager.service) is not ordered after kiosk-hud-quit.service: it may start its compositor while the splash holds the display",
                                    todo: "the package orders it by /lib/systemd/system/display-manager.service.d/kiosk-hud.conf: install kiosk-hud again "
                                        + "(or put that file, After=kiosk-hud-quit.service, in /etc/systemd/system/display-manager.service.d/), then systemctl daemon-reload"))
        }
        return out
    }
}
