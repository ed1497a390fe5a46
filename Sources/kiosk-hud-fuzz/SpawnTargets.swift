// Targets that run the kiosk-hud binary (cli, iio): a case is a directory of generated files
// and an argument vector with paths relative to it; the child runs in that directory with a
// clean environment, so a saved case is reproduced by running its command.sh.
import Glibc

/// One case for the binary.
struct SpawnCase {
    /// The arguments after the program name.
    var argv: [[UInt8]]
    /// The canvas the arguments ask for, in bytes (allowed on top of the memory budget).
    var canvasBytes: Int
    /// A criterion of the target's own, checked after the common ones (nil: fine).
    var check: ((ChildOutcome) -> Violation?)?
}

/// A target whose cases run the binary.
protocol SpawnTarget: AnyObject {
    var name: String { get }
    /// Writes case `index`'s files into `directory` (which exists and is empty) and returns its case.
    func prepare(_ rng: inout Rng, index: Int, in directory: String) -> SpawnCase
}

/// The environment children get: nothing of ours, a PATH, and HOME and XDG_CACHE_HOME in the
/// case's directory (so nothing is cached outside it whatever the options say).
func childEnvironment(_ directory: String) -> [String] {
    ["PATH=/usr/local/bin:/usr/bin:/bin", "HOME=\(directory)", "XDG_CACHE_HOME=\(directory)/.xdg-cache", "LANG=C.UTF-8"]
}

/// Runs `range` of `target` against `binary`, `jobs` at a time, into `tally`.
func runSpawnTarget(_ target: SpawnTarget, binary: String, seed: UInt64, range: Range<Int>, jobs: Int, tally: Tally) {
    blockChildSignal()
    let work = makeTempDir("kiosk-hud-fuzz-\(target.name)")
    defer { removeTree(work) }
    let baseline = measureBaseline(binary, work: work)
    tally.budget = baseline + Criteria.memoryAllowance + 800 * 480 * 4
    var cases: [Int: SpawnCase] = [:]
    tally.save = { index, failure, dir in
        var rng = caseRng(seed, index)
        let files = dir + "/files"
        makeDirectories(files)
        let c = target.prepare(&rng, index: index, in: files)
        var script = "#!/bin/bash\n# kiosk-hud-fuzz \(target.name) --seed \(seed) --case \(index): \(failure.violation.kind): \(failure.violation.detail)\n"
        script += "# Run from anywhere: KIOSK_HUD=/path/to/kiosk-hud \(dir)/command.sh\n"
        script += "cd \"$(dirname \"$0\")/files\" && exec env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=\"$PWD\" XDG_CACHE_HOME=\"$PWD/.xdg-cache\" LANG=C.UTF-8 \"${KIOSK_HUD:-kiosk-hud}\" "
        script += c.argv.map(shellQuote).joined(separator: " ") + "\n"
        writeFile(dir + "/command.sh", script)
        chmod(dir + "/command.sh", 0o755)
    }
    runChildren(range, jobs: jobs, start: { index in
        let dir = "\(work)/case-\(index)"
        makeDirectories(dir)
        var rng = caseRng(seed, index)
        let c = target.prepare(&rng, index: index, in: dir)
        cases[index] = c
        trimHeap()  // what generating the files took goes back: a child's peak RSS starts from ours
        let t0 = monotonicNanos()
        guard let pid = spawnChild(binary, c.argv, environment: childEnvironment(dir), directory: dir,
                                   stdout: dir + "/.stdout", stderr: dir + "/.stderr") else {
            warn("kiosk-hud-fuzz: cannot start \(binary)")
            exit(2)
        }
        return RunningChild(index: index, pid: pid, started: t0, deadline: t0 + Criteria.caseTimeLimitNanos, directory: dir)
    }, finished: { child, outcome in
        let c = cases.removeValue(forKey: child.index)!
        tally.ran(child.index, ms: outcome.milliseconds, rss: outcome.peakRSS)
        var violations = judge(outcome, command: String(decoding: c.argv.first ?? [], as: UTF8.self),
                               budget: baseline + Criteria.memoryAllowance + c.canvasBytes)
        if violations.isEmpty, let extra = c.check?(outcome) { violations.append(extra) }
        for v in violations {
            let err = outcome.errorLine.map { " → " + cut($0, 160) } ?? ""
            tally.fail(child.index, v, input: "kiosk-hud " + describeArguments(c.argv) + err)
        }
        removeTree(child.directory)
    })
    tally.extra.append("harness-rss=\(mb(currentRSSBytes()))")
}

/// The peak RSS of kiosk-hud on plain inputs: `render` and `show --offscreen` at 800x480.
func measureBaseline(_ binary: String, work: String) -> Int {
    let dir = work + "/baseline"
    makeDirectories(dir)
    defer { removeTree(dir) }
    var peak = 0
    let runs: [[String]] = [["render", "--out", "out.png", "--label", "Loading"],
                            ["show", "--offscreen", "-", "--duration", "0", "--glyph-cache", "none", "--no-input", "--label", "Loading"]]
    for argv in runs {
        guard let pid = spawnChild(binary, argv.map { Array($0.utf8) }, environment: childEnvironment(dir), directory: dir,
                                   stdout: dir + "/.stdout", stderr: dir + "/.stderr") else {
            warn("kiosk-hud-fuzz: cannot start \(binary) (--binary PATH)")
            exit(2)
        }
        let deadline = monotonicNanos() + 10_000_000_000
        var done = false
        while !done && monotonicNanos() < deadline {
            waitForChildSignal(until: min(deadline, monotonicNanos() + 100_000_000))
            for r in reapChildren() where r.pid == pid {
                done = true
                peak = max(peak, r.peakRSS)
                if r.status != 0 {
                    warn("kiosk-hud-fuzz: the baseline run \(argv.joined(separator: " ")) failed (status \(r.status ?? -1), signal \(r.signal ?? 0)):")
                    warn(String(decoding: readFile(dir + "/.stderr") ?? [], as: UTF8.self))
                    exit(2)
                }
            }
        }
        if !done { kill(-pid, SIGKILL); warn("kiosk-hud-fuzz: the baseline run timed out"); exit(2) }
    }
    return peak
}

/// `--size`'s canvas in bytes if the last one given is a valid WxH, else 800x480's.
func canvasBytes(_ argv: [[UInt8]]) -> Int {
    var size: String?
    var i = 0
    while i < argv.count {
        let a = String(decoding: argv[i], as: UTF8.self)
        if a == "--size", i + 1 < argv.count { size = String(decoding: argv[i + 1], as: UTF8.self); i += 1 } else if a.hasPrefix("--size=") {
            size = String(a.dropFirst(7))
        } else if a == "--" { break }
        i += 1
    }
    if let s = size {
        let p = s.split(separator: "x", omittingEmptySubsequences: false)
        if p.count == 2, let w = Int(p[0]), let h = Int(p[1]), (1...8192).contains(w), (1...8192).contains(h) { return w * h * 4 }
    }
    return 800 * 480 * 4
}
