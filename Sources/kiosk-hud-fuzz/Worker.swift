// In-process targets (toml, png, swupdate, dbus): the library is called in a worker forked from the
// harness, so a trap, a stack overflow or a case over the time limit costs the worker, not the run.
// The worker says which case it is on (and since when) in a shared page; the parent watches that
// page, kills a worker whose case passes 2 s, records the case that killed it, and starts a new
// worker after it. Memory is measured per case: free heap is given back (malloc_trim), the kernel's
// high-water mark is reset (/proc/self/clear_refs, "5"), and the case's peak over the RSS it
// started with must stay within 64 MB and the canvas. Failures that do not kill the worker are
// written to a file.
import Glibc

/// A target whose cases run the library in this process.
protocol InProcessTarget: AnyObject {
    var name: String { get }
    /// Extension of a saved input ("toml", "png").
    var fileExtension: String { get }
    /// Bytes of the canvas the limits are for (the memory budget allows it on top).
    var canvasBytes: Int { get }
    /// An ordinary input, run first by each worker (libraries loaded, caches warm).
    var warmUp: [UInt8] { get }
    /// The input of case `index` (deterministic: `rng` is the case's own stream).
    func input(_ rng: inout Rng, index: Int) -> [UInt8]
    /// Runs the library on `input`; nil when the result meets the target's own criteria (time
    /// and memory are checked around it), else what broke.
    func check(_ input: [UInt8], index: Int) -> Violation?
}

/// The shared page: one 16-word slot per worker.
private enum Slot: Int {
    case current = 0, started, completed, slowestNanos, slowestIndex, peak, peakIndex, growth, growthIndex
}

private final class SharedPage {
    let base: UnsafeMutablePointer<Int>
    init(slots: Int) {
        let bytes = max(4096, slots * 16 * 8)
        let p = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0)
        guard let p, p != MAP_FAILED else { fatalError("mmap failed") }
        base = p.bindMemory(to: Int.self, capacity: bytes / 8)
        for i in 0..<(bytes / 8) { base[i] = 0 }
    }
    subscript(_ worker: Int, _ field: Slot) -> Int {
        get { base[worker * 16 + field.rawValue] }
        set { base[worker * 16 + field.rawValue] = newValue }
    }
}

/// Runs cases `range` of `target` (seed `seed`) in `jobs` forked workers, into `tally`.
func runInProcess(_ target: InProcessTarget, seed: UInt64, range: Range<Int>, jobs: Int, tally: Tally) {
    let page = SharedPage(slots: jobs)
    let failureFile = makeTempDir("kiosk-hud-fuzz-\(target.name)") + "/failures"
    defer { removeTree(directoryOf(failureFile)) }
    writeFile(failureFile, [])
    var pids: [pid_t: Int] = [:]
    var killed: Set<Int> = []
    var growth = (bytes: 0, index: -1)

    func start(_ worker: Int, from first: Int) {
        guard first < range.upperBound else { return }
        page[worker, .current] = -1
        page[worker, .started] = 0
        let pid = fork()
        if pid == 0 {
            workerMain(target, seed: seed, first: first, end: range.upperBound, stride: jobs, page: page, worker: worker,
                       failureFile: failureFile)
        }
        guard pid > 0 else { fatalError("fork failed: errno \(errno)") }
        pids[pid] = worker
    }

    for w in 0..<jobs { start(w, from: range.lowerBound + w) }
    while !pids.isEmpty {
        waitForChildSignal(until: monotonicNanos() + 50_000_000)
        for r in reapChildren() {
            guard let w = pids.removeValue(forKey: r.pid) else { continue }
            if page[w, .growth] > growth.bytes { growth = (page[w, .growth], page[w, .growthIndex]) }
            takeSlot(page, w, tally: tally)
            let current = page[w, .current]
            if current >= 0 {
                // It died inside case `current`: a signal, the watchdog's kill, or the RSS exit.
                var rng = caseRng(seed, current)
                let shown = describeBytes(target.input(&rng, index: current))
                if killed.contains(w) {
                    tally.ran(current, ms: Double(Criteria.caseTimeLimitNanos) / 1e6, rss: 0)
                    tally.fail(current, Violation(kind: "timeout", detail: "still running after \(Criteria.caseTimeLimitNanos / 1_000_000) ms; worker killed",
                                                  key: "timeout"), input: shown)
                } else if let s = r.signal {
                    tally.ran(current, ms: 0, rss: 0)
                    tally.fail(current, Violation(kind: "signal", detail: "the worker was killed by \(signalName(s)) inside the library",
                                                  key: "signal \(signalName(s))"), input: shown)
                } else if r.status != 3 {
                    tally.ran(current, ms: 0, rss: 0)
                    tally.fail(current, Violation(kind: "status", detail: "the worker exited with status \(r.status ?? -1) inside the library",
                                                  key: "worker exit \(r.status ?? -1)"), input: shown)
                }
                killed.remove(w)
                trimHeap()  // the input made again here: keep the parent (and so the next worker) small
                start(w, from: current + jobs)
            }
        }
        let now = monotonicNanos()
        for (pid, w) in pids where !killed.contains(w) {
            let t = page[w, .started]
            if t > 0, now > UInt64(t), now - UInt64(t) > Criteria.caseTimeLimitNanos {
                kill(pid, SIGKILL)
                killed.insert(w)
            }
        }
    }
    // Failures the workers wrote (the memory budget's and the targets' own).
    for line in String(decoding: readFile(failureFile) ?? [], as: UTF8.self).split(separator: "\n") {
        let f = line.split(separator: "\t", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
        guard f.count == 4, let i = Int(f[0]) else { continue }
        var rng = caseRng(seed, i)
        tally.fail(i, Violation(kind: f[1], detail: f[3], key: f[2]), input: describeBytes(target.input(&rng, index: i)))
    }
    tally.extra.append("max-case-growth=\(mb(growth.bytes))" + (growth.index >= 0 ? "(case \(growth.index))" : "")
                       + " (limit \(mb(Criteria.memoryAllowance + target.canvasBytes)) over the RSS a case starts with)")
}

/// Adds what worker `w` reported in its slot to `tally`, and clears it.
private func takeSlot(_ page: SharedPage, _ w: Int, tally: Tally) {
    tally.merge(runs: page[w, .completed], slowest: (Double(page[w, .slowestNanos]) / 1e6, page[w, .slowestIndex]),
                peak: (page[w, .peak], page[w, .peakIndex]))
    page[w, .completed] = 0
    page[w, .slowestNanos] = 0
    page[w, .peak] = 0
    page[w, .growth] = 0
}

/// The case's own random stream.
func caseRng(_ seed: UInt64, _ index: Int) -> Rng { Rng(seed: seed, index: UInt64(index)) }

/// The worker: warms up, then runs cases first, first + stride, … < end, each measured on its own.
private func workerMain(_ target: InProcessTarget, seed: UInt64, first: Int, end: Int, stride: Int, page: SharedPage,
                        worker w: Int, failureFile: String) -> Never {
    let log = open(failureFile, O_WRONLY | O_APPEND | O_CLOEXEC)
    let peakReset = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC)
    _ = target.check(target.warmUp, index: -1)
    let allowance = Criteria.memoryAllowance + target.canvasBytes
    func record(_ index: Int, _ v: Violation) {
        func clean(_ s: String) -> String { String(s.map { $0 == "\t" || $0 == "\n" ? " " : $0 }) }
        emitTo(log, "\(index)\t\(clean(v.kind))\t\(clean(v.key))\t\(clean(v.detail))\n")
    }
    var i = first
    while i < end {
        page[w, .current] = i
        var rng = caseRng(seed, i)
        let input = target.input(&rng, index: i)
        trimHeap()
        if peakReset >= 0 { _ = pwrite(peakReset, "5", 1, 0) }
        let startRSS = currentRSSBytes()
        let t0 = monotonicNanos()
        page[w, .started] = Int(t0)
        let v = target.check(input, index: i)
        let t1 = monotonicNanos()
        page[w, .started] = 0
        let peak = peakRSSBytes()
        if let v { record(i, v) }
        let ns = Int(t1 - t0)
        if ns > page[w, .slowestNanos] { page[w, .slowestNanos] = ns; page[w, .slowestIndex] = i }
        if peak > page[w, .peak] { page[w, .peak] = peak; page[w, .peakIndex] = i }
        if peak - startRSS > page[w, .growth] { page[w, .growth] = peak - startRSS; page[w, .growthIndex] = i }
        page[w, .completed] += 1
        if peakReset < 0 && peak > startRSS + allowance + 64 << 20 {
            // Without clear_refs the high-water mark cannot come down: go on in a fresh worker.
            record(i, Violation(kind: "rss", detail: "peak RSS \(mb(peak)) (no per-case measure: /proc/self/clear_refs missing)", key: "rss"))
            _exit(3)
        }
        if peak - startRSS > allowance {
            record(i, Violation(kind: "rss", detail: "peak RSS \(mb(peak)) is \(mb(peak - startRSS)) over the \(mb(startRSS)) the case started with (limit \(mb(allowance)))",
                                key: "rss"))
        }
        i += stride
    }
    page[w, .current] = -1
    _exit(0)
}

private func emitTo(_ fd: Int32, _ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}

/// Bytes in one line for the log: their size and the first 120 as text (escapes for the rest).
func describeBytes(_ bytes: [UInt8]) -> String {
    var s = "\(bytes.count) bytes: "
    for b in bytes.prefix(120) {
        if b >= 0x20 && b < 0x7F { s.unicodeScalars.append(Unicode.Scalar(b)) } else if b == 0x0A { s += "\\n" } else {
            let hex = Array("0123456789abcdef")
            s += "\\x" + String(hex[Int(b >> 4)]) + String(hex[Int(b & 15)])
        }
    }
    return bytes.count > 120 ? s + "…" : s
}
