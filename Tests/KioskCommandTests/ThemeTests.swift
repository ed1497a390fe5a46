// `kiosk-hud theme` as a user runs it, on a made-up system (--root): the boot's profile made
// yours with the logo, underlay and colours set, read back by the profile parser and by
// `render`; a bad value or picture refused with nothing written; the initramfs built again
// (a stand-in update-initramfs) unless --no-initramfs.
import Glibc
import KioskSys
import KioskTestSupport
import Testing

@Suite struct ThemeTests {
    /// A Pi 4 with the 7" panel (the shipped rpi-touch-display is detected), a picture to use,
    /// and a directory for what the test writes.
    final class Rig {
        let m = Machines.pi4TouchDisplay()
        let dir = Proc.makeTempDir("kiosk-theme-rig")
        var root: String { m.root }
        var profile: String { root + "/etc/kiosk-hud/boards/rpi-touch-display.toml" }
        var logo: String { dir + "/Company Logo.png" }

        init() {
            let r = Proc.run([Proc.kioskHUD, "render", "--size", "120x40", "--mode", "text", "--label", "ACME", "--out", logo])
            precondition(r.status == 0, r.err)
        }
        deinit { _ = Proc.run(["rm", "-rf", dir]) }

        func theme(_ args: [String], env: [String: String] = [:]) -> (status: Int32, out: String, err: String) {
            Proc.run(["timeout", "60", Proc.kioskHUD, "theme", "--root", root] + args, env: env)
        }
    }

    @Test func themeWritesAProfileTheParserAndRenderAccept() throws {
        let rig = Rig()
        let r = rig.theme(["--logo", rig.logo, "--logo-placement", "alone", "--underlay-color", "#102030", "--content-color", "#FFFFFF", "--no-initramfs"])
        #expect(r.status == 0, "\(r.err)")
        let text = try #require(Proc.readFile(rig.profile))
        // The shipped profile's text, comments and [match] kept, the keys set in it.
        #expect(text.contains("[match]") && text.contains("connector = [\"DSI-1\"]"), "\(text)")
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("#") }.count > 5, "the shipped profile's comments are kept")
        for line in ["logo = \"/etc/kiosk-hud/pictures/Company Logo.png\"", "logo_placement = \"alone\"", "underlay_color = \"#102030\"", "content_color = \"#FFFFFF\""] {
            #expect(text.split(separator: "\n").contains { $0 == line }, "no line \(line) in\n\(text)")
        }
        // The picture is copied where the initramfs hook finds it.
        #expect(Proc.readBytes(rig.root + "/etc/kiosk-hud/pictures/Company Logo.png") == Proc.readBytes(rig.logo))
        #expect(r.err.contains("kiosk-hud: \(rig.profile) (made from built-in): "), "\(r.err)")
        // Read back as a profile, and still the one detection takes (yours before the built-in).
        let shown = Proc.run([Proc.kioskHUD, "boards", "show", rig.profile])
        #expect(shown.status == 0 && shown.out.contains("content_color = \"#FFFFFF\""), "\(shown.err)")
        let detect = Proc.run([Proc.kioskHUD, "boards", "detect"], env: ["KIOSK_BOARD_ROOT": rig.root])
        #expect(detect.out.contains("Chosen: rpi-touch-display (\(rig.profile)): "), "\(detect.out)")
        // render draws it (the logo from inside the root).
        let png = rig.dir + "/frame.png"
        let render = Proc.run([Proc.kioskHUD, "render", "--board", rig.profile, "--logo", rig.root + "/etc/kiosk-hud/pictures/Company Logo.png", "--out", png])
        #expect(render.status == 0, "\(render.err)")
        // --show says what is in effect, and where from.
        let show = rig.theme(["--show"])
        #expect(show.status == 0)
        #expect(show.out.contains("[style] logo = \"/etc/kiosk-hud/pictures/Company Logo.png\" (the profile)\n"), "\(show.out)")
        #expect(show.out.contains("[display] underlay_color = \"#102030\" (the profile)\n"), "\(show.out)")
    }

    @Test func theUnderlayPictureIsAProfileKey() throws {
        // The underlay picture (the kernel's fullscreen_logo at the screen's size) is
        // [display] underlay_image: theme copies it and writes the key, as it does the logo.
        let rig = Rig()
        let r = rig.theme(["--underlay", rig.logo, "--underlay-fit", "center", "--no-initramfs"])
        #expect(r.status == 0, "\(r.err)")
        let text = try #require(Proc.readFile(rig.profile))
        for line in ["underlay_image = \"/etc/kiosk-hud/pictures/Company Logo.png\"", "underlay_fit = \"center\""] {
            #expect(text.split(separator: "\n").contains { $0 == line }, "no line \(line) in\n\(text)")
        }
        #expect(Proc.readBytes(rig.root + "/etc/kiosk-hud/pictures/Company Logo.png") == Proc.readBytes(rig.logo))
        let show = rig.theme(["--show"])
        #expect(show.out.contains("[display] underlay_image = \"/etc/kiosk-hud/pictures/Company Logo.png\" (the profile)\n"), "\(show.out)")
    }

    @Test func aSecondThemeEditsYourProfileInPlace() throws {
        let rig = Rig()
        #expect(rig.theme(["--logo", rig.logo, "--no-initramfs"]).status == 0)
        let r = rig.theme(["--theme", "dark", "--bezel-color", "#202020E6", "--no-initramfs", "--preview", rig.dir + "/preview.png"])
        #expect(r.status == 0, "\(r.err)")
        #expect(!r.err.contains("made from"), "\(r.err)")
        let text = try #require(Proc.readFile(rig.profile))
        for line in ["logo = \"/etc/kiosk-hud/pictures/Company Logo.png\"", "theme = \"dark\"", "bezel_color = \"#202020E6\""] {
            #expect(text.split(separator: "\n").contains { $0 == line }, "no line \(line) in\n\(text)")
        }
        let png = try #require(Proc.readBytes(rig.dir + "/preview.png"))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "--preview writes a PNG")
    }

    @Test func badValuesAreRefusedAndNothingIsWritten() {
        let rig = Rig()
        var r = rig.theme(["--content-color", "red", "--logo", rig.logo])
        #expect(r.status == 64)
        #expect(r.err.hasPrefix("Error: --content-color red: expected a colour #RRGGBB or #RRGGBBAA\n"), "\(r.err)")
        let notPNG = rig.dir + "/logo.png"
        _ = Proc.run(["sh", "-c", "echo 'not a picture' > '\(notPNG)'"])
        r = rig.theme(["--logo", notPNG, "--underlay-color", "#000000"])
        #expect(r.status == 64)
        #expect(r.err.hasPrefix("Error: --logo \(notPNG): "), "\(r.err)")
        r = rig.theme(["--logo", rig.dir + "/missing.png"])
        #expect(r.status == 64 && r.err.hasPrefix("Error: --logo \(rig.dir)/missing.png: "), "\(r.err)")
        r = rig.theme(["--logo-size", "-3"])
        #expect(r.status == 64, "\(r.err)")
        r = rig.theme([])
        #expect(r.status == 64 && r.err.hasPrefix("Error: nothing to set: "), "\(r.err)")
        #expect(!Proc.exists(rig.profile), "nothing written")
        #expect(!Proc.exists(rig.root + "/etc/kiosk-hud/pictures"), "no picture copied")
        // A profile of yours that is there already stays as it was.
        #expect(rig.theme(["--underlay-color", "#101010", "--no-initramfs"]).status == 0)
        let before = Proc.readFile(rig.profile)
        #expect(rig.theme(["--underlay-color", "#1010"]).status == 64)
        #expect(Proc.readFile(rig.profile) == before)
    }

    @Test func theInitramfsIsBuiltAgainUnlessNoInitramfs() throws {
        let rig = Rig()
        let calls = rig.dir + "/calls"
        let stand = rig.dir + "/update-initramfs"
        _ = Proc.run(["sh", "-c", "printf '#!/bin/sh\\necho \"$*\" >> \"%s\"\\n' '\(calls)' > '\(stand)' && chmod +x '\(stand)'"])
        var r = rig.theme(["--underlay-color", "#223344", "--no-initramfs"], env: ["KIOSK_HUD_UPDATE_INITRAMFS": stand])
        #expect(r.status == 0, "\(r.err)")
        #expect(!Proc.exists(calls), "--no-initramfs runs nothing")
        r = rig.theme(["--underlay-color", "#223355"], env: ["KIOSK_HUD_UPDATE_INITRAMFS": stand])
        #expect(r.status == 0, "\(r.err)")
        #expect(Proc.readFile(calls) == "-u\n")
        // Under another root, this machine's update-initramfs is not run: a line says so.
        r = rig.theme(["--underlay-color", "#223366"])
        #expect(r.status == 0 && r.err.contains("is not built from here: run update-initramfs -u in it"), "\(r.err)")
        // One that fails: the profile is written, exit 1.
        _ = Proc.run(["sh", "-c", "printf '#!/bin/sh\\nexit 3\\n' > '\(stand)'"])
        r = rig.theme(["--underlay-color", "#223377"], env: ["KIOSK_HUD_UPDATE_INITRAMFS": stand])
        #expect(r.status == 1 && r.err.contains("-u failed (status 3): the profile is written"), "\(r.err)")
        #expect(Proc.readFile(rig.profile)?.contains("underlay_color = \"#223377\"") == true)
    }

    /// An option in KIOSK_HUD_ARGS beats the profile: theme says so.
    @Test func anOptionInKioskHUDArgsIsNamed() {
        let rig = Rig()
        rig.m.file("/etc/default/kiosk-hud", "KIOSK_HUD_ARGS=\"--mode bar --underlay-color '#FF0000'\"\n")
        let r = rig.theme(["--underlay-color", "#000000", "--no-initramfs"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("note: KIOSK_HUD_ARGS in /etc/default/kiosk-hud gives --underlay-color, which beats the profile's [display] underlay_color"), "\(r.err)")
        let show = rig.theme(["--show"])
        #expect(show.out.contains("[display] underlay_color = \"#FF0000\" (KIOSK_HUD_ARGS)"), "\(show.out)")
    }

    /// --theme sets both colours; a colour the file gives after it is set too, so that the file
    /// keeps its own text (its comments) and reads back as set.
    @Test func aThemeOverColoursTheFileGivesKeepsTheFile() throws {
        let rig = Rig()
        rig.m.userProfile("rpi-touch-display", "# my panel\nname = \"rpi-touch-display\"\n[match]\ncompatible = [\"raspberrypi,4-model-b\"]\n[style]\ncontent_color = \"#FF0000\"\n")
        let r = rig.theme(["--theme", "dark", "--no-initramfs"])
        #expect(r.status == 0 && !r.err.contains("written whole") && !r.err.contains("made from"), "\(r.err)")
        let text = try #require(Proc.readFile(rig.profile))
        #expect(text.hasPrefix("# my panel\n") && text.contains("theme = \"dark\"\n") && !text.contains("#FF0000"), "\(text)")
        let dark = rig.dir + "/dark.toml"
        try replaceFile(dark, with: Array("name = \"x\"\n[style]\ntheme = \"dark\"\n".utf8))
        func colours(_ file: String) -> [Substring] {
            Proc.run([Proc.kioskHUD, "boards", "show", file]).out.split(separator: "\n").filter { $0.hasPrefix("content_color =") || $0.hasPrefix("bezel_color =") }
        }
        #expect(colours(rig.profile) == colours(dark) && colours(dark).count == 2)
    }
}
