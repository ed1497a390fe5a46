// The process's clock for the HUD: KioskSeams' Clock over CLOCK_MONOTONIC.
// Not the standard library's ContinuousClock: that lives in the concurrency runtime, which
// kiosk-hud does not link (Sources/kiosk-hud/LinkOrder.md).
import KioskSeams

/// The process's monotonic clock (CLOCK_MONOTONIC), in seconds since this clock was made.
public final class SystemClock: Clock, Sendable {
    private let origin: UInt64
    public init() { origin = monotonicNanoseconds() }
    public var now: Seconds { Double(monotonicNanoseconds() &- origin) * 1e-9 }
}
