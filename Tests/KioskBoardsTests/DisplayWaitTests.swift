// The wait for a display under the shipped unit (dist/systemd/kiosk-hud.service): its command
// line gives none, so the board profile's [display] wait is the one in effect, the daemon's own
// 8 s when the profile gives none either, and an option given to it (KIOSK_HUD_ARGS) beats both.
// The settings as kiosk-hud resolves them: the real parser, --board FILE, the options over it.
import KioskBoards
import KioskCLI
import KioskSys
import KioskTestSupport
import Testing

@Suite struct DisplayWaitTests {
    /// The unit's `daemon` arguments: ExecStart='s words after `daemon`, the environment's
    /// `$KIOSK_HUD_…` left out (empty unless the administrator sets them).
    static func unitArguments() throws -> [String] {
        let unit = String(decoding: try readFileBytes(Proc.root + "/dist/systemd/kiosk-hud.service", limit: 1 << 16), as: UTF8.self)
        let exec = try #require(unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        let words = exec.dropFirst("ExecStart=".count).split(separator: " ").map(String.init)
        #expect(words.prefix(2) == ["/usr/bin/kiosk-hud", "daemon"])
        return words.dropFirst(2).filter { !$0.hasPrefix("$") }
    }

    /// The daemon's wait for `arguments` (after the unit's) with a profile whose [display] is `display`.
    static func daemonWait(profile display: String, _ arguments: [String] = []) throws -> Double {
        let m = FakeBoardRoot()
        m.file("/board.toml", "name = \"kiosk\"\n[display]\n\(display)")
        guard case let .run(_, a) = try parseCommandLine(try unitArguments() + ["--board", m.root + "/board.toml"] + arguments,
                                                          root: PrecedenceTests.spec) else { throw UsageError("help?") }
        let selection = try BoardSelection.select(.init(a.string("board") ?? "auto"), catalog: m.catalog, facts: m.facts)
        return try HUDSettings.resolved(profile: selection.profile, arguments: a).profile.display.waitSeconds(daemon: true)
    }

    @Test func theUnitGivesNoWaitOfItsOwn() throws {
        let arguments = try Self.unitArguments()
        #expect(arguments.isEmpty)
    }

    @Test func theProfilesWaitIsTheOneInEffect() throws {
        let two = try Self.daemonWait(profile: "wait = 2\n"), none = try Self.daemonWait(profile: "wait = 0\n")
        #expect(two == 2)
        #expect(none == 0)
    }

    @Test func withoutOneTheDaemonWaits8Seconds() throws {
        #expect(DisplayProfile.daemonWait == 8)
        let unset = try Self.daemonWait(profile: "")
        #expect(unset == 8)
        // The built-in generic profile gives none either (Boards/generic.toml has it commented).
        #expect(BoardProfile.generic.display.waitGiven == nil)
        #expect(BoardProfile.generic.display.waitSeconds(daemon: true) == 8)
        // show and run do not wait unless told to.
        #expect(BoardProfile.generic.display.waitSeconds(daemon: false) == 0)
    }

    @Test func theCommandLineBeatsBoth() throws {
        let overProfile = try Self.daemonWait(profile: "wait = 2\n", ["--wait-display", "5"])
        let overDefault = try Self.daemonWait(profile: "", ["--wait-display", "5"])
        let zero = try Self.daemonWait(profile: "wait = 2\n", ["--wait-display", "0"])
        #expect(overProfile == 5)
        #expect(overDefault == 5)
        #expect(zero == 0)
    }
}
