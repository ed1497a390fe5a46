// Precedence, for every key a board file and the command line both set: the command line over
// the profile, and a profile named with --board over the one detected. The command line is the
// real parser's (KioskCLI), with the options the settings table makes.
import KioskBoards
import KioskTestSupport
import KioskCLI
import KioskSettings
import Testing

@Suite struct PrecedenceTests {
    /// A command-line value for each overridable option (different from its example in Boards/README.md).
    static let cli: [String: [String]] = [
        "size": ["--size", "640x360"], "scale": ["--scale", "2.5"], "format": ["--format", "argb8888"],
        "underlay-color": ["--underlay-color", "#112233"], "card": ["--card", "/dev/dri/card9"],
        "connector": ["--connector", "HDMI-A-2", "--connector", "DP-1"], "video-mode": ["--video-mode", "1024x768@75"], "wait-display": ["--wait-display", "5"],
        "rotate": ["--rotate", "270"], "touch-matrix": ["--touch-matrix", "rotate-90"], "theme": ["--theme", "light"],
        "margin": ["--margin", "33"], "padding": ["--padding", "2"], "corner-radius": ["--corner-radius", "1"],
        "label-size": ["--label-size", "30"], "details-size": ["--details-size", "9"], "button-size": ["--button-size", "11"],
        "content-color": ["--content-color", "#00FF00"], "bezel-color": ["--bezel-color", "#0000FF80"],
        "blur-radius": ["--blur-radius", "3"], "bezel": ["--bezel", "solid"], "dim-color": ["--dim-color", "#FF000040"],
        "background": ["--background", "gradient"], "grace-time": ["--grace-time", "2"], "min-show-time": ["--min-show-time", "3"],
        "animation": ["--animation", "zoomOut"], "animation-duration": ["--animation-duration", "1"], "accel": ["--accel", "iio:device3"],
        "mount-matrix": ["--mount-matrix", "0, 1, 0; 1, 0, 0; 0, 0, 1"], "depth": ["--depth", "5"], "rate": ["--rate", "10"],
        "time-constant": ["--time-constant", "0.5"], "dead-zone": ["--dead-zone", "4"], "neutral": ["--neutral", "resting"],
        "reduce-motion": ["--no-reduce-motion"], "plymouth-status": ["--plymouth-status", "details"],
        "display-switch": ["--display-switch", "wait-real"],
        "wait-real-timeout": ["--wait-real-timeout", "12"], "language": ["--language", "ja"],
        "underlay-fit": ["--underlay-fit", "stretch"], "underlay-image": ["--underlay-image", "/tmp/other-background.png"], "logo": ["--logo", "/tmp/other-logo.png"],
        "logo-placement": ["--logo-placement", "none"], "logo-size": ["--logo-size", "40"],
    ].merging(PlymouthMode.allCases.flatMap { m in
        [("plymouth-\(m.rawValue)-label", ["--plymouth-\(m.rawValue)-label", "Hold on"]),
         ("plymouth-\(m.rawValue)-mode", ["--plymouth-\(m.rawValue)-mode", "text"])]
    }) { a, _ in a }

    /// Every setting that a board file and an option both give.
    static let overridable = HUDSettings.table.settings.filter { $0.section != nil && $0.option != nil }

    /// The command line of a command that takes every option of the table, and --board.
    static let spec = CommandSpec("t", abstract: "", groups: [OptionGroup(
        [OptionSpec("board", rule: .path, help: "")] + HUDSettings.table.settings.filter { $0.option != nil }.map { OptionSpec($0) })])

    /// The settings for `arguments` on `machine`: --board (auto by default) chosen, the options over it.
    static func resolve(_ arguments: [String], on machine: FakeBoardRoot) throws -> HUDSettings {
        guard case let .run(_, a) = try parseCommandLine(arguments, root: spec) else { throw UsageError("help?") }
        let s = try BoardSelection.select(.init(a.string("board") ?? "auto"), catalog: machine.catalog, facts: machine.facts)
        return try HUDSettings.resolved(profile: s.profile, arguments: a)
    }

    @Test func everyOverridableKeyHasACommandLineValueHere() {
        #expect(Set(Self.overridable.compactMap(\.option)) == Set(Self.cli.keys))
        #expect(Self.overridable.count >= 30)
    }

    @Test(arguments: overridable.map(\.key))
    func commandLineOverProfileOverDetection(_ key: String) throws {
        let s = Self.overridable.first { $0.key == key }!
        let option = s.option!, section = s.section!
        guard let args = Self.cli[option], let example = s.example else { Issue.record("no test value for --\(option)"); return }
        let m = Machines.pi4TouchDisplay()
        let detected = try BoardCatalog.system(root: m.root, executable: nil).entry(named: "rpi-touch-display")!.profile()
        var expectDetected = HUDSettings.defaults
        expectDetected.profile = detected
        let file = m.root + "/board.toml"
        m.file("/board.toml", "[\(section)]\n\(key) = \(example)\n")
        var expectFile = HUDSettings.defaults
        expectFile.profile = try BoardProfile.parse("[\(section)]\n\(key) = \(example)\n", source: "t")
        let given: SettingValue
        if case .bool = s.rule.kind { given = .bool(!args[0].hasPrefix("--no-")) } else {
            given = try s.rule.parse(all: stride(from: 1, to: args.count, by: 2).map { args[$0] })
        }
        #expect(s.get(expectFile) != given, "the example and the command line value of \(key) must differ")

        // Detection alone: the detected profile's value (or the default it leaves).
        #expect(s.get(try Self.resolve([], on: m)) == s.get(expectDetected))
        // A profile named with --board over detection: the file's value.
        #expect(s.get(try Self.resolve(["--board", file], on: m)) == s.get(expectFile))
        // The command line over both.
        #expect(s.get(try Self.resolve(["--board", file] + args, on: m)) == given)
        #expect(s.get(try Self.resolve(args, on: m)) == given)
        #expect(s.get(try Self.resolve(["--board", "generic"] + args, on: m)) == given)
    }

    /// A key that [match] and [display] have too (`mode`) finds the HUD's live setting: the
    /// daemon's requests and Plymouth's modes set it by key.
    @Test func theDaemonsFieldsFindTheLiveSetting() {
        #expect(HUDSettings.table.setting(key: "mode")?.live == true)
        #expect(HUDSettings.table.setting(key: "mode")?.section != "match")
    }

    /// --board by name beats what detection would take; `auto` given explicitly is detection.
    @Test func aNamedProfileOverDetection() throws {
        let m = Machines.pi4TouchDisplay()
        #expect(try Self.resolve([], on: m).profile.name == "rpi-touch-display")
        #expect(try Self.resolve(["--board", "auto"], on: m).profile.name == "rpi-touch-display")
        #expect(try Self.resolve(["--board", "rpi-touch-display-2"], on: m).profile.name == "rpi-touch-display-2")
        #expect(try Self.resolve(["--board", "generic"], on: m).profile == .generic)
        // What the profile leaves unset stays the default, and what it sets stays unless overridden.
        let s = try Self.resolve(["--board", "rpi3-waveshare35", "--format", "xrgb8888"], on: m)
        #expect(s.profile.format == .xrgb8888 && s.profile.touch.matrix?.map(Float.init) == [0, -1.1041, 1.0612, 1.1337, 0, -0.0742])
        #expect(s.profile.style.margin == 10 && s.profile.style.labelFontSize == 16)
    }
}
