// The sampler's sleep between readings (its thread comes from KioskSys.spawnDetachedThread).
import Glibc
import KioskSys

/// Sleeps `seconds` (poll(2) with no descriptors; millisecond resolution).
func sleepSeconds(_ seconds: Double) {
    guard seconds > 0 else { return }
    var none: [pollfd] = []
    _ = try? poll(&none, timeoutMs: Int32(min(seconds * 1000, 60_000).rounded(.up)))
}
