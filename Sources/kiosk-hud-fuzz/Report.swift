// What a target's run found: inputs run, failures (printed as found, grouped for the summary,
// saved for reproduction), the slowest case and the peak RSS; and the one summary line.
import Glibc

/// One failing case.
struct Failure {
    var index: Int
    var violation: Violation
    /// The input in one line (an argument vector, a file's first bytes).
    var input: String
}

/// A target's figures, filled in while it runs.
final class Tally {
    let target: String
    let seed: UInt64
    /// Where failing inputs are saved (nil: not saved).
    let saveDirectory: String?
    /// Saves case `index`'s input (and what happened) into the directory given; the target's own.
    var save: ((Int, Failure, String) -> Void)?
    private(set) var inputs = 0
    private(set) var failures: [Failure] = []
    private(set) var slowest: (ms: Double, index: Int) = (0, -1)
    private(set) var peak: (bytes: Int, index: Int) = (0, -1)
    /// The memory limit cases are held to (for the summary).
    var budget = 0
    /// Free-form figures for the summary line (the soak's RSS readings).
    var extra: [String] = []
    private var shownPerKey: [String: Int] = [:]
    private var savedPerKey: [String: Int] = [:]
    /// Failures printed (and saved) per kind of failure; the rest are only counted.
    static let shownLimit = 5
    static let savedLimit = 20

    init(target: String, seed: UInt64, saveDirectory: String?) {
        self.target = target; self.seed = seed; self.saveDirectory = saveDirectory
        if let dir = saveDirectory { writeFile(listPath(dir), []) }
    }

    /// Every failure of the run, one line each (index, kind, group, detail, input), beside the
    /// saved inputs (which stop at `savedLimit` per group).
    func listPath(_ dir: String) -> String { "\(dir)/\(target)-seed\(seed)-failures.tsv" }

    /// Case `index` ran in `ms` milliseconds with peak RSS `rss` bytes.
    func ran(_ index: Int, ms: Double, rss: Int) {
        inputs += 1
        if ms > slowest.ms { slowest = (ms, index) }
        if rss > peak.bytes { peak = (rss, index) }
    }

    /// `n` cases run elsewhere (a worker), with their extremes.
    func merge(runs n: Int, slowest s: (ms: Double, index: Int), peak p: (bytes: Int, index: Int)) {
        inputs += n
        if n > 0 && s.ms > slowest.ms { slowest = s }
        if n > 0 && p.bytes > peak.bytes { peak = p }
    }

    /// Case `index` broke a criterion; printed (the first few of a kind) and saved.
    func fail(_ index: Int, _ v: Violation, input: String) {
        let f = Failure(index: index, violation: v, input: input)
        failures.append(f)
        let key = v.key
        shownPerKey[key, default: 0] += 1
        let n = shownPerKey[key]!
        var savedTo = ""
        if let dir = saveDirectory {
            let fd = open(listPath(dir), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
            if fd >= 0 {
                func clean(_ s: String) -> String { String(s.map { $0 == "\t" || $0 == "\n" ? " " : $0 }) }
                emit("\(index)\t\(clean(v.kind))\t\(clean(key))\t\(clean(v.detail))\t\(clean(cut(input, 2000)))\n", to: fd)
                close(fd)
            }
        }
        if let dir = saveDirectory, savedPerKey[key, default: 0] < Tally.savedLimit, let save {
            savedPerKey[key, default: 0] += 1
            let caseDir = "\(dir)/\(target)-seed\(seed)-case\(index)"
            removeTree(caseDir)
            makeDirectories(caseDir)
            save(index, f, caseDir)
            savedTo = " [saved: \(caseDir)]"
        }
        if n <= Tally.shownLimit {
            say("FAIL \(target) case \(index) (--seed \(seed) --case \(index)): \(v.kind): \(v.detail)\(savedTo)")
            say("     input: \(cut(input, 400))")
        } else if n == Tally.shownLimit + 1 {
            say("FAIL \(target): more of '\(key)' (counted, not shown)")
        }
    }

    /// The failures grouped by kind, most frequent first: (key, count, first case).
    var groups: [(key: String, count: Int, first: Int)] {
        var order: [String] = []
        var count: [String: Int] = [:], first: [String: Int] = [:]
        for f in failures {
            if count[f.violation.key] == nil { order.append(f.violation.key); first[f.violation.key] = f.index }
            count[f.violation.key, default: 0] += 1
        }
        return order.map { ($0, count[$0]!, first[$0]!) }.sorted { $0.count > $1.count }
    }

    /// The summary: one line, then one line per kind of failure.
    func summary() -> String {
        var line = "\(target): inputs=\(inputs) failures=\(failures.count)"
        line += " slowest=\(decimal(slowest.ms, 1))ms" + (slowest.index >= 0 ? "(case \(slowest.index))" : "")
        line += " peak-rss=\(mb(peak.bytes))" + (peak.index >= 0 ? "(case \(peak.index))" : "")
        if budget > 0 { line += " budget=\(mb(budget))" }
        line += " seed=\(seed)"
        for e in extra { line += " " + e }
        for g in groups { line += "\n  \(target) failure x\(g.count) (first: case \(g.first)): \(g.key)" }
        return line
    }
}

/// Shell quoting for bash: plain words as they are, others as $'…' with escapes, so a saved
/// command line reproduces arguments byte for byte (invalid UTF-8 and control characters included).
func shellQuote(_ bytes: [UInt8]) -> String {
    let plain = !bytes.isEmpty && bytes.allSatisfy { b in
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D || b == 0x5F || b == 0x2E || b == 0x2F || b == 0x3D || b == 0x2C
    }
    if plain { return String(decoding: bytes, as: UTF8.self) }
    var s = "$'"
    let hex = Array("0123456789abcdef".utf8)
    for b in bytes {
        if b >= 0x20 && b < 0x7F && b != 0x27 && b != 0x5C {
            s.unicodeScalars.append(Unicode.Scalar(b))
        } else {
            s += "\\x" + String(decoding: [hex[Int(b >> 4)], hex[Int(b & 15)]], as: UTF8.self)
        }
    }
    return s + "'"
}

/// An argument vector in one line for the log (each argument cut at 60 characters).
func describeArguments(_ argv: [[UInt8]]) -> String {
    argv.map { a -> String in
        let q = shellQuote(a.count > 60 ? Array(a.prefix(60)) : a)
        return a.count > 60 ? q + "…(\(a.count) bytes)" : q
    }.joined(separator: " ")
}
