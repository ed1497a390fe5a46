// KioskHUDAsync — the HUD's button as an async sequence, for programs that use Swift
// concurrency. A module of its own so that KioskHUD does not need the concurrency runtime:
// kiosk-hud links without it (Package.swift, `lean`), which keeps about 300 kB of code and the
// runtime's start-up constructors out of the process.
import KioskHUD

extension HUD {
    /// Button presses (and taps outside) as an async sequence; each call makes a new stream.
    /// Events are yielded on the thread that feeds the HUD its input (`handle(_:)`).
    public func buttonEvents() -> AsyncStream<HUDEvent> {
        let (stream, continuation) = AsyncStream<HUDEvent>.makeStream()
        addObserver { if $0 != .hidden { continuation.yield($0) } }
        return stream
    }
}
