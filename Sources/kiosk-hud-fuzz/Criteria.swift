// What passes, the same for every target (the issue "Bad input never kills, hangs or balloons
// kiosk-hud"), and the check of one run of the kiosk-hud binary against it.

/// The pass criteria.
enum Criteria {
    /// A case that takes longer is killed (a child) or ends the worker (in-process), and fails.
    static let caseTimeLimitNanos: UInt64 = 2_000_000_000
    /// Peak RSS may exceed the baseline (the same process on a plain input) and the canvas
    /// (width × height × 4 bytes) by at most this much.
    static let memoryAllowance = 64 << 20
    /// The longest `Error: …` line (messages cut long values at 80 characters).
    static let errorLineLimit = 200
    /// The exit statuses of a run that ended well: 0 done, 1 error, 64 bad command line.
    static let fineStatuses: Set<Int32> = [0, 1, 64]
    /// The soak: anonymous RSS may grow at most this many pages from frame 10^3 to the last.
    static let soakPageAllowance = 2
}

/// How one run of kiosk-hud ended.
struct ChildOutcome {
    /// The exit status, if it exited.
    var status: Int32?
    /// The signal that ended it, if one did (SIGKILL after a timeout included).
    var signal: Int32?
    /// Killed by the harness at the time limit.
    var timedOut: Bool
    /// From spawn to reaping.
    var milliseconds: Double
    /// The child's peak RSS (wait4's ru_maxrss).
    var peakRSS: Int
    /// What it wrote on stderr (the first MiB).
    var stderr: [UInt8]

    var stderrLines: [String] {
        String(decoding: stderr, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The first line that starts with "Error: ", if any.
    var errorLine: String? { stderrLines.first { $0.hasPrefix("Error: ") } }
}

/// One broken criterion: `kind` groups failures of the same sort ("signal", "timeout", "rss",
/// "error-line", …), `detail` says what happened in one line.
struct Violation {
    var kind: String
    var detail: String
    /// What makes two failures "the same bug" for the summary (kind plus the gist of the message).
    var key: String
}

/// The criteria applied to one run of `command` (render, show, tilt): no signal, no timeout,
/// status 0/1/64, an `Error:` line of at most `Criteria.errorLineLimit` characters for 1 and 64,
/// peak RSS within `budget`.
func judge(_ o: ChildOutcome, command: String, budget: Int) -> [Violation] {
    var out: [Violation] = []
    let last = o.stderrLines.last { !$0.isEmpty } ?? ""
    if o.timedOut {
        out.append(Violation(kind: "timeout", detail: "still running after \(Criteria.caseTimeLimitNanos / 1_000_000) ms; killed (last words: \(cut(last, 120)))",
                             key: "timeout in \(command)"))
        return out
    }
    if let s = o.signal {
        out.append(Violation(kind: "signal", detail: "killed by \(signalName(s)) (status \(128 + s)) (last words: \(cut(last, 120)))",
                             key: "\(signalName(s)) in \(command)"))
        return out
    }
    let status = o.status ?? -1
    if !Criteria.fineStatuses.contains(status) {
        out.append(Violation(kind: "status", detail: "exit status \(status) (last words: \(cut(last, 120)))", key: "status \(status) from \(command)"))
    }
    if status == 1 || status == 64 {
        if let line = o.errorLine {
            let n = line.count
            if n > Criteria.errorLineLimit {
                out.append(Violation(kind: "error-line", detail: "error line is \(n) characters (limit \(Criteria.errorLineLimit)): \(cut(line, 160))",
                                     key: "error-line " + gist(line)))
            }
        } else {
            out.append(Violation(kind: "no-error-line", detail: "exit status \(status) without an 'Error: ' line on stderr",
                                 key: "no-error-line \(status)"))
        }
    }
    if o.peakRSS > budget {
        out.append(Violation(kind: "rss", detail: "peak RSS \(mb(o.peakRSS)) > budget \(mb(budget))", key: "rss in \(command)"))
    }
    return out
}

/// `s` cut to `n` characters with an ellipsis.
func cut(_ s: String, _ n: Int) -> String { s.count <= n ? s : String(s.prefix(n)) + "…" }

/// The gist of a message for grouping failures: its first plain words (ASCII letters, '-', ':',
/// at most 24 characters), up to the first value.
func gist(_ line: String) -> String {
    var words: [Substring] = []
    for w in line.split(separator: " ", omittingEmptySubsequences: false) {
        let plain = w.count <= 24 && !w.isEmpty && w.unicodeScalars.allSatisfy { u in
            (u >= "a" && u <= "z") || (u >= "A" && u <= "Z") || u == "-" || u == ":" || u == "[" || u == "]"
        }
        guard plain, words.count < 8 else { words.append("…"); break }
        words.append(w)
    }
    return words.joined(separator: " ")
}

/// Kinds of generated input that fail for a reason already reported and not yet fixed, which a
/// run may leave out (`--skip KIND,…`; CI's short mode does, listed in Tests/KioskFuzzTests).
/// Leaving one out changes what is generated, never what passes; the long mode runs them all.
enum KnownFailures {
    static let kinds: [String: String] = [
        "board-fifo": "(fixed; kept to compare) cli: --board naming a FIFO blocks in open(2) (the board file is opened without O_NONBLOCK)",
        "long-option": "(fixed; kept to compare) cli: unknown options and commands and stray arguments are echoed whole in the error line",
        "long-path": "(fixed; kept to compare) cli: long file paths are echoed whole in error lines",
        "long-binding": "(fixed; kept to compare) cli: a long --bind-touch DEVICE=OUTPUT is echoed whole in 'touch binding … failed'",
        "long-expected": "(fixed; kept to compare) toml, cli: the touch matrix's error, with its value cut at 80, goes past 200 characters",
        "large-canvas": "cli: --size above 2048 on a side: a debug build takes ~2 s to draw and write 8192x8192 (the release build 0.65 s; show --offscreen - keeps one canvas)",
        "slow-png": "png, cli: PNGs of tens of megapixels (within PNGReadLimit.maxWorkBytes) take over 2 s in a debug build",
        "iio-fifo": "(fixed; kept to compare) iio: a FIFO standing for an IIO attribute or udev file blocks the tilt sampler in open(2), silently",
        "input-udev": "(fixed; kept to compare) cli: --input naming a character device udev has not initialised blocks show's loop ~2 s (libinput waits for udev)",
        "dbus-error-text": "(fixed; kept to compare) dbus: an error reply's message (GetNameOwner's, GetAll's, Get's) is logged whole by RaucFollower.received: a line as long as the message",
        "rauc-operation-name": "(fixed; kept to compare) dbus: an Operation name the daemon does not know is logged whole by RaucMachine (\"rauc: operation … is not one this daemon knows\")",
        "dbus-big-array": "(fixed; kept to compare) dbus: the walker reads a whole array into DBusValues, ~45 bytes per byte of an ay: a 2 MiB array passes the 64 MB budget, 4 MiB takes over 1 s in a debug build",
    ]

    /// The kinds left out in this run (set once, from the command line, before any case is made).
    nonisolated(unsafe) static var skipped: Set<String> = []

    static func skips(_ kind: String) -> Bool { skipped.contains(kind) }
}
