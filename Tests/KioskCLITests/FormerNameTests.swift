// An option renamed keeps its earlier name working, deprecated (`--underlay` → `--underlay-image`,
// `touch --output` → `--connector`): the value is the option's, a note says the new name, an
// error about the value names what was typed, and the help shows only the new name.
import KioskCLI
import Testing

@Suite struct FormerNameTests {
    static let spec = CommandSpec("tool", abstract: "t", subcommands: [
        CommandSpec("show", abstract: "s", groups: [OptionGroup([
            OptionSpec("underlay-image", rule: .path, help: "The underlay picture.", formerNames: ["underlay"]),
            OptionSpec("size", value: "WxH", rule: .size(1, 8192), help: "s"),
        ])]),
        CommandSpec("touch", abstract: "t", groups: [OptionGroup([
            OptionSpec("connector", rule: .text(32, nonEmpty: true, "a connector name"), help: "c", formerNames: ["output"]),
        ])]),
    ])

    static func parsed(_ args: [String]) throws(UsageError) -> ParsedArguments {
        guard case let .run(_, a) = try parseCommandLine(args, root: spec) else { throw UsageError("help?") }
        return a
    }

    @Test func theEarlierNameIsTheOptionWithANote() throws {
        for args in [["show", "--underlay", "/u.png"], ["show", "--underlay=/u.png"]] {
            let a = try Self.parsed(args)
            #expect(a.string("underlay-image") == "/u.png" && a.given("underlay-image") && !a.given("underlay"), "\(args)")
            #expect(a.deprecations == ["--underlay is deprecated; use --underlay-image"], "\(args)")
            #expect(a.written("underlay-image") == "--underlay")
        }
        let touch = try Self.parsed(["touch", "--output", "DSI-1"])
        #expect(touch.string("connector") == "DSI-1" && touch.deprecations == ["--output is deprecated; use --connector"])
    }

    @Test func theNewNameGivesNoNote() throws {
        let a = try Self.parsed(["show", "--underlay-image", "/u.png"])
        #expect(a.string("underlay-image") == "/u.png" && a.deprecations.isEmpty && a.written("underlay-image") == "--underlay-image")
    }

    @Test func aMissingValueNamesWhatWasTyped() {
        #expect(throws: UsageError.self) { _ = try Self.parsed(["show", "--underlay"]) }
        do throws(UsageError) { _ = try Self.parsed(["show", "--underlay"]) } catch {
            #expect(error.message.hasPrefix("--underlay needs a value"), "\(error.message)")
        }
    }

    @Test func theHelpShowsTheNewNameOnly() {
        let help = helpText(root: Self.spec, path: ["tool", "show"])
        #expect(help.contains("--underlay-image") && !help.contains("--underlay ") && !help.contains("--underlay\n"), "\(help)")
    }
}
