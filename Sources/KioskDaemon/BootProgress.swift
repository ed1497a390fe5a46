/// What `kiosk-hud ctl follow-boot` sends the daemon for each reading of the systemd manager's
/// `Progress`: the bar never goes backwards, moves in steps of at least 1 %, and ends at 1.0.
///
/// Design note: systemd's Progress is 1 − (jobs left ÷ jobs installed so far). Jobs added while
/// the boot runs (a device appears and pulls in units) raise the divisor and so move it
/// backwards; before the first transaction it is 0 ÷ 0, NaN in systemd 252 (later versions say 1
/// there, but the follower runs from a unit of the boot transaction, so never that early). So
/// the bar shows the highest reading so far, NaN and readings below it are ignored, and one
/// request per percent keeps a boot of hundreds of jobs to at most about a hundred requests.
/// Progress is exactly 1 once the boot is finished (the manager's finish timestamp is set: the
/// last job of the default target's transaction is done), which ends the following.
///
///     var p = BootProgress()
///     p.next(0)    // .send(0)       the first reading shows the bar
///     p.next(0.1)  // .send(0.1)
///     p.next(0.05) // .wait          backwards: ignored
///     p.next(1)    // .finish        send 1.0 and stop
public struct BootProgress: Sendable {
    /// What to do with a reading.
    public enum Step: Equatable, Sendable {
        /// Nothing to send.
        case wait
        /// Send this progress.
        case send(Double)
        /// The boot is finished: send 1.0 and stop following.
        case finish
    }

    /// The smallest rise that is sent.
    public static let minimumStep = 0.01

    /// The last progress sent (nil before the first).
    public private(set) var shown: Double?

    public init() {}

    /// The step for the next reading of Progress.
    public mutating func next(_ reading: Double) -> Step {
        guard !reading.isNaN else { return .wait }
        if reading >= 1 { shown = 1; return .finish }
        let p = max(0, reading)
        if let s = shown, p - s < Self.minimumStep - 1e-9 { return .wait }
        shown = p
        return .send(p)
    }
}
