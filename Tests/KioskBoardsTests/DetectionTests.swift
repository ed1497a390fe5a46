// `--board auto` against fake machines (a temp directory standing for /, laid out as the kernel
// lays out /proc/device-tree and /sys): each shipped board is recognised for the right reason,
// near misses fall back to generic saying why, and profiles that both match resolve by
// specificity, then by where they come from, then by name — the same way every time.
import KioskBoards
import KioskTestSupport
import KioskSettings
import Testing

@Suite struct DetectionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var machine: @Sendable () -> FakeBoardRoot
        var profile: String
        /// Fragments of the log line's reason.
        var why: [String]
        var testDescription: String { profile }
    }

    static let boards: [Case] = [
        Case(machine: Machines.pi4TouchDisplay, profile: "rpi-touch-display",
             why: ["compatible raspberrypi,4-model-b", "connector DSI-1 (connected)", "mode 800x480"]),
        Case(machine: Machines.pi5TouchDisplay2, profile: "rpi-touch-display-2",
             why: ["compatible raspberrypi,5-model-b", "connector DSI-2 (connected)", "mode 720x1280"]),
        Case(machine: { Machines.zero2wHDMI() }, profile: "rpi-zero2w-hdmi",
             why: ["compatible raspberrypi,model-zero-2-w", "connector HDMI-A-1 (connected)"]),
        Case(machine: Machines.pi3Waveshare35, profile: "rpi3-waveshare35",
             why: ["compatible raspberrypi,3-model-b-plus", "DRM driver ili9486", "connector SPI-1"]),
        Case(machine: { Machines.beaglePlayHDMI() }, profile: "beagleplay-hdmi",
             why: ["compatible beagle,am625-beagleplay", "DRM driver tidss", "connector HDMI-A-1 (connected)"]),
        Case(machine: { Machines.radxaZero3() }, profile: "rk3566-accelerometer", why: ["compatible rockchip,rk3566", "IIO device \"mpu6050\""]),
        Case(machine: { Machines.radxaZero3("lis3dh") }, profile: "rk3566-accelerometer", why: ["IIO device \"lis3dh\""]),
        Case(machine: Machines.x86PanelPC, profile: "x86-panel-pc", why: ["DRM driver i915", "input \"eGalax Inc. USB TouchController\""]),
        Case(machine: Machines.tablet, profile: "tablet-accelerometer", why: ["DRM driver i915", "IIO device \"mxc4005\""]),
    ]

    @Test(arguments: boards)
    func eachBoardGetsItsProfileAndSaysWhy(_ c: Case) throws {
        let m = c.machine()
        let s = try m.select()
        #expect(s.name == c.profile, "\(s.line)")
        #expect(s.source == .builtIn)
        #expect(s.line.hasPrefix("board \(c.profile) (built-in): detected, the most specific match ("), "\(s.line)")
        for w in c.why { #expect(s.line.contains(w), "\(s.line) should say \(w)") }
        let fromFile = try BoardCatalog.system(root: m.root, executable: nil).entry(named: c.profile)!.profile()
        #expect(s.profile == fromFile)
        // The explaining run agrees, and says it was the only match.
        let d = m.detect(explain: true)
        #expect(d.chosen?.name == c.profile)
        #expect(d.reason.hasPrefix("the only match"), "\(d.reason)")
        #expect(d.results.filter { $0.outcome == .failed }.allSatisfy { !$0.why.isEmpty })
    }

    /// Near misses: the same boards without the part that makes them the profile's.
    @Test func nearMissesFallBackToGenericAndSayWhy() throws {
        let unplugged = Machines.zero2wHDMI(status: "disconnected")
        let s = try unplugged.select()
        #expect(s.name == "generic" && s.profile == .generic)
        // An unplugged HDMI may be plugged in: the profile waits for the display.
        #expect(s.line == "board generic (built-in): no profile matches (8 checked); rpi-zero2w-hdmi waits for the display (its DRM driver, connector or mode): detected again when one appears")
        let zero = unplugged.detect(explain: true).results.first { $0.entry.name == "rpi-zero2w-hdmi" }!
        #expect(zero.outcome == .failed)
        #expect(zero.why == "connector: none of HDMI-A-1 (connectors: Composite-1 (unknown), HDMI-A-1 (disconnected))")

        // A BeaglePlay on a panel at its OLDI connector (tidss too), nothing on its HDMI.
        let oldi = Machines.beaglePlayHDMI(status: "disconnected", oldi: ["1280x800"])
        #expect(try oldi.select().name == "generic")
        let play = oldi.detect(explain: true).results.first { $0.entry.name == "beagleplay-hdmi" }!
        #expect(play.why == "connector: none of HDMI-A-1 (connectors: HDMI-A-1 (disconnected), LVDS-1 (connected))")

        // A Pi 4 with the Touch Display 2: the 7" profile's mode rule fails, the portrait one matches.
        let pi4td2 = FakeBoardRoot().deviceTree(model: "Raspberry Pi 4 Model B Rev 1.5", compatible: ["raspberrypi,4-model-b", "brcm,bcm2711"])
            .card(1, driver: "vc4-drm", [("DSI-1", "connected", ["720x1280"])])
        #expect(try pi4td2.select().name == "rpi-touch-display-2")

        // A PC with a plain USB mouse, an empty machine, a Pi 3 whose SPI panel runs on fbtft (no DRM card).
        #expect(try FakeBoardRoot().dmi(product: "PPC-1561").card(0, driver: "i915").input("Logitech USB Optical Mouse").select().name == "generic")
        #expect(try FakeBoardRoot().select().line == "board generic (built-in): no profile matches (8 checked)")
        let fbtft = FakeBoardRoot().deviceTree(model: "Raspberry Pi 3 Model B Rev 1.2", compatible: ["raspberrypi,3-model-b"])
            .card(0, driver: "vc4-drm", [("HDMI-A-1", "disconnected", [])]).input("ADS7846 Touchscreen")
        let w = fbtft.detect(explain: true).results.first { $0.entry.name == "rpi3-waveshare35" }!
        #expect(w.why == "drm_driver: none of ili9486, panel-mipi-dbi-spi (DRM drivers: vc4-drm); connector: none of SPI-1 (connectors: HDMI-A-1 (disconnected))")
    }

    /// Two profiles that both match: the one with more rules wins, whichever directory it is in;
    /// equally specific ones go by where they come from (your own first), then by name.
    @Test func specificityThenSourceThenName() throws {
        let m = Machines.pi4TouchDisplay()
        // Fewer rules (1 against the built-in's 3): the built-in wins, though yours comes first otherwise.
        m.userProfile("any-pi4", "name = \"any-pi4\"\n[match]\ncompatible = [\"raspberrypi,4-model-b\"]\n")
        #expect(try m.select().name == "rpi-touch-display")
        // Equally specific: your own before the built-in.
        m.userProfile("my-pi4", """
            name = "my-pi4"
            [match]
            compatible = ["raspberrypi,4-model-b"]
            connector = ["DSI-1"]
            input = ["ft5x06"]
            [display]
            rotation = 180
            """)
        var s = try m.select()
        #expect(s.name == "my-pi4" && s.profile.display.rotation == .half)
        #expect(s.source == BoardSource(kind: .user, path: m.root + "/etc/kiosk-hud/boards/my-pi4.toml"))
        let d = m.detect(explain: true)
        #expect(d.reason == "the most specific of 3 matches (3 rules); tied with rpi-touch-display: user profiles come before installed before built-in, then by name")
        // Equally specific and from the same place: by name.
        m.userProfile("a-pi4", "name = \"a-pi4\"\n[match]\ncompatible = [\"raspberrypi,4-model-b\"]\nmodel = [\"Pi 4\"]\nmode = [\"800x480\"]\n")
        s = try m.select()
        #expect(s.name == "a-pi4")
        // More rules win over all of them.
        m.userProfile("z-pi4", "name = \"z-pi4\"\n[match]\ncompatible = [\"raspberrypi,4-model-b\"]\nmodel = [\"Pi 4\"]\nmode = [\"800x480\"]\ninput = [\"ft5x06\"]\n")
        #expect(try m.select().name == "z-pi4")
        // The same every time.
        let names = (0..<5).map { _ in (try? m.select().name) ?? "" }
        #expect(Set(names) == ["z-pi4"])
        #expect(m.detect(explain: true).results.map(\.entry.name) == m.detect(explain: true).results.map(\.entry.name))
    }

    /// Your own profile of a shipped name replaces it; an installed copy equal to the built-in
    /// is taken as such (no parse); a profile that is not valid is skipped with its file:line,
    /// and naming it is an error.
    @Test func lookupOrderShadowingAndBadProfiles() throws {
        let m = Machines.pi4TouchDisplay()
        let installed = m.root + "/usr/share/kiosk-hud/boards"
        for b in ShippedBoards.all { m.file("/usr/share/kiosk-hud/boards/\(b.name).toml", b.text) }
        m.userProfile("rpi-touch-display", try Files.read("Boards/rpi-touch-display.toml").replacing("mode = \"800x480\"\n", with: "mode = \"800x480\"\nrotation = 180\n"))
        m.userProfile("broken", "name = \"broken\"\n[match]\ncompatible = [\"raspberrypi,4-model-b\"]\nconnector = \"DSI-1\"\n")
        let catalog = BoardCatalog.system(root: m.root, executable: m.root + "/usr/bin/kiosk-hud")
        #expect(catalog.directories.map(\.path) == [m.root + "/etc/kiosk-hud/boards", installed])
        let e = catalog.entry(named: "rpi-touch-display")!
        #expect(e.source.kind == .user)
        #expect(e.hides == [BoardSource(kind: .installed, path: installed + "/rpi-touch-display.toml"), .builtIn])
        #expect(catalog.entry(named: "x86-panel-pc")!.source == BoardSource(kind: .installed, path: installed + "/x86-panel-pc.toml"))
        #expect(catalog.entry(named: "broken")!.problem == "\(m.root)/etc/kiosk-hud/boards/broken.toml:4:13: [match] connector = \"DSI-1\": expected a list of connector names (at most 16)")

        let s = try BoardSelection.select(.auto, catalog: catalog, facts: m.facts)
        #expect(s.name == "rpi-touch-display" && s.profile.display.rotation == .half)
        #expect(s.notes == ["board profile \(m.root)/etc/kiosk-hud/boards/broken.toml skipped: \(catalog.entry(named: "broken")!.problem!)"])
        #expect(s.files == [m.root + "/etc/kiosk-hud/boards/rpi-touch-display.toml", m.root + "/etc/kiosk-hud/boards", installed])
        #expect(throws: SettingsError.self) { try BoardSelection.select(.name("broken"), catalog: catalog, facts: m.facts) }
        let unknown = caught(SettingsError.self) { _ = try BoardSelection.select(.name("pi9"), catalog: catalog, facts: m.facts) }
        #expect(unknown?.description.hasPrefix("--board pi9: no board profile of that name (there are: beagleplay-hdmi, broken, generic,") == true)
        // Your own generic is the fallback.
        let plain = FakeBoardRoot().userProfile("generic", "name = \"generic\"\n[style]\ntheme = \"dark\"\n")
        let g = try plain.select()
        #expect(g.name == "generic" && g.profile.theme == "dark" && g.source?.kind == .user)
    }

    @Test func requests() {
        #expect(BoardSelection.Request("auto") == .auto)
        #expect(BoardSelection.Request("rpi-touch-display") == .name("rpi-touch-display"))
        #expect(BoardSelection.Request("board.toml") == .file("board.toml"))
        #expect(BoardSelection.Request("./auto") == .file("./auto"))
        #expect(BoardSelection.Request("/etc/kiosk-hud/board.toml") == .file("/etc/kiosk-hud/board.toml"))
    }

    /// What detection reads: only what the rules it gets to ask for (a machine whose files are
    /// unreadable or odd — a DMI name of blanks, a model without its NUL — is read leniently).
    @Test func factsAsTheKernelWritesThem() {
        let m = FakeBoardRoot().deviceTree(model: "Raspberry Pi 4 Model B Rev 1.4", compatible: ["raspberrypi,4-model-b", "brcm,bcm2711"])
            .card(1, driver: "vc4-drm", [("DSI-1", "connected", ["800x480", "800x480"])]).card(0, driver: nil)
        let f = m.facts
        #expect(f.compatible == ["raspberrypi,4-model-b", "brcm,bcm2711"])
        #expect(f.model?.text == "Raspberry Pi 4 Model B Rev 1.4" && f.model?.source == .deviceTree)
        #expect(f.cards.map(\.name) == ["card0", "card1"] && f.cards.map(\.driver) == [nil, "vc4-drm"])
        #expect(f.modes(of: f.connectors[0]) == ["800x480"])
        let x86 = FakeBoardRoot().dmi(product: "  \n")
        #expect(x86.facts.model == nil)
    }
}
