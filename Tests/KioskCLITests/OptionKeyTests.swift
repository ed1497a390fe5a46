import KioskCLI
import Testing

private extension OptionKey {
    static let progress = OptionKey("progress")
    static let retain = OptionKey("retain")
}

/// An option declared and looked up by its key reads as by its name.
@Suite struct OptionKeyTests {
    @Test func keysDeclareAndLookUpTheSameOption() throws {
        let spec = CommandSpec("tool", abstract: "t", subcommands: [CommandSpec("show", abstract: "s", groups: [OptionGroup([
            OptionSpec(.progress, rule: .number(0, 1, "a fraction"), help: "p"),
            .flag(.retain, help: "r"),
        ])])])
        guard case let .run(_, a) = try parseCommandLine(["show", "--progress", "0.25", "--retain"], root: spec) else {
            Issue.record("not a run"); return
        }
        let byKey = try a.double(.progress), byName = try a.double("progress")
        #expect(byKey == 0.25 && byName == 0.25)
        #expect(a.flag(.retain) && a.given(.retain) && a.string(.progress) == "0.25")
        #expect(OptionKey.progress.description == "--progress")
    }
}
