// kiosk-hud-fuzz — proof by fuzzing that bad input never kills, hangs or balloons kiosk-hud.
//
// Design
// - Seeded generated inputs, no libFuzzer: case i of seed s is made from its own random stream
//   (Random.swift: KioskTestSupport's SeededGenerator started at a hash of s and i), so any case
//   is reproduced alone with `--seed s --case i`, on any machine, whatever ran before it. Inputs
//   are built from what the project declares rather than from random bytes alone: the settings
//   table gives every option's and board key's rule (RuleValues.swift: valid, boundary, wrong-type
//   and hostile values), Boards/ and toml-test's documents are mutated (Mutate.swift), PNGs are
//   forged chunk by chunk (KioskTestSupport's PNGForge, shared with the decoder's tests), IIO
//   trees are laid out as sysfs would (IIOTree.swift), SWUpdate's records field by field, D-Bus
//   messages value by value in either byte order (DBusWire.swift).
// - Eight targets, one summary line each (inputs, failures, slowest case, peak RSS):
//   cli  (CLITarget.swift)  argument vectors for render, show --offscreen and tilt --iio-root,
//                           run as the built kiosk-hud binary;
//   iio  (IIOTarget.swift)  `tilt --iio-root DIR` on generated sysfs trees, the binary;
//   toml (TOMLTarget.swift) BoardProfile.parse on board files and the toml-test invalid suite,
//                           in process;
//   png  (PNGTarget.swift)  PNG.decode with kiosk-hud's canvas limit, in process;
//   swupdate (SWUpdateTarget.swift) SWUpdate's progress records and control-socket replies
//                           through the daemon's decoders (SWUpdateDecoder,
//                           SWUpdateNotificationDecoder) and SWUpdateMachine, in process;
//   dbus (DBusTarget.swift) D-Bus messages for `daemon --rauc`: a RaucFollower connected to a bus
//                           the worker plays, sd-bus, the daemon's walker (DBusMessageReader),
//                           RaucDecoding and RaucMachine, in process;
//   carryover (CarryOverTarget.swift) the state `adopt` carries over to the next program image (the
//                           variable and the memory file's bytes) read as that image reads it
//                           (decodeCarriedOverState), in process;
//   soak (SoakTarget.swift) a spinner HUDSession on the embedded loop for 10^5 frames: RSS
//                           (its anonymous part) after 10^3 frames must equal RSS at the end,
//                           within two pages.
// - The criteria (Criteria.swift): no signal death; no case over 2 s (killed then); peak RSS at
//   most 64 MB over the baseline and the canvas (a child: the binary's own peak on a plain input
//   is the baseline; in process: the RSS the case started with); exit status
//   0, 1 or 64, with an `Error: …` line of at most 200 characters for 1 and 64; plus each
//   target's own (an invalid TOML document refused, a decoded PNG within the limit, a tilt
//   sampler that says what it did, SWUpdate's decoded text within its fields and a refusal as
//   the last word, the RAUC follower's log lines bounded and its walker's depth limit held, a
//   valid carried-over state never refused).
// - The binary runs as a child of this small process (Spawn.swift): posix_spawn in its own
//   process group and a directory of generated files (relative paths, clean environment, HOME
//   and caches inside it), SIGCHLD waited for with sigtimedwait, SIGKILL to the group at 2 s,
//   peak RSS from wait4. A spawned child's ru_maxrss starts at its parent's high-water mark, so
//   the harness keeps its own memory small (no big inputs held).
// - In-process cases (toml, png, swupdate, dbus, carryover) run in forked workers (Worker.swift): a trap or a
//   stack overflow kills the worker, not the run; the parent watches a shared page (which case,
//   since when), kills a worker whose case passes 2 s, records the case, and forks a new worker
//   after it. A worker whose peak RSS passes the budget records the case and is replaced too (a
//   peak never comes down). The soak runs in this process (it measures this process).
// - Failures print as found (the first few of each kind) with the exact input, are saved with
//   `--save DIR` (the input file, or the case's directory and a command.sh that reruns it), and
//   are grouped in the summary; any failure makes the exit status 1.
// - Short mode (the default counts) is what CI runs (Tests/KioskFuzzTests); long mode is
//   `--long` (10^5 inputs per target, 10^5 frames for the soak); README's "Fuzzing".
// - No Foundation: Glibc for the few system calls, and the project's own modules.
import Glibc
import KioskBoards

/// The command line of kiosk-hud-fuzz.
struct FuzzOptions {
    var target = ""
    var seed: UInt64 = 1
    var count: Int?
    var long = false
    var save: String?
    var binary: String?
    var jobs: Int?
    var single: Int?
    var inputFile: String?
    var skip: Set<String> = []
    var boards: String?
    var suite: String?

    static let usage = """
        usage: kiosk-hud-fuzz TARGET [--seed N] [--count N | --long] [--save DIR] [--binary PATH] [--jobs N]
                              [--case I] [--input FILE] [--skip KIND,…] [--boards DIR] [--toml-suite DIR]
        TARGET: cli, iio, toml, png, swupdate, dbus, carryover, soak, or all (each in turn).
          --seed N        the run's seed (default 1); case i of seed N is always the same input
          --count N       inputs per target (soak: frames); default: the short mode CI runs
          --long          10^5 inputs per target (10^5 frames for the soak)
          --save DIR      save each failing input there (a file, or a directory with command.sh)
          --binary PATH   kiosk-hud to run (cli, iio); default: next to this program
          --jobs N        cases at once (children or workers); default: the number of CPUs (iio: 8 times that)
          --case I        run case I only (reproduce a failure; with --save, its input is saved even if it passes)
          --input FILE    run this file as the input (toml, png, swupdate, dbus, carryover)
          --skip KIND,…   leave out inputs that fail for a reason already reported: \(KnownFailures.kinds.keys.sorted().joined(separator: ", "))
          --boards DIR    board profiles to mutate (default: the package's Boards/)
          --toml-suite DIR  toml-test's tests/ (default: Debian's golang-github-burntsushi-toml-dev)
        KIOSK_HUD_FUZZ_VERBOSE=1: what each case of swupdate decoded, and dbus's follower's log lines, on stderr.
        Exit status: 0 every criterion held, 1 a failure, 2 the harness could not run.
        """

    /// Short mode: what CI runs on every change (debug build, 2 cores, well under a minute).
    static let shortCounts = ["cli": 60, "iio": 120, "toml": 400, "png": 300, "swupdate": 2000, "dbus": 1500, "carryover": 600, "soak": 600]
    static let longCount = 100_000

    init(_ args: [String]) {
        var i = 0
        func value(_ name: String) -> String {
            i += 1
            guard i < args.count else { fail("\(name) needs a value") }
            return args[i]
        }
        func number(_ name: String) -> Int {
            let v = value(name)
            guard let n = Int(v), n >= 0 else { fail("\(name): not a number: \(v)") }
            return n
        }
        while i < args.count {
            let a = args[i]
            switch a {
            case "--seed": seed = UInt64(number(a))
            case "--count": count = number(a)
            case "--long": long = true
            case "--save": save = value(a)
            case "--binary": binary = value(a)
            case "--jobs": jobs = max(1, number(a))
            case "--case": single = number(a)
            case "--input": inputFile = value(a)
            case "--skip":
                for k in value(a).split(separator: ",") {
                    guard KnownFailures.kinds[String(k)] != nil else { fail("--skip: unknown kind \(k)") }
                    skip.insert(String(k))
                }
            case "--boards": boards = value(a)
            case "--toml-suite": suite = value(a)
            case "-h", "--help": say(Self.usage); exit(0)
            default:
                guard target.isEmpty, !a.hasPrefix("-") else { fail("unexpected argument \(a)") }
                target = a
            }
            i += 1
        }
        // `handover`, the earlier name of this target (the handover is the screen
        // given to another program): still taken, with a note.
        if target == "handover" { warn("the target handover is now carryover"); target = "carryover" }
        guard ["cli", "iio", "toml", "png", "swupdate", "dbus", "carryover", "soak", "all"].contains(target) else {
            fail("which target? cli, iio, toml, png, swupdate, dbus, carryover, soak or all")
        }
    }

    func count(for target: String) -> Int {
        if let count { return count }
        return long ? Self.longCount : Self.shortCounts[target]!
    }

    var range: (String) -> Range<Int> {
        { t in single.map { $0..<($0 + 1) } ?? 0..<count(for: t) }
    }
}

/// Ends the program for a usage mistake.
func fail(_ message: String) -> Never {
    warn("kiosk-hud-fuzz: \(message)\n\(FuzzOptions.usage)")
    exit(2)
}

/// The package root (…/Sources/kiosk-hud-fuzz/KioskHUDFuzz.swift → …).
let packageRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
}()

/// KIOSK_HUD_FUZZ_VERBOSE=1: in-process targets say what each case did (with --case or --input).
let verboseCases = getenv("KIOSK_HUD_FUZZ_VERBOSE") != nil

let defaultSuite = "/usr/share/gocode/src/github.com/BurntSushi/toml/internal/toml-test/tests"

@main
enum KioskHUDFuzz {
    static func main() {
        let o = FuzzOptions(Array(CommandLine.arguments.dropFirst()))
        KnownFailures.skipped = o.skip
        // Our own high-water mark from now (a parent that spawned us big does not count).
        let reset = open("/proc/self/clear_refs", O_WRONLY)
        if reset >= 0 { _ = write(reset, "5", 1); close(reset) }
        let targets = o.target == "all" ? ["cli", "iio", "toml", "png", "swupdate", "dbus", "carryover", "soak"] : [o.target]
        if let dir = o.save { makeDirectories(dir) }
        var failed = false
        var summaries: [String] = []
        for t in targets {
            let tally = run(t, o)
            let s = tally.summary()
            say(s)
            summaries.append(s)
            if !tally.failures.isEmpty { failed = true }
        }
        if targets.count > 1 { say("summary:\n" + summaries.joined(separator: "\n")) }
        exit(failed ? 1 : 0)
    }

    static func run(_ t: String, _ o: FuzzOptions) -> Tally {
        let tally = Tally(target: t, seed: o.seed, saveDirectory: o.save)
        // Cases of iio mostly wait (for --duration): more of them at once.
        let cpus = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        let jobs = o.jobs ?? (t == "iio" ? 8 * cpus : cpus)
        let range = o.range(t)
        switch t {
        case "cli", "iio":
            let binary = o.binary ?? directoryOf(selfExecutable()) + "/kiosk-hud"
            guard access(binary, X_OK) == 0 else {
                warn("kiosk-hud-fuzz: no kiosk-hud at \(binary) (build it, or give --binary PATH)")
                exit(2)
            }
            let target: SpawnTarget = t == "iio" ? IIOTarget() : CLITarget(toml: tomlTarget(o, tally), png: PNGTarget())
            runSpawnTarget(target, binary: binary, seed: o.seed, range: range, jobs: jobs, tally: tally)
            if let i = o.single, let dir = o.save, tally.failures.isEmpty, let save = tally.save {
                // One case asked for by number: its files and command.sh saved even when it passed.
                let caseDir = "\(dir)/\(t)-seed\(o.seed)-case\(i)"
                removeTree(caseDir)
                makeDirectories(caseDir)
                save(i, Failure(index: i, violation: Violation(kind: "none", detail: "passed", key: ""), input: ""), caseDir)
            }
        case "toml", "png", "swupdate", "dbus", "carryover":
            let target: InProcessTarget
            switch t {
            case "toml": target = tomlTarget(o, tally)
            case "png": target = PNGTarget()
            case "swupdate": target = SWUpdateTarget()
            case "carryover": target = CarryOverTarget()
            default:
                let dbus = DBusTarget()
                // The bus played still reaches the walker, and its depth limit holds (before any case).
                if o.inputFile == nil, let why = dbus.selfTest() {
                    tally.fail(0, Violation(kind: "setup", detail: why, key: "dbus self-test: " + gist(why)), input: "-")
                }
                target = dbus
            }
            if t == "toml", o.single == nil, o.inputFile == nil, (target as! TOMLTarget).invalid.isEmpty, getenv("KIOSK_TOML_SUITE_ALLOW_SKIP") == nil {
                tally.fail(0, Violation(kind: "setup", detail: "toml-test's invalid documents are missing at \(o.suite ?? defaultSuite): apt-get install golang-github-burntsushi-toml-dev (or KIOSK_TOML_SUITE_ALLOW_SKIP=1)",
                                        key: "toml-test suite missing"), input: "-")
            }
            if let file = o.inputFile {
                runFile(target, file, tally)
            } else {
                tally.save = { index, _, dir in
                    var rng = caseRng(o.seed, index)
                    writeFile(dir + "/input.\(target.fileExtension)", target.input(&rng, index: index))
                }
                runInProcess(target, seed: o.seed, range: range, jobs: jobs, tally: tally)
                if let i = o.single, let dir = o.save, tally.failures.isEmpty {
                    // One case asked for by number: its input saved even when it passed.
                    var rng = caseRng(o.seed, i)
                    writeFile(dir + "/\(t)-seed\(o.seed)-case\(i).\(target.fileExtension)", target.input(&rng, index: i))
                }
            }
        default:
            runSoak(frames: o.count(for: "soak"), seed: o.seed, tally: tally)
        }
        return tally
    }

    static func tomlTarget(_ o: FuzzOptions, _ tally: Tally) -> TOMLTarget {
        let boards = o.boards ?? packageRoot + "/Boards"
        let suite = o.suite ?? defaultSuite
        let target = TOMLTarget(boardsDirectory: boards, suiteDirectory: isDirectory(suite + "/invalid") ? suite : nil)
        if target.boards.isEmpty {
            warn("kiosk-hud-fuzz: no board profiles in \(boards) (--boards DIR)")
            exit(2)
        }
        return target
    }

    /// One file as the input, in this process: what the library said, the time and memory.
    static func runFile(_ target: InProcessTarget, _ file: String, _ tally: Tally) {
        guard let bytes = readFile(file) else { fail("cannot read \(file)") }
        let t0 = monotonicNanos()
        let v = target.check(bytes, index: -1)
        tally.ran(0, ms: millis(t0, monotonicNanos()), rss: peakRSSBytes())
        if let v { tally.fail(0, v, input: describeBytes(bytes)) }
    }
}
