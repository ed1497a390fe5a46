import KioskCLI
import Testing

/// A small command line shaped like kiosk-hud's.
private let root = CommandSpec("tool", abstract: "A tool.", subcommands: [
    CommandSpec("show", abstract: "Show it.", discussion: "First paragraph.\n\nSecond paragraph.", groups: [
        OptionGroup([
            OptionSpec("label", help: "The label."),
            OptionSpec("progress", help: "Progress 0…1."),
            OptionSpec("out", short: "o", help: "Output."),
            OptionSpec("connector", .repeated, help: "Repeatable."),
            .flag("square", help: "Square."),
            .flag("no-input", help: "No input."),
            .flag("secret", help: "Hidden.", hidden: true),
        ]),
        OptionGroup("Tilt", [OptionSpec("reduce-motion", .inversibleFlag, help: "No motion.")]),
    ]),
    CommandSpec("run", abstract: "Run a program.", positionals: [PositionalSpec("command", help: "The program.", repeated: true)]),
])

private func run(_ args: [String]) throws -> ParsedArguments {
    guard case let .run(_, values) = try parseCommandLine(args, root: root) else {
        Issue.record("expected a command to run for \(args)")
        return ParsedArguments(command: [])
    }
    return values
}

private func usageError(_ args: [String]) -> UsageError? {
    do throws(UsageError) { _ = try parseCommandLine(args, root: root); return nil } catch { return error }
}

@Suite struct ParseTests {
    @Test func valuesFlagsAndTheirSpellings() throws {
        let a = try run(["show", "--label", "Loading…", "--progress=0.5", "-o", "x.png", "--square", "--no-input"])
        #expect(a.command == ["tool", "show"])
        #expect(a.string("label") == "Loading…")
        #expect(try a.double("progress") == 0.5)
        #expect(a.string("out") == "x.png")
        #expect(a.flag("square") && a.flag("no-input") && !a.flag("secret"))
        #expect(a.string("connector") == nil && a.strings("connector").isEmpty)
        #expect(try run(["show", "-ox.png"]).string("out") == "x.png")
    }

    @Test func aValueIsTheNextArgumentWhateverItLooksLike() throws {
        #expect(try run(["show", "--label", "--square"]).string("label") == "--square")
        #expect(try run(["show", "--label", "-10,5"]).string("label") == "-10,5")
        #expect(try run(["show", "--label="]).string("label") == "")
    }

    @Test func lastValueWinsRepeatedCollects() throws {
        let a = try run(["show", "--label", "a", "--label", "b", "--connector", "HDMI-A-1", "--connector", "DSI-1"])
        #expect(a.string("label") == "b")
        #expect(a.strings("connector") == ["HDMI-A-1", "DSI-1"])
    }

    @Test func inversibleFlag() throws {
        #expect(try run(["show"]).optionalFlag("reduce-motion") == nil)
        #expect(try run(["show", "--reduce-motion"]).optionalFlag("reduce-motion") == true)
        #expect(try run(["show", "--reduce-motion", "--no-reduce-motion"]).optionalFlag("reduce-motion") == false)
    }

    @Test func positionalsAndDoubleDash() throws {
        #expect(try run(["run", "--", "flash", "--force", "-v"]).positionals == ["flash", "--force", "-v"])
        #expect(usageError(["run"])?.message == "missing command")
        #expect(usageError(["show", "stray"])?.message == "unexpected argument 'stray'")
    }

    @Test func helpAnywhere() throws {
        for args in [[], ["--help"], ["-h"], ["help"]] {
            guard case let .help(path) = try parseCommandLine(args, root: root) else { Issue.record("\(args)"); continue }
            #expect(path == ["tool"])
        }
        for args in [["show", "--help"], ["show", "--label", "x", "-h"], ["help", "show"]] {
            guard case let .help(path) = try parseCommandLine(args, root: root) else { Issue.record("\(args)"); continue }
            #expect(path == ["tool", "show"])
        }
    }

    @Test(arguments: [
        (["show", "--lable", "x"], "unknown option --lable; did you mean --label?"),
        (["show", "--labe"], "unknown option --labe; did you mean --label?"),
        (["show", "--frobnicate"], "unknown option --frobnicate"),
        (["show", "--label"], "--label needs a value (<label>)"),
        (["show", "--square=yes"], "--square takes no value"),
        (["show", "--no-reduce-motion=1"], "--no-reduce-motion takes no value"),
        (["show", "-x"], "unknown option -x"),
        (["shwo"], "unknown command 'shwo'; did you mean show?"),
        (["--label", "x"], "expected a command before '--label'"),
        (["help", "nope"], "unknown command 'nope'"),
    ])
    func mistakesAreNamed(args: [String], message: String) {
        #expect(usageError(args)?.message == message)
    }

    @Test func typedValuesNameTheOption() throws {
        let a = try run(["show", "--progress", "lots", "--label", "nan"])
        #expect(throws: UsageError("--progress lots: expected a number", command: ["tool", "show"])) { try a.double("progress") }
        #expect(throws: UsageError("--label nan: expected a number", command: ["tool", "show"])) { try a.double("label") }
        #expect(throws: UsageError("--progress lots: expected a whole number", command: ["tool", "show"])) { try a.int("progress") }
    }

    /// An option's declared rule checks its value, names the option and cuts a long value.
    @Test func declaredRulesCheckValues() throws {
        let spec = CommandSpec("tool", abstract: "t", subcommands: [CommandSpec("show", abstract: "s", groups: [OptionGroup([
            OptionSpec("progress", rule: .number(0, 1, "a fraction"), help: "p"),
            OptionSpec("side", rule: .choice(["left", "right"]), help: "s"),
        ])])])
        func parse(_ args: [String]) throws -> ParsedArguments {
            guard case let .run(_, a) = try parseCommandLine(args, root: spec) else { throw UsageError("help") }
            return a
        }
        #expect(try parse(["show", "--progress", "0.5"]).double("progress") == 0.5)
        for bad in ["5", "-3", "inf", "nan", "0x1p-1", " 0.5", "+0.5"] {
            #expect(throws: UsageError("--progress \(bad): expected a fraction from 0 to 1", command: ["tool", "show"])) {
                try parse(["show", "--progress", bad]).double("progress")
            }
        }
        #expect(throws: UsageError("--side up: expected left or right", command: ["tool", "show"])) { try parse(["show", "--side", "up"]).value("side") }
        let long = String(repeating: "x", count: 100_000)
        #expect(throws: UsageError("--side \(String(repeating: "x", count: 80))…: expected left or right", command: ["tool", "show"])) {
            try parse(["show", "--side", long]).value("side")
        }
    }

    @Test func helpTextShowsEveryVisibleOptionOnce() {
        let text = helpText(root: root, path: ["tool", "show"])
        #expect(text.hasPrefix("OVERVIEW: Show it.\n\nFirst paragraph.\n\nSecond paragraph.\n\nUSAGE: tool show [<options>]\n"))
        for needle in ["--label <label>", "-o, --out <out>", "--connector <connector> ...", "--square", "--[no-]reduce-motion",
                       "TILT:", "OPTIONS:", "-h, --help"] {
            #expect(text.contains(needle), "\(needle) in\n\(text)")
        }
        #expect(!text.contains("secret"))
        let top = helpText(root: root, path: ["tool"])
        #expect(top.contains("SUBCOMMANDS:\n  show") && top.contains("See 'tool help <subcommand>'"))
        #expect(helpText(root: root, path: ["tool", "run"]).contains("USAGE: tool run [<options>] <command> ..."))
    }

    @Test func helpLinesFitTheWidth() {
        let long = CommandSpec("c", abstract: "x", discussion: String(repeating: "word ", count: 60), groups: [OptionGroup([
            OptionSpec("a-very-long-option-name-indeed", value: "VALUE", help: String(repeating: "help ", count: 40)),
        ])])
        let text = helpText(root: long, path: ["c"])
        for line in text.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
    }
}
