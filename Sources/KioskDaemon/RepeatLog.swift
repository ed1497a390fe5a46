import KioskSeams

/// A `LogLimiter` on an event loop: lines of a kind go to `log` through the limiter, and a
/// timer writes each window's count when it ends. `close()` writes what is still counted.
final class RepeatLog<Kind: Hashable & Sendable> {
    private let loop: EventLoop
    private let log: (String) -> Void
    /// The words that come before a count: "control socket: refused: too many clients (32)".
    private let describe: (Kind) -> String
    private var limiter: LogLimiter<Kind>
    private var timer: LoopToken?
    private var timerAt: Double?

    init(loop: EventLoop, window: Double, log: @escaping (String) -> Void, describe: @escaping (Kind) -> String) {
        self.loop = loop; self.log = log; self.describe = describe
        limiter = LogLimiter(window: window)
    }

    /// `line` (of `kind`): written, or counted.
    func write(_ kind: Kind, _ line: @autoclosure () -> String) {
        let v = limiter.note(kind, at: loop.now)
        if let s = v.summary { log("\(describe(s.kind)) \(s)") }
        if v.write { log(line()) }
        arm()
    }

    /// Writes every count still open and stops the timer.
    func close() {
        if let t = timer { loop.cancel(t) }
        timer = nil; timerAt = nil
        for s in limiter.flush(at: loop.now) { log("\(describe(s.kind)) \(s)") }
    }

    private func arm() {
        guard let next = limiter.nextDeadline else { return }
        if let at = timerAt, at <= next { return }
        if let t = timer { loop.cancel(t) }
        timerAt = next
        timer = loop.schedule(at: next) { [weak self] in self?.fire() }
    }

    private func fire() {
        timer = nil; timerAt = nil
        for s in limiter.expire(at: loop.now) { log("\(describe(s.kind)) \(s)") }
        arm()
    }
}
