// doctor's display check: the DRM cards, their drivers and connectors as the kernel shows them
// now (/sys/class/drm), and whether the display's modules the profile names — on a Raspberry Pi
// the panel's whole chain: vc4, the DSI bridge, the panel, its regulator — are loaded
// (/sys/module/NAME).
import KioskBoards

/// What the display check looks at.
struct DoctorDisplayFacts {
    /// The cards: name, sysfs driver, connectors with their status.
    var cards: [BoardFacts.Card] = []
    /// A Raspberry Pi (its device tree says so).
    var isPi = false
    /// The display's modules the profile names ([display] modules, its switch driver).
    var modules: [String] = []
    /// The modules loaded (/sys/module), by `moduleKey`.
    var loaded: Set<String> = []
    /// Modules built into the kernel, by `moduleKey`.
    var builtin: Set<String> = []
}

extension DoctorChecks {
    /// The display's lines: one per card, and one for the modules.
    static func display(_ f: DoctorDisplayFacts) -> [DoctorResult] {
        var out: [DoctorResult] = []
        if f.cards.isEmpty {
            out.append(DoctorResult(.display, .fail, "no DRM card in /sys/class/drm: nothing to draw on",
                                    todo: f.isPi ? "dtoverlay=vc4-kms-v3d (and the panel's overlay) in /boot/firmware/config.txt" : "load the display's driver (modprobe NAME)"))
        }
        for c in f.cards {
            let connectors = c.connectors.map { "\($0.name) \($0.status ?? "?")" }
            let found = "\(c.name) (\(c.driver ?? "no driver"))" + (connectors.isEmpty ? ": no connectors" : ": " + connectors.joined(separator: ", "))
            if c.connectors.contains(where: { $0.status == "connected" }) || c.connectors.isEmpty && f.cards.count > 1 {
                out.append(DoctorResult(.display, .ok, found))
            } else if f.cards.contains(where: { $0.connectors.contains { $0.status == "connected" } }) {
                out.append(DoctorResult(.display, .ok, found + " (another card has the display)"))
            } else {
                out.append(DoctorResult(.display, .warn, found + ": nothing connected",
                                        todo: f.isPi ? "check the panel's cable and its overlay in /boot/firmware/config.txt" : "check the cable and the panel"))
            }
        }
        let modules = unique(f.modules)
        guard !modules.isEmpty else { return out }
        let missing = modules.filter { !f.loaded.contains(moduleKey($0)) && !f.builtin.contains(moduleKey($0)) }
        if missing.isEmpty {
            out.append(DoctorResult(.display, .ok, "the display's modules are loaded: " + spokenList(modules)))
        } else {
            out.append(DoctorResult(.display, .warn, "the display's module\(missing.count == 1 ? "" : "s") \(spokenList(missing)) not loaded (of \(spokenList(modules)))",
                                    todo: f.isPi ? "check the panel's overlay in /boot/firmware/config.txt (dtoverlay=…) and dmesg" : "modprobe " + missing.joined(separator: " ")))
        }
        return out
    }
}
