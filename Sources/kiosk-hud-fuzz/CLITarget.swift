import KioskBoards
import KioskSettings

/// `cli`: argument vectors for `render`, `show --offscreen` and `tilt --iio-root DIR`. Options
/// come from the settings table (their declared rules give valid, boundary, wrong and hostile
/// values) plus each command's own; path options point at generated files in the case's
/// directory: board files (mutated, as the toml target makes them), PNGs (as the png target
/// makes them: bombs, huge headers), IIO trees, and FIFOs, directories, missing files, empty
/// files, link loops and links to /dev/zero. Then the vector itself is mutated: values dropped,
/// options repeated, unknown and very long options, positionals, `--`, `--name=value` forms.
///
/// `show` always gets `--glyph-cache`, `--duration` and `--offscreen` first (later options
/// override them, but the generator never repeats them with a value that could mean "run for
/// ever"), so nothing is written outside the case's directory and every case ends.
final class CLITarget: SpawnTarget {
    let name = "cli"
    let toml: TOMLTarget
    let png: PNGTarget

    init(toml: TOMLTarget, png: PNGTarget) {
        self.toml = toml; self.png = png
    }

    func prepare(_ rng: inout Rng, index: Int, in dir: String) -> SpawnCase {
        var files = CaseFiles(dir: dir, toml: toml, png: png)
        var argv: [[UInt8]]
        let command = rng.weighted([60, 30, 10])
        var pool: [OptionMaker]
        switch command {
        case 0:
            argv = [b("render")]
            if rng.chance(0.92) { argv += [b("--out"), rng.chance(0.8) ? b("out.png") : files.output(&rng)] }
            pool = renderPool
        case 1:
            argv = [b("show"), b("--glyph-cache"), files.cacheDirectory(&rng), b("--duration"), duration(&rng),
                    b("--offscreen"), files.offscreen(&rng)]
            if rng.chance(0.5) { argv.append(b("--no-input")) }
            pool = showPool
        default:
            argv = [b("tilt"), b("--duration"), duration(&rng), b("--iio-root"), files.iioRoot(&rng)]
            pool = tiltPool
        }
        let prefix = argv.count
        for _ in 0..<rng.length(12) {
            let maker = rng.pick(pool)
            argv += maker.make(&rng, &files)
        }
        if rng.chance(0.3) { mutateVector(&argv, &rng, pool: pool, first: prefix) }
        if KnownFailures.skips("large-canvas") { shrinkCanvas(&argv) }
        if KnownFailures.skips("long-option") { shortenEchoed(&argv, pool: pool) }
        return SpawnCase(argv: argv, canvasBytes: canvasBytes(argv), check: nil)
    }

    /// `--duration`: short, or a value that must be refused.
    func duration(_ rng: inout Rng) -> [UInt8] {
        if rng.chance(0.9) { return b(rng.pick(["0", "0.05", "0.1", "0.2", "1e-3", "0.15"])) }
        return b(rng.pick(["-1", "nan", "inf", "-inf", "1e309", "", "abc", "31536001", "0x10", "1e400", "-0.0", "\u{FF}"]))
    }

    /// Changes to the vector after its first `first` arguments (the command and the options that
    /// keep a case inside its directory and its time are left as they are).
    func mutateVector(_ argv: inout [[UInt8]], _ rng: inout Rng, pool: [OptionMaker], first: Int) {
        for _ in 0..<rng.int(1...3) {
            let at = rng.int(first...argv.count)
            switch rng.below(11) {
            case 0: if argv.count > first + 1 { argv.remove(at: rng.int(first...(argv.count - 1))) }
            case 1: if argv.count > first { argv.insert(argv[rng.int(first...(argv.count - 1))], at: at) }
            case 2: argv.insert(b("--"), at: at)
            case 3:  // an unknown option: a typo, a made-up word, or a long one
                let names = pool.map(\.name)
                var name = rng.pick(names)
                switch rng.below(4) {
                case 0: name = String(name.dropLast())
                case 1: name += "s"
                case 2: name = "frobnicate"
                default: if !KnownFailures.skips("long-option") { name = String(repeating: "x", count: rng.pick([81, 300, 5000])) }
                }
                argv.insert(b("--" + name), at: at)
            case 4:  // a positional
                let long = !KnownFailures.skips("long-option") && rng.chance(0.3)
                argv.insert(long ? b(String(repeating: "p", count: rng.pick([100, 4000]))) : b(rng.pick(["extra", "-", "hud.png", "--x=", "-x", "-oo"])), at: at)
            case 5: argv.append(b(rng.pick(["--label", "--board", "-o", "--size"])))  // an option without its value
            case 6: argv.insert(b(rng.pick(["-h", "--help", "help"])), at: at)
            case 7:  // --name=value
                if let i = argv.indices.dropFirst(first).first(where: { argv[$0].starts(with: b("--")) && $0 + 1 < argv.count }) {
                    argv[i] = argv[i] + b("=") + argv[i + 1]
                    argv.remove(at: i + 1)
                }
            case 8:  // a repeatable option many times
                let times = rng.pick([17, 100, 2000])
                for _ in 0..<times { argv += [b(rng.pick(["--connector", "--input", "--bind-touch"])), b("x\(rng.below(100))")] }
            case 9:  // --no- on something that is not a flag
                argv.insert(b("--no-" + rng.pick(pool.map(\.name))), at: at)
            default:
                if argv.count > first { argv[rng.int(first...(argv.count - 1))] = RuleValues.hostileText(&rng) }
            }
        }
    }

    /// With `long-option` skipped: arguments that kiosk-hud would echo whole in an error (an
    /// unknown option, a stray positional) cut to 60 bytes, as the parser would see them.
    func shortenEchoed(_ argv: inout [[UInt8]], pool: [OptionMaker]) {
        let valued = Set(pool.filter(\.takesValue).map(\.name) + ["out", "glyph-cache", "duration", "offscreen", "iio-root", "o"])
        var i = 1
        var positional = false
        while i < argv.count {
            let a = String(decoding: argv[i], as: UTF8.self)
            if !positional && a == "--" { positional = true; i += 1; continue }
            if !positional && a.hasPrefix("-") && a != "-" {
                let name = String(a.drop { $0 == "-" }.prefix { $0 != "=" })
                if !a.contains("=") && valued.contains(name) { i += 2; continue }
                if !valued.contains(name) && !pool.contains(where: { $0.name == name || "no-" + $0.name == name }) && argv[i].count > 60 {
                    argv[i] = Array(argv[i].prefix(60))
                }
                i += 1
                continue
            }
            if argv[i].count > 60 { argv[i] = Array(argv[i].prefix(60)) }
            i += 1
        }
    }

    /// With `large-canvas` skipped: sides above 2048 brought down to 2048.
    func shrinkCanvas(_ argv: inout [[UInt8]]) {
        for i in argv.indices where i > 0 && argv[i - 1] == b("--size") || argv[i].starts(with: b("--size=")) {
            let s = String(decoding: argv[i], as: UTF8.self)
            let prefix = s.hasPrefix("--size=") ? "--size=" : ""
            let p = s.dropFirst(prefix.count).split(separator: "x", omittingEmptySubsequences: false)
            if p.count == 2, let w = Int(p[0]), let h = Int(p[1]), w > 2048 || h > 2048, w <= 8192, h <= 8192, w > 0, h > 0 {
                argv[i] = b("\(prefix)\(min(w, 2048))x\(min(h, 2048))")
            }
        }
    }

    // MARK: Options

    /// Settings options of `names` and of `groups`, from the table (as kiosk-hud's SettingOptions).
    static func settingMakers(groups: Set<String>, names: Set<String>, except: Set<String> = []) -> [OptionMaker] {
        RuleValues.optionSettings.filter { s in
            (groups.contains(s.group) || names.contains(s.option!)) && !except.contains(s.option!)
        }.map { s in OptionMaker(setting: s) }
    }

    static let pathOptions: Set<String> = ["board", "image", "underlay-image", "logo", "out", "fbdev", "card", "input", "iio-root", "offscreen", "glyph-cache"]

    let renderPool: [OptionMaker] =
        [OptionMaker(path: "board")]
        + CLITarget.settingMakers(groups: [SettingGroup.hud], names: ["size", "scale", "format", "underlay-color", "underlay-fit"])
        + [OptionMaker(choice: "scene", ["bench"]), OptionMaker(integer: "phase", -1...12), OptionMaker(path: "out"),
           OptionMaker(flag: "pressed"), OptionMaker(point: "motion-offset", 1_000_000), OptionMaker(flag: "print-layout")]

    let showPool: [OptionMaker] =
        [OptionMaker(path: "board")]
        + CLITarget.settingMakers(groups: [SettingGroup.hud, SettingGroup.tilt], names: ["size", "scale", "format", "underlay-color", "underlay-fit", "card", "connector",
                                                                            "video-mode", "rotate", "seat", "input", "touch-matrix", "bind-touch"],
                        except: ["iio-root"])
        + [OptionMaker(choice: "on-button", ["exit", "hide", "none"]), OptionMaker(choice: "on-tap-outside", ["exit", "none"]),
           OptionMaker(flag: "fractional-scale"), OptionMaker(flag: "retain"), OptionMaker(path: "fbdev"), OptionMaker(flag: "animate"),
           OptionMaker(flag: "no-frame-cache"), OptionMaker(flag: "no-hotplug"), OptionMaker(flag: "no-vt"), OptionMaker(flag: "check-scanout"),
           OptionMaker(flag: "no-input"), OptionMaker(path: "iio-root"), OptionMaker(path: "input"), OptionMaker(path: "card")]

    let tiltPool: [OptionMaker] =
        [OptionMaker(path: "board")]
        + CLITarget.settingMakers(groups: [SettingGroup.tilt], names: ["rotate"], except: ["iio-root"])
        + [OptionMaker(integer: "samples", 0...40)]
}

/// Makes one option (and its value) for an argument vector.
struct OptionMaker {
    let name: String
    /// Whether it takes a value (not a flag).
    var takesValue = true
    let make: (inout Rng, inout CaseFiles) -> [[UInt8]]

    init(setting s: Setting<HUDSettings>) {
        let name = s.option!
        self.name = name
        if case .bool = s.rule.kind {
            takesValue = false
            make = { rng, _ in
                if rng.chance(0.1) { return [b("--\(name)=" + rng.pick(["true", "1", ""]))] }
                return [b(rng.chance(0.7) ? "--\(name)" : "--no-\(name)")]
            }
        } else if CLITarget.pathOptions.contains(name) {
            make = { rng, files in [b("--\(name)"), files.path(for: name, &rng)] }
        } else {
            make = { rng, _ in
                let v = RuleValues.text(for: s, &rng)
                return rng.chance(0.1) ? [b("--\(name)=") + v] : [b("--\(name)"), v]
            }
        }
    }

    init(path name: String) {
        self.name = name
        make = { rng, files in
            let v = files.path(for: name, &rng)
            return rng.chance(0.1) ? [b("--\(name)=") + v] : [b("--\(name)"), v]
        }
    }

    init(flag name: String) {
        self.name = name
        takesValue = false
        make = { rng, _ in [b(rng.chance(0.95) ? "--\(name)" : "--\(name)=x")] }
    }

    init(choice name: String, _ words: [String]) {
        self.name = name
        make = { rng, _ in [b("--\(name)"), b(rng.chance(0.8) ? rng.pick(words) : rng.pick(["", "EXIT", "bench2", "none "]))] }
    }

    init(integer name: String, _ range: ClosedRange<Int>) {
        self.name = name
        make = { rng, _ in [b("--\(name)"), b(rng.chance(0.8) ? String(rng.int(range)) : interestingNumberText(&rng))] }
    }

    init(point name: String, _ limit: Double) {
        self.name = name
        make = { rng, _ in
            [b("--\(name)"), b(rng.chance(0.7) ? "\(rng.int(-300...300)),\(rng.int(-300...300))"
                                : rng.pick(["\(Int(limit) + 1),0", "nan,0", "1,2,3", "", "1e309,1", "\(interestingNumberText(&rng)),0"]))]
        }
    }
}

/// The UTF-8 bytes of `s`.
func b(_ s: String) -> [UInt8] { Array(s.utf8) }

/// Files that a case's path options name, made in its directory (relative names only, so the
/// case can be moved and rerun; nothing outside it is ever named, except through links to
/// /dev/zero for reading).
struct CaseFiles {
    let dir: String
    let toml: TOMLTarget
    let png: PNGTarget
    private var made = 0

    init(dir: String, toml: TOMLTarget, png: PNGTarget) {
        self.dir = dir; self.toml = toml; self.png = png
    }

    mutating func fresh(_ stem: String) -> String {
        made += 1
        return "\(stem)\(made)"
    }

    /// Something odd at a new name: a FIFO, a directory, nothing, an empty file, a dangling
    /// link, a loop, a link to /dev/zero, a long name.
    mutating func odd(_ rng: inout Rng, stem: String, fifoAllowed: Bool = true, zeroAllowed: Bool = true) -> [UInt8] {
        let name = fresh(stem)
        let kinds: [IIOTree.Node] = (fifoAllowed ? [.fifo, .fifo, .directory, .missing, .empty, .dangling, .loop, .zero]
            : [.directory, .missing, .empty, .dangling, .loop, .zero]).filter { n in if case .zero = n { zeroAllowed } else { true } }
        switch rng.below(10) {
        case 0: return b("")
        case 1:
            if KnownFailures.skips("long-path") { return b(name + "/") }
            return b(rng.pick([String(repeating: "n", count: 256), String(repeating: "d/", count: 2100), String(repeating: "n", count: 4096)]))
        case 2: return b(name + "/")
        case 3 where fifoAllowed:  // a link to a FIFO
            makeFIFO(dir + "/" + name + "-fifo")
            makeSymlink(name + "-fifo", at: dir + "/" + name)
            return b(name)
        default:
            IIOTree.place(rng.pick(kinds), at: dir + "/" + name, &rng)
            return b(name)
        }
    }

    mutating func path(for option: String, _ rng: inout Rng) -> [UInt8] {
        switch option {
        case "board": return board(&rng)
        case "image", "underlay-image", "logo": return picture(&rng)
        case "out": return output(&rng)
        case "iio-root": return iioRoot(&rng)
        case "offscreen": return offscreen(&rng)
        case "glyph-cache": return cacheDirectory(&rng)
        case "input": return odd(&rng, stem: option, zeroAllowed: !KnownFailures.skips("input-udev"))  // opened by libinput
        default: return odd(&rng, stem: option)  // fbdev, card: not opened with --offscreen
        }
    }

    mutating func board(_ rng: inout Rng) -> [UInt8] {
        if rng.chance(0.2) { return odd(&rng, stem: "board", fifoAllowed: !KnownFailures.skips("board-fifo")) }
        let name = fresh("board") + ".toml"
        var doc: [UInt8]
        if rng.chance(0.4) && !toml.boards.isEmpty { doc = rng.pick(toml.boards).1 } else {
            doc = toml.input(&rng, index: Int.max)
        }
        if rng.chance(0.02) { doc += [UInt8](repeating: 0x0A, count: (1 << 20) + 1 - min(doc.count, 1 << 20)) }
        writeFile(dir + "/" + name, doc)
        return b(name)
    }

    mutating func picture(_ rng: inout Rng) -> [UInt8] {
        if rng.chance(0.25) { return odd(&rng, stem: "pic") }
        let name = fresh("pic") + ".png"
        if rng.chance(0.1), !toml.boards.isEmpty { writeFile(dir + "/" + name, rng.pick(toml.boards).1) } else {
            writeFile(dir + "/" + name, png.input(&rng, index: Int.max))
        }
        return b(name)
    }

    mutating func output(_ rng: inout Rng) -> [UInt8] {
        switch rng.below(6) {
        case 0: return odd(&rng, stem: "out")
        case 1: return b("missing-dir/out.png")
        case 2:  // an existing file, replaced
            writeFile(dir + "/existing.png", [1, 2, 3])
            return b("existing.png")
        default: return b(fresh("out") + ".png")
        }
    }

    mutating func iioRoot(_ rng: inout Rng) -> [UInt8] {
        if rng.chance(0.15) { return odd(&rng, stem: "root") }
        let name = fresh("root")
        IIOTree.make(&rng, at: dir + "/" + name)
        return b(name)
    }

    mutating func offscreen(_ rng: inout Rng) -> [UInt8] {
        switch rng.below(8) {
        case 0, 1, 2, 3: return b("-")
        case 4: makeDirectories(dir + "/frames"); return b("frames")
        case 5:  // first.png is a FIFO, last.png a directory
            makeDirectories(dir + "/frames2/last.png")
            makeFIFO(dir + "/frames2/first.png")
            return b("frames2")
        default: return odd(&rng, stem: "frames")
        }
    }

    mutating func cacheDirectory(_ rng: inout Rng) -> [UInt8] {
        switch rng.below(6) {
        case 0, 1: return b("none")
        case 2: return b("cache")
        case 3: makeDirectories(dir + "/cache2"); return b("cache2")
        default:
            let o = odd(&rng, stem: "cache")
            // An empty value would leave the cache at its default place: give 'none' instead.
            return o.isEmpty ? b("none") : o
        }
    }
}
