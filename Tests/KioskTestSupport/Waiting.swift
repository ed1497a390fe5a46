// Waiting for what another process does (a daemon that starts answering, a status that changes,
// memory given back): one polling loop and one bound for every suite that runs the real binary,
// instead of a loop of its own in each test with its own count and sleep.
//
// A wait checks at a fixed small interval and returns as soon as its condition holds, so a test
// takes as long as the event does; the bound is only there so that a hang ends the test. A test
// that must see an event waits for that event (a `ctl status` field, a file the program writes, a
// log line), not for a number of seconds that a loaded host may not keep.
import Glibc

/// The bound and the interval of `waitUntil` and `waitForDaemon`.
public enum Waiting {
    /// How long a wait lasts at most unless told otherwise: 30 s. The largest bound the suites'
    /// own loops had (SWUpdate's and RAUC's rigs, 1500 × 20 ms; the arm64 unit under qemu-user,
    /// 150 × 200 ms; the others 5 or 10 s), so that no wait became stricter when they were made
    /// one. Only a hang takes that long: a wait whose event comes returns at once.
    public static let defaultTimeout: Double = 30

    /// Between two checks: 20 ms (short against a daemon's start, long against a `ctl` call's
    /// cost, so polling does not load the host it waits on).
    public static let interval: useconds_t = 20_000

    /// CLOCK_MONOTONIC in seconds, the clock of the deadlines (it does not move with the wall
    /// clock): for a condition that also holds only after a given time.
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

/// Checks `condition` every `Waiting.interval` until it holds or `seconds` have passed; whether
/// it held (checked once more at the deadline, so a slow last check still counts).
///
///     #expect(waitUntil { Proc.exists(dir + "/ready") })
public func waitUntil(_ seconds: Double = Waiting.defaultTimeout, _ condition: () -> Bool) -> Bool {
    let end = Waiting.now() + seconds
    while Waiting.now() < end {
        if condition() { return true }
        usleep(Waiting.interval)
    }
    return condition()
}

/// Whether the kiosk-hud daemon at `socket` answers `ctl ping` now. `binary` is how kiosk-hud is
/// run (by default the one built next to the tests; an installed one under qemu-user for
/// another architecture), `env` added to its environment.
public func daemonAnswers(socket: String, binary: [String] = [Proc.kioskHUD], env: [String: String] = [:]) -> Bool {
    Proc.run(binary + ["ctl", "ping", "--socket", socket], env: env).status == 0
}

/// Waits until the kiosk-hud daemon at `socket` answers `ctl ping` (`daemonAnswers`), for up to
/// `timeout` seconds; whether it did. The wait every test that starts a daemon makes before it
/// talks to it.
///
///     guard waitForDaemon(socket: dir + "/c.sock") else { Issue.record("no daemon"); return }
public func waitForDaemon(socket: String, binary: [String] = [Proc.kioskHUD], env: [String: String] = [:],
                          timeout: Double = Waiting.defaultTimeout) -> Bool {
    waitUntil(timeout) { daemonAnswers(socket: socket, binary: binary, env: env) }
}
