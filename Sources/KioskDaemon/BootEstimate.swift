import KioskSettings

/// The boot progress the Plymouth front end shows: Plymouth's estimate from the previous boot,
/// made honest by systemd's own measure.
///
/// Plymouth keeps, in /var/lib/plymouth/boot-duration, the boot status messages of the last
/// boot (the units PID 1 started) and when each came, as a fraction of that boot's length
/// (`0.253:NetworkManager.service`). This boot starts by expecting 60 s; each message seen last
/// boot too says how far along the boot is, and the expected length is corrected toward it
/// (Plymouth averages the rates, so one odd unit does not throw it). The estimate is the time
/// since the start (pauses not counted) over the expected length.
///
/// Honest, where Plymouth's bar is not: it never goes backwards; it slows down instead of
/// reaching 100 % when the boot takes longer than expected (the estimate runs straight to 90 %,
/// then approaches 99 % ever more slowly); systemd's `Progress` (1 − jobs left ÷ jobs, from
/// `kiosk-hud ctl follow-boot`) lifts it when the jobs are further along than the clock says;
/// and 100 % comes only at the end — when systemd says the boot is finished, or `finish()`.
/// At quit, `cache` is written back for the next boot, in Plymouth's format.
///
///     var e = BootEstimate(previous: try BootEstimate.parse(bytes))
///     e.status("NetworkManager.service", at: 12.5)   // seconds since the daemon started
///     e.measure(0.4)                                  // systemd's Progress
///     e.value(at: 13)                                 // what the bar shows
public struct BootEstimate: Sendable, Equatable {
    /// Plymouth's expectation without a previous boot.
    public static let defaultDuration = 60.0
    /// The estimate runs straight up to `knee`, then approaches `cap` and never reaches it.
    public static let knee = 0.9, cap = 0.99
    /// The most messages kept (a boot starts a few hundred units).
    public static let maxMessages = 4096
    /// The longest cache file read.
    public static let maxCacheBytes = 256 * 1024

    /// Last boot: each message and the fraction of the boot at which it came.
    public let previous: [String: Double]
    /// This boot: each message (first time seen) and when, in seconds of running time.
    public private(set) var messages: [(text: String, time: Double)] = []
    private var index: [String: Int] = [:]
    /// Messages seen twice this boot: they say nothing about the progress (Plymouth's rule).
    private var repeated: Set<String> = []
    /// Expected progress per second of running time (Plymouth's "scalar").
    public private(set) var rate = 1 / BootEstimate.defaultDuration
    private var pausedAt: Double?
    private var pausedTotal = 0.0
    /// systemd's Progress, the highest so far.
    public private(set) var measured = 0.0
    /// What was shown last (the value never goes below it).
    public private(set) var shown = 0.0
    /// The boot is finished: the value is 1.
    public private(set) var finished = false

    /// An estimate that starts from the last boot's messages (`parse` of its file; none: 60 s).
    public init(previous: [String: Double] = [:]) { self.previous = previous }

    public static func == (a: BootEstimate, b: BootEstimate) -> Bool {
        a.previous == b.previous && a.messages.map(\.text) == b.messages.map(\.text) && a.messages.map(\.time) == b.messages.map(\.time)
            && a.rate == b.rate && a.measured == b.measured && a.shown == b.shown && a.finished == b.finished
    }

    /// The boot's expected length in seconds of running time.
    public var expectedDuration: Double { 1 / rate }

    /// Seconds of running time at `t` (seconds since the start): pauses left out.
    public func runningTime(at t: Double) -> Double {
        max(0, t - pausedTotal - (pausedAt.map { max(0, t - $0) } ?? 0))
    }

    /// A boot status message at `t`.
    public mutating func status(_ text: String, at t: Double) {
        if index[text] != nil { repeated.insert(text); return }
        guard messages.count < BootEstimate.maxMessages else { return }
        let now = runningTime(at: t)
        if let f = previous[text], f > 0, now > 0 {
            rate = (rate + f / now) / 2
        }
        index[text] = messages.count
        messages.append((text, now))
    }

    /// systemd's Progress (NaN ignored; 1 or more: the boot is finished).
    public mutating func measure(_ p: Double) {
        guard !p.isNaN else { return }
        if p >= 1 { finished = true }
        measured = max(measured, min(max(p, 0), 1))
    }

    /// Stops the clock (Plymouth's pause-progress: a question is being asked).
    public mutating func pause(at t: Double) { if pausedAt == nil { pausedAt = t } }

    /// Starts it again.
    public mutating func unpause(at t: Double) {
        guard let p = pausedAt else { return }
        pausedTotal += max(0, t - p)
        pausedAt = nil
    }

    /// The clock is stopped (`pause` without `unpause`).
    public var isPaused: Bool { pausedAt != nil }

    /// The boot is over (the splash quits): the value is 1.
    public mutating func finish() { finished = true }

    /// What the bar shows at `t`: never less than before, below `cap` until the end.
    public mutating func value(at t: Double) -> Double {
        if finished { shown = 1; return 1 }
        let e = runningTime(at: t) * rate
        let knee = BootEstimate.knee, cap = BootEstimate.cap
        // Past the knee, x/(1+x) of what is left to the cap: the slope stays 1 at the knee.
        let estimate = e <= knee ? e : knee + (cap - knee) * ((e - knee) / (cap - knee)) / (1 + (e - knee) / (cap - knee))
        shown = max(shown, min(cap, max(measured, estimate)))
        return shown
    }

    // MARK: The cache file (Plymouth's /var/lib/plymouth/boot-duration)

    /// The file for the next boot, written at `t` (the boot's end): each message seen once,
    /// `FRACTION:TEXT` with the fraction to three places, as Plymouth writes it. What is
    /// written always reads back (`parse`): a message a line cannot hold — empty, with a line
    /// feed or a NUL, longer than `PlymouthWire.maxArgument` bytes — is left out, and so are
    /// the lines that would take the file past `maxCacheBytes`. Anything else is written as it
    /// is (a carriage return, a tab, a combining mark first: `parse` reads bytes, not
    /// characters).
    public func cache(at t: Double) -> String {
        let total = runningTime(at: t)
        guard total > 0 else { return "" }
        var out = ""
        var bytes = 0
        for m in messages where !repeated.contains(m.text) && BootEstimate.fitsALine(m.text) {
            let line = threePlaces(min(1, m.time / total)) + ":" + m.text + "\n"
            bytes += line.utf8.count
            if bytes > BootEstimate.maxCacheBytes { break }
            out += line
        }
        return out
    }

    /// Whether `text` can be a line's message: 1 to `PlymouthWire.maxArgument` bytes, no line
    /// feed, no NUL.
    static func fitsALine(_ text: String) -> Bool {
        let n = text.utf8.count
        return n > 0 && n <= PlymouthWire.maxArgument && !text.utf8.contains(0x0A) && !text.utf8.contains(0)
    }

    /// Why a cache file was not read.
    public struct CacheError: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String
        public init(_ d: String) { description = d }
    }

    /// Reads a cache file strictly: UTF-8, at most `maxCacheBytes`, each line `FRACTION:TEXT`
    /// (a fraction from 0 to 1, text of 1 to 254 bytes), at most `maxMessages` lines. The first
    /// fraction given for a text counts. Lines end at each line feed and the text at the first
    /// colon, as bytes: a text that starts with a combining mark or holds a carriage return is
    /// read as it was written.
    public static func parse(_ bytes: [UInt8]) throws(CacheError) -> [String: Double] {
        guard bytes.count <= maxCacheBytes else { throw CacheError("longer than \(maxCacheBytes) bytes") }
        guard !bytes.contains(0), String(validating: bytes, as: UTF8.self) != nil else { throw CacheError("not UTF-8 text") }
        var out: [String: Double] = [:]
        var number = 0
        // Cut at ASCII bytes only, so every piece of valid UTF-8 is valid UTF-8.
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            number += 1
            if line.isEmpty { continue }
            guard number <= maxMessages else { throw CacheError("more than \(maxMessages) lines") }
            guard let colon = line.firstIndex(of: 0x3A) else { throw CacheError("line \(number): no ':' between the fraction and the text") }
            let f = String(decoding: line[..<colon], as: UTF8.self), message = line[(colon + 1)...]
            guard f.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E }), let v = parseDouble(f), v >= 0, v <= 1 else {
                throw CacheError("line \(number): \(shownText(f)) is not a fraction from 0 to 1")
            }
            guard !message.isEmpty, message.count <= PlymouthWire.maxArgument else {
                throw CacheError("line \(number): the text is empty or longer than \(PlymouthWire.maxArgument) bytes")
            }
            let text = String(decoding: message, as: UTF8.self)
            if out[text] == nil { out[text] = v }
        }
        return out
    }
}

/// `x` (0…1) with three decimal places, as printf's %.3f.
func threePlaces(_ x: Double) -> String {
    let m = Int((x * 1000).rounded())
    let frac = m % 1000
    return "\(m / 1000)." + (frac < 10 ? "00" : frac < 100 ? "0" : "") + "\(frac)"
}
