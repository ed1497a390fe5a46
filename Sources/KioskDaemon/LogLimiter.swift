/// Repeated log lines, limited: the first line of a kind is written, the repeats that follow
/// within `window` seconds are counted, and when the window ends one line says how many there
/// were. A pure value: the time is passed in (seconds on any monotonic clock), nothing runs by
/// itself — the owner calls `expire(at:)` at `nextDeadline` (a timer) and `flush(at:)` when it
/// closes.
///
///     var limiter = LogLimiter<Why>(window: 10)
///     let v = limiter.note(.tooManyClients, at: now)
///     if let s = v.summary { log("refused: too many clients \(s)") }
///     if v.write { log("refused pid 42: too many clients") }
///     // at limiter.nextDeadline:
///     for s in limiter.expire(at: now) { log("refused: \(s.kind) \(s)") }
public struct LogLimiter<Kind: Hashable & Sendable>: Sendable {
    /// How long, in seconds, repeats of a line that was written are counted instead.
    public let window: Double
    private var open: [Kind: (start: Double, count: Int)] = [:]

    /// A limiter with `window` seconds between a written line and the count of its repeats
    /// (at least 0; NaN is 0).
    public init(window: Double = 10) { self.window = window > 0 ? window : 0 }

    /// What to do with one line.
    public struct Verdict: Equatable, Sendable {
        /// The count of the previous window of this kind, to be written first (it had ended
        /// and `expire` was not called in time).
        public var summary: RepeatedLines<Kind>?
        /// Write the line (the first of a window), or not (counted).
        public var write: Bool

        /// A verdict (tests compare with one).
        public init(summary: RepeatedLines<Kind>?, write: Bool) { self.summary = summary; self.write = write }
    }

    /// A line of `kind` at `t`: written when no window of its kind is open, else counted.
    public mutating func note(_ kind: Kind, at t: Double) -> Verdict {
        var summary: RepeatedLines<Kind>?
        if let w = open[kind] {
            if t < w.start + window {
                open[kind]?.count += 1
                return Verdict(summary: nil, write: false)
            }
            if w.count > 0 { summary = RepeatedLines(kind: kind, count: w.count, since: w.start, until: w.start + window) }
        }
        open[kind] = (t, 0)
        return Verdict(summary: summary, write: true)
    }

    /// When the first open window ends (nil: none is open).
    public var nextDeadline: Double? { open.values.map { $0.start + window }.min() }

    /// Closes the windows that have ended by `t`; the counts of those that had repeats, oldest
    /// first. The next line of their kind is written again.
    public mutating func expire(at t: Double) -> [RepeatedLines<Kind>] {
        var out: [RepeatedLines<Kind>] = []
        for (kind, w) in open where w.start + window <= t {
            open[kind] = nil
            if w.count > 0 { out.append(RepeatedLines(kind: kind, count: w.count, since: w.start, until: w.start + window)) }
        }
        return out.sorted { $0.since < $1.since }
    }

    /// Closes every window now (the owner stops): the counts of those that had repeats, oldest
    /// first, each up to `t`.
    public mutating func flush(at t: Double) -> [RepeatedLines<Kind>] {
        let out = open.compactMap { kind, w in
            w.count > 0 ? RepeatedLines(kind: kind, count: w.count, since: w.start, until: max(w.start, min(t, w.start + window))) : nil
        }
        open = [:]
        return out.sorted { $0.since < $1.since }
    }
}

/// Lines of one kind that were counted, not written: "(and 1,234 more like it in the last 10 s)".
public struct RepeatedLines<Kind: Hashable & Sendable>: Equatable, Sendable, CustomStringConvertible {
    /// What the lines were.
    public var kind: Kind
    /// Lines counted.
    public var count: Int
    /// The window: from the line that was written to its end (or the flush).
    public var since: Double
    public var until: Double

    /// `count` lines of `kind` counted from `since` to `until`.
    public init(kind: Kind, count: Int, since: Double, until: Double) {
        self.kind = kind; self.count = count; self.since = since; self.until = until
    }

    /// "(and 1,234 more like it in the last 10 s)": the seconds rounded up, at least 1.
    public var description: String {
        let span = until - since
        let seconds = span.isFinite && span > 1 ? Int(span.rounded(.up)) : 1
        return "(and \(grouped(count)) more like it in the last \(seconds) s)"
    }
}

/// `n` with a comma every three digits: 1234567 → "1,234,567".
func grouped(_ n: Int) -> String {
    let digits = String(n.magnitude)
    var out = ""
    for (i, c) in digits.enumerated() {
        if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
        out.append(c)
    }
    return (n < 0 ? "-" : "") + out
}
