// doctor's units check: `systemd-analyze verify` of the boot splash's units with their drop-ins
// (systemd loads a unit's drop-ins with it), on the system under the root (--root=DIR). verify
// exits 0 on most of what it finds and only says so, so its words are read too: an ordering
// cycle (systemd breaks it by deleting a job — "Job kiosk-hud.service/start deleted to break
// ordering cycle": no splash, or a unit of the boot not started) fails; anything else it says is
// a warning.

/// What the units check looks at.
struct DoctorUnitsFacts {
    /// The units checked, and where each was found (nil: not installed).
    var units: [(name: String, path: String?)] = []
    /// systemd-analyze verify's exit status and what it said (nil: not run; `missing` says why).
    var verify: ProgramRun?
    /// Why verify did not run.
    var notRun: String?
}

extension DoctorChecks {
    /// The units this check verifies.
    static let bootUnits = ["kiosk-hud.service", "kiosk-hud.socket", "kiosk-hud-quit.service"]

    /// The units' lines.
    static func units(_ f: DoctorUnitsFacts) -> [DoctorResult] {
        let missing = f.units.filter { $0.path == nil }.map(\.name)
        if missing.contains("kiosk-hud.service") {
            return [DoctorResult(.units, .fail, "kiosk-hud.service is not installed: no splash at boot",
                                 todo: "install the kiosk-hud package (or Tools/install.sh), then systemctl enable kiosk-hud.service")]
        }
        var out: [DoctorResult] = []
        if !missing.isEmpty {
            out.append(DoctorResult(.units, .warn, spokenList(missing) + " not installed", todo: "install the kiosk-hud package again"))
        }
        let names = spokenList(f.units.filter { $0.path != nil }.map(\.name))
        guard let v = f.verify else {
            return out + [DoctorResult(.units, .warn, "not verified: \(f.notRun ?? "systemd-analyze did not run")", todo: "apt install systemd (systemd-analyze)")]
        }
        let lines = v.output.split(separator: "\n").map { String($0).trimmingBlanks }.filter { !$0.isEmpty }
        if let cycle = lines.first(where: { containsWords($0, "ordering cycle") }) {
            let deleted = lines.first { containsWords($0, "deleted to break ordering cycle") }
            return out + [DoctorResult(.units, .fail, "systemd-analyze verify \(names): \(deleted ?? cycle)",
                                       todo: "remove the ordering that makes the cycle: a drop-in ordering kiosk-hud.service (Before=sysinit.target) after a unit started after sysinit.target (e.g. a socket with default dependencies); systemd-delta --type=extended lists the drop-ins")]
        }
        if v.status != 0 {
            return out + [DoctorResult(.units, .fail, "systemd-analyze verify \(names) failed (status \(v.status)): " + (lines.prefix(3).joined(separator: "; ")),
                                       todo: "fix what it names")]
        }
        if !lines.isEmpty {
            return out + [DoctorResult(.units, .warn, "systemd-analyze verify \(names): " + lines.prefix(3).joined(separator: "; ") + (lines.count > 3 ? " (…)" : ""),
                                       todo: "fix what it names")]
        }
        return out + [DoctorResult(.units, .ok, "systemd-analyze verify \(names) with their drop-ins: nothing to say")]
    }
}

/// Whether `text` has `words` in it.
func containsWords(_ text: String, _ words: String) -> Bool {
    let h = Array(text.utf8), n = Array(words.utf8)
    guard h.count >= n.count, !n.isEmpty else { return n.isEmpty }
    return (0...(h.count - n.count)).contains { Array(h[$0..<$0 + n.count]) == n }
}
