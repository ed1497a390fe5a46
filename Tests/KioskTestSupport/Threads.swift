// Test helpers shared by the suites that boot QEMU guests. Kept out of the product modules:
// they need Swift concurrency, which kiosk-hud does not link (Package.swift, `lean`).
import KioskSys

/// Runs blocking `body` on a thread of its own and suspends (without holding a cooperative
/// thread) until it returns. If no thread can be made, runs `body` here.
///
///     let status = await onOwnThread { waitForChild(pid) }
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { (c: CheckedContinuation<T, Never>) in
        do {
            try spawnDetachedThread { c.resume(returning: body()) }
        } catch {
            c.resume(returning: body())
        }
    }
}
