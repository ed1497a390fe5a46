import KioskCLI
import Testing

/// A command with verbs shaped like `kiosk-hud ctl`: every verb takes --socket, some take more.
private let socket = OptionSpec("socket", value: "PATH", help: "The socket.")
private let animated = OptionSpec("animated", .inversibleFlag, help: "Animate.")
private let log = OptionSpec("log", .optionalValue, help: "Log (to a file).")
private let tool = CommandSpec("tool", abstract: "A tool.", subcommands: [
    CommandSpec("ctl", abstract: "Talk to it.", subcommands: [
        CommandSpec("ping", abstract: "Ping.", groups: [OptionGroup([socket, log])]),
        CommandSpec("show", abstract: "Show.", groups: [OptionGroup([socket, animated, log])]),
        CommandSpec("hide", abstract: "Hide.", groups: [OptionGroup([socket, animated, log])]),
        CommandSpec("wait", abstract: "Wait.", groups: [OptionGroup([log, socket, OptionSpec("timeout", help: "Seconds.")])]),
        CommandSpec("say", abstract: "Say.", groups: [OptionGroup([socket, log])], positionals: [PositionalSpec("text", help: "Text.")]),
    ]),
    CommandSpec("render", abstract: "Render.", groups: [OptionGroup([OptionSpec("out", help: "Where.")])]),
])

private func parsed(_ args: [String]) -> (command: [String], values: ParsedArguments)? {
    guard case let .run(command, values)? = try? parseCommandLine(args, root: tool) else { return nil }
    return (command, values)
}

private func usageError(_ args: [String]) -> UsageError? {
    do throws(UsageError) { _ = try parseCommandLine(args, root: tool); return nil } catch { return error }
}

/// Options that every verb takes come before the verb too (`ctl --socket S status`), as
/// systemctl's and git's global options do; one that only some verbs take says where it goes.
@Suite struct SharedOptionTests {
    @Test func anOptionOfEveryVerbComesBeforeTheVerb() {
        let a = parsed(["ctl", "--socket", "/run/s.sock", "ping"])
        #expect(a?.command == ["tool", "ctl", "ping"])
        #expect(a?.values.string("socket") == "/run/s.sock")
        let b = parsed(["ctl", "--socket=/run/t.sock", "say", "hello"])
        #expect(b?.command == ["tool", "ctl", "say"])
        #expect(b?.values.string("socket") == "/run/t.sock" && b?.values.positionals == ["hello"])
        let c = parsed(["ctl", "--socket", "/a", "wait", "--timeout", "3"])
        #expect(c?.values.string("socket") == "/a" && c?.values.string("timeout") == "3")
    }

    /// An optional value before the verb takes `=VALUE` only: the next word is the verb.
    @Test func anOptionalValueBeforeTheVerb() {
        let a = parsed(["ctl", "--log", "ping"])
        #expect(a?.command == ["tool", "ctl", "ping"] && a?.values.string("log") == "")
        let b = parsed(["ctl", "--log=/tmp/l", "ping"])
        #expect(b?.command == ["tool", "ctl", "ping"] && b?.values.string("log") == "/tmp/l")
    }

    @Test func afterTheVerbItStillWorksAndWins() {
        #expect(parsed(["ctl", "ping", "--socket", "/b"])?.values.string("socket") == "/b")
        #expect(parsed(["ctl", "--socket", "/a", "ping", "--socket", "/b"])?.values.string("socket") == "/b")
        #expect(parsed(["ctl", "--socket", "/a", "--socket", "/c", "ping"])?.values.string("socket") == "/c")
    }

    @Test func anOptionOfSomeVerbsSaysWhereItGoes() {
        #expect(usageError(["ctl", "--timeout", "3", "wait"])?.message == "--timeout is an option of wait only: put it after the command")
        #expect(usageError(["ctl", "--animated", "show"])?.message == "--animated is an option of show, hide only: put it after the command")
        #expect(usageError(["ctl", "--no-animated", "show"])?.message == "--no-animated is an option of show, hide only: put it after the command")
        #expect(usageError(["ctl", "--timeout", "3", "wait"])?.command == ["tool", "ctl"])
    }

    @Test func mistakesBeforeTheVerb() {
        #expect(usageError(["ctl", "--bogus", "ping"])?.message == "expected a command before '--bogus'")
        #expect(usageError(["ctl", "--socket"])?.message == "--socket needs a value (<PATH>)")
        #expect(usageError(["ctl", "--socket", "/a"])?.message == "expected a command after --socket")
        #expect(usageError(["ctl", "--socket", "/a", "pong"])?.message == "unknown command 'pong'; did you mean ping?")
        // The top level's commands share nothing: no option comes before them.
        #expect(usageError(["--out", "x.png", "render"])?.message == "expected a command before '--out'")
        #expect(usageError(["--socket", "/a", "ctl", "ping"])?.message == "expected a command before '--socket'")
    }

    @Test func helpBeforeOrAfterTheSharedOption() throws {
        guard case let .help(command)? = try? parseCommandLine(["ctl", "--socket", "/a", "--help"], root: tool) else {
            Issue.record("no help"); return
        }
        #expect(command == ["tool", "ctl"])
        #expect(tool.subcommands[0].sharedOptions.map(\.name) == ["socket", "log"])
        #expect(tool.sharedOptions.isEmpty)
        let help = helpText(root: tool, path: ["tool", "ctl"])
        #expect(help.contains("\nOPTIONS OF EVERY SUBCOMMAND (before it or after it):\n  --socket <PATH>"), "\(help)")
        #expect(help.contains("\n  --log [<log>]"), "\(help)")
        #expect(!helpText(root: tool, path: ["tool"]).contains("OPTIONS"))
        #expect(manPage(root: tool, path: ["tool", "ctl"]).contains("\nEvery command takes \\fB\\-\\-socket\\fR, \\fB\\-\\-log\\fR, which may also come before the command's name.\n"))
    }
}
