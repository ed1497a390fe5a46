// `kiosk-hud boards …` and `--board` as a user runs them: the built binary on fake machines
// (KIOSK_BOARD_ROOT standing for /), the one log line of the display commands, the profile a
// command ends up with, and the manual pages made from the same declarations as --help.
import Glibc
import KioskSys
import KioskTestSupport
import Testing

@Suite struct BoardsCommandTests {
    static let shipped = ["beagleplay-hdmi", "generic", "rk3566-accelerometer", "rpi-touch-display", "rpi-touch-display-2",
                          "rpi-zero2w-hdmi", "rpi3-waveshare35", "tablet-accelerometer", "x86-panel-pc"]

    func run(_ args: [String], on m: FakeBoardRoot? = nil) -> (status: Int32, out: String, err: String) {
        Proc.run(["timeout", "20", Proc.kioskHUD] + args, env: ["KIOSK_BOARD_ROOT": m?.root ?? "/nonexistent-board-root"])
    }

    @Test func listNamesEveryBuiltInProfile() {
        let r = run(["boards", "list"])
        #expect(r.status == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("# looked in: /nonexistent-board-root/etc/kiosk-hud/boards (none), ") == true)
        #expect(lines.dropFirst().map { String($0.prefix { $0 != " " }) } == Self.shipped)
        #expect(lines.contains { $0.hasPrefix("generic ") && $0.hasSuffix("built-in: no rules (the fallback)") })
        #expect(lines.contains { $0.hasPrefix("rpi-touch-display-2 ") && $0.contains("built-in: compatible raspberrypi,5-model-b|") })
    }

    @Test func detectSaysWhatMatchedAndWhyTheOthersDidNot() {
        let m = Machines.pi3Waveshare35()
        let r = run(["boards", "detect"], on: m)
        #expect(r.status == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.contains("  model: Raspberry Pi 3 Model B Plus Rev 1.3 (device-tree model)"))
        #expect(lines.contains("  DRM: card0 (vc4-drm: HDMI-A-1 disconnected); card1 (ili9486: SPI-1 connected [480x320])"))
        #expect(lines.contains("  input: \"ADS7846 Touchscreen\""))
        #expect(lines.contains("  yes rpi3-waveshare35 (built-in, 3 rules): compatible raspberrypi,3-model-b-plus, DRM driver ili9486, connector SPI-1 (connected)"))
        #expect(lines.contains {
            $0.hasPrefix("  no  rpi-touch-display (built-in, 3 rules): connector: none of DSI-1 (connectors: HDMI-A-1 (disconnected), SPI-1 (connected)); mode: none of 800x480")
        })
        #expect(lines.contains("   -  generic (built-in): no [match] rules (chosen by name only)"))
        #expect(lines.contains("Chosen: rpi3-waveshare35 (built-in): the only match (3 rules)"))
        // When it decided: on the display as it is now; at boot again once the display is there.
        #expect(lines.last?.hasPrefix("Decided: on the display as it is now; at boot, show and daemon start before the display may be there") == true,
                "\(lines.last ?? "")")
        let none = run(["boards", "detect", "--root", FakeBoardRoot().root])
        #expect(none.out.contains("Chosen: generic (built-in): no profile matches (8 checked)\n"))
        #expect(none.out.hasSuffix("Decided: from the board and the display as they are now (at boot: again each time a display appears)\n"), "\(none.out)")
    }

    /// Run on a Pi 4 before vc4 has loaded (as at boot): generic for now, and it says which
    /// profile waits for the display and that show and daemon detect again.
    @Test func detectBeforeTheDisplaySaysItDecidesAgain() {
        let m = FakeBoardRoot()
            .deviceTree(model: "Raspberry Pi 4 Model B Rev 1.4", compatible: ["raspberrypi,4-model-b", "brcm,bcm2711"])
            .card(0, driver: "simple-framebuffer", [("Unknown-1", "connected", ["800x480"])])
        let r = run(["boards", "detect"], on: m)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("Chosen: generic (built-in): no profile matches"), "\(r.out)")
        #expect(r.out.contains("Decided: for now: rpi-touch-display"), "\(r.out)")
        #expect(r.out.hasSuffix("show and daemon detect again each time a display appears, and take the profile that matches then\n"), "\(r.out)")
    }

    /// `show` on a Pi 5 with the Touch Display 2: one line says which profile and why, the
    /// profile's picture size is used, and the command line goes over it.
    @Test func showTakesTheDetectedProfileAndTheCommandLineOverIt() throws {
        let m = Machines.pi5TouchDisplay2()
        let dir = Proc.makeTempDir("kiosk-boards-show")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let offscreen = ["show", "--offscreen", dir, "--no-input", "--duration", "0", "--glyph-cache", "none", "--label", "Hi"]
        // Drawing offscreen is not about this board's display: the built-in generic, as before
        // there was detection, and no board line.
        var r = run(offscreen, on: m)
        #expect(r.status == 0, "\(r.err)")
        #expect(!r.err.contains("kiosk-hud: board ") && r.err.contains("kiosk-hud: output offscreen 800x480 "), "\(r.err)")
        let common = offscreen + ["--board", "auto"]
        r = run(common, on: m)
        #expect(r.status == 0, "\(r.err)")
        let boardLines = r.err.split(separator: "\n").map(String.init).filter { $0.hasPrefix("kiosk-hud: board ") }
        #expect(boardLines == ["kiosk-hud: board rpi-touch-display-2 (built-in): detected, the most specific match (3 rules): "
                                + "compatible raspberrypi,5-model-b, connector DSI-2 (connected), mode 720x1280"])
        #expect(r.err.contains("kiosk-hud: output offscreen 1280x720 "), "\(r.err)")
        r = run(common + ["--size", "640x360"], on: m)
        #expect(r.err.contains("kiosk-hud: output offscreen 640x360 "), "\(r.err)")
        r = run(offscreen + ["--board", "generic"], on: m)
        #expect(r.err.contains("kiosk-hud: board generic (built-in): --board\n") && r.err.contains("output offscreen 800x480 "), "\(r.err)")
        r = run(offscreen + ["--board", "pi9"], on: m)
        #expect(r.status == 64)
        #expect(r.err.hasPrefix("Error: --board pi9: no board profile of that name (there are: beagleplay-hdmi, generic, "), "\(r.err)")
        // A bad option is the first line, before any board line.
        r = run(common + ["--margin", "-4"], on: m)
        #expect(r.status == 64 && r.err.hasPrefix("Error: --margin -4: expected points from 0 to 1000\n"), "\(r.err)")
    }

    @Test func aProfileOfYourOwnThatIsNotValidIsSkippedSayingWhere() {
        let m = FakeBoardRoot().userProfile("bad", "name = \"bad\"\n[display]\nrotation = 45\n")
        let r = run(["show", "--offscreen", "-", "--no-input", "--duration", "0", "--glyph-cache", "none", "--board", "auto"], on: m)
        #expect(r.status == 0, "\(r.err)")
        let lines = r.err.split(separator: "\n").map(String.init)
        #expect(lines.first == "kiosk-hud: board profile \(m.root)/etc/kiosk-hud/boards/bad.toml skipped: "
                + "\(m.root)/etc/kiosk-hud/boards/bad.toml:3:12: [display] rotation = 45: expected 0, 90, 180 or 270")
        #expect(lines.dropFirst().first == "kiosk-hud: board generic (built-in): no profile matches (8 checked)")
        let named = run(["render", "--board", "bad", "--out", "/tmp/never.png"], on: m)
        #expect(named.status == 64 && named.err.hasPrefix("Error: \(m.root)/etc/kiosk-hud/boards/bad.toml:3:12: [display] rotation"), "\(named.err)")
    }

    /// `boards show` prints a whole profile that reads back as the same profile.
    @Test func showPrintsAProfileThatReadsBack() throws {
        let dir = Proc.makeTempDir("kiosk-boards-roundtrip")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let first = run(["boards", "show", "rpi3-waveshare35"])
        #expect(first.status == 0 && first.out.hasPrefix("# KioskHUD board profile rpi3-waveshare35 (built-in): every key"), "\(first.err)")
        #expect(first.out.contains("\nformat = \"rgb565\"\n") && first.out.contains("\nmatrix = \"0, -1.1041, 1.0612, 1.1337, 0, -0.0742\"\n"))
        try replaceFile(dir + "/copy.toml", with: Array(first.out.utf8))
        let again = run(["boards", "show", dir + "/copy.toml"])
        #expect(again.status == 0)
        #expect(again.out.split(separator: "\n").dropFirst() == first.out.split(separator: "\n").dropFirst())
        #expect(run(["render", "--board", dir + "/copy.toml", "--label", "x", "--out", dir + "/x.png"]).status == 0)
        // Without a name: the one detection takes.
        #expect(run(["boards", "show"], on: Machines.beaglePlayHDMI()).out.hasPrefix("# KioskHUD board profile beagleplay-hdmi (built-in)"))
    }

    /// touch and tilt take --board auto too, and say so.
    @Test func touchAndTiltDetectToo() {
        let m = Machines.radxaZero3()
        let tilt = run(["tilt", "--iio-root", m.root + "/nothing", "--duration", "0.1"], on: m)
        #expect(tilt.err.contains("kiosk-hud: board rk3566-accelerometer (built-in): detected"), "\(tilt.err)")
        let touch = run(["touch", "--input", "/nonexistent/event9", "--size", "800x480", "--count", "1", "--timeout", "0.1"], on: m)
        #expect(touch.err.contains("kiosk-hud: board rk3566-accelerometer (built-in): detected"), "\(touch.err)")
    }

    /// The manual pages: one per command, every option in it, groff reads them without a
    /// warning, and the top page lists each command.
    @Test(arguments: [[], ["render"], ["show"], ["daemon"], ["ctl"], ["run"], ["plymouth"], ["touch"], ["tilt"], ["boards"], ["doctor"], ["theme"], ["frame-cache"], ["overlay"]])
    func manPages(_ path: [String]) throws {
        let r = run(["--man"] + path)
        #expect(r.status == 0 && r.out.hasPrefix(".TH KIOSK\\-HUD"), "\(r.err)")
        let help = run(path + ["--help"]).out
        // Every option of the help is in the page.
        for line in help.split(separator: "\n") where line.hasPrefix("  --") {
            let name = line.dropFirst(2).prefix { $0 != " " && $0 != "," }
            #expect(r.out.contains(name.replacing("-", with: "\\-")), "\(name) is not in the page of \(path)")
        }
        let dir = Proc.makeTempDir("kiosk-man")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        try replaceFile(dir + "/page.1", with: Array(r.out.utf8))
        let groff = Proc.run(["groff", "-man", "-Tutf8", "-ww", "-z", dir + "/page.1"])
        #expect(groff.status == 0 && groff.err.isEmpty, "groff: \(groff.err)")
        if let command = path.first {
            #expect(run(["--help"]).out.contains("  " + command + " "), "the top help does not list \(command)")
        }
    }
}
