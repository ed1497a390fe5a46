import Glibc
import KioskSys

/// No display could be opened (`run` then runs its command without a HUD).
struct DisplayUnavailable: Error, CustomStringConvertible {
    var description: String
}

struct ShowError: Error, CustomStringConvertible {
    var description: String
    init(_ s: String) { description = s }
}

/// One log line on stderr (write(2): unbuffered, no stdio state).
func showLog(_ s: String) { writeText("kiosk-hud: \(s)\n", to: 2) }

func fmt(_ v: Double) -> String {
    let r = (v * 100).rounded() / 100
    return String(r)
}
