// The .deb (Tools/make-deb.sh): built around the kiosk-hud these tests run, listed, installed
// with dpkg into a throwaway root (its own dpkg database, maintainer scripts run chrootless with
// DPKG_ROOT), run from there, removed (the configuration stays, as Debian keeps it) and purged
// (nothing left); its copyright file read as Debian's machine-readable format and its changelog
// as a Debian changelog, and lintian's word on both when it is installed. The boot under QEMU
// with the package installed is the boot test's (Tests/VM).
import Glibc
import KioskSys
import KioskTestSupport
import Testing

@Suite(.serialized) struct DebPackageTests {
    /// Builds the package around the tests' kiosk-hud (gzip: xz takes 20 s on a debug binary).
    /// `env`: the maintainer's name and address (DEBFULLNAME, DEBEMAIL) for lintian's sake.
    static func build(into dir: String, version: String = "1.2.3", env: [String: String] = [:]) -> String? {
        let r = Proc.run([Proc.root + "/Tools/make-deb.sh", "--binary", Proc.kioskHUD, "--version", version, "--out", dir, "--compress", "gzip"], env: env)
        #expect(r.status == 0, "make-deb.sh: \(r.err)")
        let deb = String(r.out.split(separator: "\n").last ?? "")
        #expect(deb.hasSuffix("/kiosk-hud_\(version)_amd64.deb") || deb.hasSuffix("/kiosk-hud_\(version)_arm64.deb"), "\(r.out)")
        return r.status == 0 ? deb : nil
    }

    @Test func builtListedInstalledRunRemovedAndPurged() throws {
        let root = try DpkgRoot()
        guard let deb = Self.build(into: root.dir) else { return }

        // What it holds, owned by root.
        let info = Proc.run(["dpkg-deb", "-f", deb, "Package", "Depends", "Recommends", "Version"])
        #expect(info.out == "Package: kiosk-hud\nDepends: libc6 (>= \(DpkgRoot.glibcNeeded(by: Proc.kioskHUD))), libdrm2, libinput10, libudev1, libfreetype6, libpng16-16, libsystemd0, "
                + "fonts-dejavu-core\nRecommends: libwayland-client0\nVersion: 1.2.3\n")
        let listing = Proc.run(["dpkg-deb", "-c", deb])
        #expect(listing.status == 0)
        let entries = listing.out.split(separator: "\n").map { line -> (mode: String, owner: String, path: String) in
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            return (String(f[0]), String(f[1]), String(f.last!))
        }
        #expect(entries.allSatisfy { $0.owner == "root/root" })
        let files = Set(entries.filter { !$0.mode.hasPrefix("d") }.map { String($0.path.dropFirst()) })
        let boards = ["beagleplay-hdmi", "generic", "rk3566-accelerometer", "rpi-touch-display", "rpi-touch-display-2", "rpi-zero2w-hdmi",
                      "rpi3-waveshare35", "tablet-accelerometer", "x86-panel-pc"]
        let expected: Set<String> = Set(["/usr/bin/kiosk-hud", "/etc/default/kiosk-hud",
                                         "/usr/share/kiosk-hud/boards/README.md", "/usr/share/doc/kiosk-hud/README.md",
                                         "/usr/share/doc/kiosk-hud/boot-splash.md", "/usr/share/doc/kiosk-hud/protocol.md", "/usr/share/doc/kiosk-hud/plymouth.md",
                                         "/usr/share/doc/kiosk-hud/rauc.md", "/usr/share/doc/kiosk-hud/initramfs.md", "/usr/share/doc/kiosk-hud/updates.md",
                                         "/usr/share/initramfs-tools/hooks/kiosk-hud", "/usr/share/initramfs-tools/scripts/init-top/kiosk-hud",
                                         "/usr/share/initramfs-tools/scripts/init-bottom/kiosk-hud",
                                         "/usr/share/doc/kiosk-hud/examples/kiosk-app.service", "/usr/share/doc/kiosk-hud/examples/kiosk-hud.default",
                                         "/usr/share/doc/kiosk-hud/examples/kiosk-hud.service.d/swupdate.conf",
                                         "/usr/share/doc/kiosk-hud/examples/kiosk-hud.service.d/rauc.conf",
                                         "/usr/share/doc/kiosk-hud/examples/kiosk-hud-quit.service.d/after-network.conf",
                                         "/lib/systemd/system/display-manager.service.d/kiosk-hud.conf",
                                         "/usr/share/doc/kiosk-hud/copyright", "/usr/share/doc/kiosk-hud/changelog.gz",
                                         "/usr/share/lintian/overrides/kiosk-hud"]
            + ["kiosk-hud.socket", "kiosk-hud.service", "kiosk-hud-progress.service", "kiosk-hud-quit.service", "kiosk-hud-poweroff.service",
               "kiosk-hud-reboot.service", "kiosk-hud-halt.service", "kiosk-hud-kexec.service"].map { "/lib/systemd/system/" + $0 }
            + boards.map { "/usr/share/kiosk-hud/boards/\($0).toml" }
            + ["", "-render", "-show", "-daemon", "-ctl", "-run", "-plymouth", "-touch", "-tilt", "-boards", "-doctor", "-theme", "-frame-cache", "-overlay"].map { "/usr/share/man/man1/kiosk-hud\($0).1.gz" })
        #expect(files == expected)
        #expect(entries.first { $0.path == "./usr/bin/kiosk-hud" }?.mode == "-rwxr-xr-x")
        // Stripped, its debug information beside the .deb with the debug link naming it.
        let extracted = root.dir + "/extracted"
        #expect(Proc.run(["dpkg-deb", "-x", deb, extracted]).status == 0)
        let sections = Proc.run(["readelf", "-S", "-W", extracted + "/usr/bin/kiosk-hud"]).out
        #expect(!sections.contains(".symtab") && sections.contains(".gnu_debuglink"))
        let debug = String(deb.dropLast(".deb".count)) + ".debug"
        #expect(Proc.run(["readelf", "-S", "-W", debug]).out.contains(".symtab"), "\(debug)")
        #expect(Proc.run(["readelf", "--string-dump=.gnu_debuglink", extracted + "/usr/bin/kiosk-hud"]).out
                    .contains(String(debug.split(separator: "/").last!)))
        #expect(entries.contains { $0.path == "./etc/kiosk-hud/boards/" && $0.mode.hasPrefix("d") })

        // Installed: the splash enabled as deb-systemd-helper does it (the daemon and its follower
        // wanted by sysinit.target, the socket by sockets.target), the units pointing at the binary.
        let before = root.tree()
        let install = root.dpkg(["-i", deb])
        #expect(install.status == 0, "\(install.err)")
        #expect(install.err.isEmpty, "\(install.err)")
        let r = root.root
        #expect(readLink(r + "/etc/systemd/system/sockets.target.wants/kiosk-hud.socket") == "/lib/systemd/system/kiosk-hud.socket")
        #expect(fileExists(r + "/var/lib/systemd/deb-systemd-helper-enabled/sockets.target.wants/kiosk-hud.socket"))
        for u in ["kiosk-hud.service", "kiosk-hud-progress.service"] {
            #expect(readLink(r + "/etc/systemd/system/sysinit.target.wants/" + u) == "/lib/systemd/system/" + u)
        }
        // The shutdown screens, wanted by the targets that end a boot.
        for (target, u) in [("poweroff", "poweroff"), ("reboot", "reboot"), ("halt", "halt"), ("kexec", "kexec")] {
            #expect(readLink(r + "/etc/systemd/system/\(target).target.wants/kiosk-hud-\(u).service") == "/lib/systemd/system/kiosk-hud-\(u).service")
        }
        let service = String(decoding: try readFileBytes(r + "/lib/systemd/system/kiosk-hud.service", limit: 1 << 16), as: UTF8.self)
        #expect(service.contains("\nExecStart=/usr/bin/kiosk-hud daemon $KIOSK_HUD_PLYMOUTH $KIOSK_HUD_ARGS\n"))
        #expect(Proc.run(["dpkg-query", "--admindir=" + r + "/var/lib/dpkg", "-W", "-f", "${Status} ${Version}", "kiosk-hud"]).out
                == "install ok installed 1.2.3")
        // No Plymouth: the plymouth command is kiosk-hud (DebPackageTests.thePlymouthCommand… for the rest).
        #expect(readLink(r + "/usr/bin/plymouth") == "kiosk-hud")
        // The display manager after the handover, and the examples as dist/ has them.
        #expect(Proc.readFile(r + "/lib/systemd/system/display-manager.service.d/kiosk-hud.conf")
                == Proc.readFile(Proc.root + "/dist/systemd/display-manager.service.d/kiosk-hud.conf"))
        #expect(Proc.readFile(r + "/usr/share/doc/kiosk-hud/examples/kiosk-hud.service.d/swupdate.conf")
                == Proc.readFile(Proc.root + "/dist/systemd/examples/kiosk-hud.service.d/swupdate.conf"))

        // The installed binary finds the installed profiles, and detects from them.
        let m = Machines.pi4TouchDisplay()
        let detect = Proc.run([r + "/usr/bin/kiosk-hud", "boards", "detect"], env: ["KIOSK_BOARD_ROOT": m.root])
        #expect(detect.status == 0, "\(detect.err)")
        #expect(detect.out.contains("Chosen: rpi-touch-display (\(r)/usr/share/kiosk-hud/boards/rpi-touch-display.toml): the only match (3 rules)\n"),
                "\(detect.out)")
        let list = Proc.run([r + "/usr/bin/kiosk-hud", "boards", "list"], env: ["KIOSK_BOARD_ROOT": m.root])
        #expect(list.out.hasPrefix("# looked in: \(m.root)/etc/kiosk-hud/boards (none), \(r)/usr/share/kiosk-hud/boards, built-in\n"))
        #expect(list.out.contains("rpi3-waveshare35      \(r)/usr/share/kiosk-hud/boards/rpi3-waveshare35.toml (hides built-in): "))
        let man = Proc.run(["sh", "-c", "gzip -dc '\(r)/usr/share/man/man1/kiosk-hud-boards.1.gz' | groff -man -Tutf8 -ww -z"])
        #expect(man.status == 0 && man.err.isEmpty, "\(man.err)")

        // Removed: the program gone, the configuration kept (the options, the socket's links) and the socket masked.
        try makeDirectories(r + "/var/cache/kiosk-hud")
        try replaceFile(r + "/var/cache/kiosk-hud/frame-0123456789abcdef.bin", with: [1, 2, 3])
        let remove = root.dpkg(["--remove", "kiosk-hud"])
        #expect(remove.status == 0 && remove.err.isEmpty, "\(remove.err)")
        #expect(!fileExists(r + "/usr/bin/kiosk-hud") && !fileExists(r + "/usr/share/kiosk-hud") && !fileExists(r + "/etc/kiosk-hud"))
        #expect(readLink(r + "/usr/bin/plymouth") == nil, "the plymouth link outlived the package")
        #expect(fileExists(r + "/etc/default/kiosk-hud"))
        for u in ["kiosk-hud.socket", "kiosk-hud.service", "kiosk-hud-progress.service", "kiosk-hud-poweroff.service", "kiosk-hud-reboot.service",
                  "kiosk-hud-halt.service", "kiosk-hud-kexec.service"] {
            #expect(readLink(r + "/etc/systemd/system/" + u) == "/dev/null", "\(u) not masked")
        }

        // Purged: nothing of it is left, not even the caches.
        let purge = root.dpkg(["--purge", "kiosk-hud"])
        #expect(purge.status == 0 && purge.err.isEmpty, "\(purge.err)")
        #expect(root.tree() == before)
        #expect(Proc.run(["dpkg-query", "--admindir=" + r + "/var/lib/dpkg", "-W", "kiosk-hud"]).status != 0)
    }

    /// A stand-in for Debian's plymouth package: its client at `client` (/usr/bin/plymouth as
    /// Debian 12 and 13 ship it, or /bin/plymouth as an older one on a root whose /bin is its own).
    static func fakePlymouth(into dir: String, client: String = "/usr/bin/plymouth") throws -> String {
        let stage = dir + "/fake-plymouth"
        try makeDirectories(stage + "/DEBIAN")
        try makeDirectories(stage + String(client[..<client.lastIndex(of: "/")!]))
        try replaceFile(stage + client, with: Array("#!/bin/sh\necho Plymouth\n".utf8), mode: 0o755)
        try replaceFile(stage + "/DEBIAN/control", with: Array("""
            Package: plymouth
            Version: 22.02.122-3
            Architecture: all
            Maintainer: test <test@example.org>
            Description: stand-in for the test

            """.utf8))
        let deb = dir + "/plymouth.deb"
        let r = Proc.run(["dpkg-deb", "--root-owner-group", "--build", stage, deb])
        #expect(r.status == 0, "\(r.err)")
        return deb
    }

    /// The plymouth command in the real root (dist/debian/postinst): /usr/bin/plymouth a link to
    /// kiosk-hud while Plymouth is not installed; Plymouth installed later takes the path with no
    /// error (dpkg overwrites the file no package owns) and the link is not made again while it
    /// stays; Plymouth removed, the link comes back (the package's file trigger on the client's
    /// paths); an older Plymouth's /bin/plymouth beside a separate /usr/bin removes the link too;
    /// Plymouth installed first, or a file of the admin's own at the path, and no link is made,
    /// nor is anything removed with kiosk-hud.
    @Test func thePlymouthCommandIsOursUntilPlymouthComes() throws {
        let root = try DpkgRoot()
        guard let deb = Self.build(into: root.dir) else { return }
        let r = root.root, link = root.root + "/usr/bin/plymouth"
        func dpkg(_ args: [String], _ what: String) {
            let d = root.dpkg(args)
            #expect(d.status == 0 && !d.err.contains("error") && !d.err.contains("warning"), "\(what): \(d.out)\(d.err)")
        }
        func isPlymouths(_ path: String) -> Bool { readLink(path) == nil && Proc.readFile(path) == "#!/bin/sh\necho Plymouth\n" }
        let before = root.tree()

        // Ours first, then Plymouth's, out again, ours out.
        let plymouth = try Self.fakePlymouth(into: root.dir)
        dpkg(["-i", deb], "installing kiosk-hud")
        #expect(readLink(link) == "kiosk-hud")
        // kiosk-hud as the plymouth command: no daemon (a network namespace of its own, so no
        // abstract socket of another test's), 1 as Plymouth's client says it.
        let ping = Proc.run(["unshare", "--net", link, "--ping"])
        #expect(ping.status == 1, "\(ping.out)\(ping.err)")
        dpkg(["-i", plymouth], "installing Plymouth after kiosk-hud")
        #expect(isPlymouths(link), "Plymouth's client is not at \(link): \(readLink(link) ?? "a file")")
        dpkg(["--purge", "plymouth"], "purging Plymouth")
        #expect(readLink(link) == "kiosk-hud", "the link did not come back")
        dpkg(["--purge", "kiosk-hud"], "purging kiosk-hud")
        #expect(root.tree() == before)

        // Plymouth first: no link, and Plymouth's client stays when kiosk-hud goes.
        dpkg(["-i", plymouth], "installing Plymouth")
        dpkg(["-i", deb], "installing kiosk-hud after Plymouth")
        #expect(isPlymouths(link))
        dpkg(["--purge", "kiosk-hud"], "purging kiosk-hud")
        #expect(isPlymouths(link))
        dpkg(["--purge", "plymouth"], "purging Plymouth")
        #expect(root.tree() == before)

        // An older Plymouth's /bin/plymouth, /bin a directory of its own: the link goes, and comes back.
        let old = try Self.fakePlymouth(into: root.dir + "/old", client: "/bin/plymouth")
        dpkg(["-i", deb], "installing kiosk-hud")
        dpkg(["-i", old], "installing a /bin/plymouth")
        #expect(readLink(link) == nil && !Proc.exists(link), "the link stayed beside /bin/plymouth")
        #expect(isPlymouths(r + "/bin/plymouth"))
        dpkg(["--purge", "plymouth"], "purging the /bin/plymouth")
        #expect(readLink(link) == "kiosk-hud")
        dpkg(["--purge", "kiosk-hud"], "purging kiosk-hud")
        _ = Proc.run(["rmdir", r + "/bin"])
        #expect(root.tree() == before)

        // The admin's own file at the path: left alone, installed and removed.
        try replaceFile(link, with: Array("#!/bin/sh\necho mine\n".utf8), mode: 0o755)
        dpkg(["-i", deb], "installing kiosk-hud over the admin's plymouth")
        #expect(Proc.readFile(link) == "#!/bin/sh\necho mine\n")
        dpkg(["--purge", "kiosk-hud"], "purging kiosk-hud")
        #expect(Proc.readFile(link) == "#!/bin/sh\necho mine\n")
    }

    /// Where the .deb goes: OUT=DIR, or --out DIR (which wins), a relative one from the caller's
    /// current directory, as any command reads a path; else the current directory.
    @Test func theDebGoesWhereOutSays() throws {
        let cwd = Proc.makeTempDir("kiosk-deb-out")
        defer { _ = Proc.run(["rm", "-rf", cwd]) }
        // sh -c 'cd CWD && exec make-deb.sh …' with OUT set or not.
        func make(out env: String?, _ args: [String]) -> (status: Int32, out: String, err: String) {
            Proc.run(["sh", "-c", "cd \"$1\" && shift && exec \"$@\"", "sh", cwd, Proc.root + "/Tools/make-deb.sh", "--binary", Proc.kioskHUD,
                      "--version", "1.2.3", "--compress", "none"] + args, env: env.map { ["OUT": $0] } ?? [:])
        }
        let arch = Proc.run(["sh", "-c", "od -An -tu2 -j18 -N2 \"$1\" | tr -d ' '", "sh", Proc.kioskHUD]).out == "183\n" ? "arm64" : "amd64"
        let name = "kiosk-hud_1.2.3_\(arch).deb"
        let cases: [(env: String?, args: [String], lands: String)] = [
            ("by-env", [], cwd + "/by-env/" + name),
            (cwd + "/absolute", [], cwd + "/absolute/" + name),
            ("ignored", ["--out", "by-option"], cwd + "/by-option/" + name),
            (nil, [], cwd + "/" + name),
        ]
        for c in cases {
            let r = make(out: c.env, c.args)
            #expect(r.status == 0, "OUT=\(c.env ?? "") \(c.args): \(r.err)")
            let printed = String(r.out.split(separator: "\n").last ?? "")
            #expect(Proc.exists(c.lands), "OUT=\(c.env ?? "") \(c.args): not at \(c.lands); printed \(printed)")
            #expect(printed == c.lands || cwd + "/" + printed == c.lands, "OUT=\(c.env ?? "") \(c.args): printed \(printed)")
            #expect(Proc.run(["dpkg-deb", "-f", c.lands, "Version"]).out == "1.2.3\n")
            if c.lands != cwd + "/" + name { #expect(!Proc.exists(cwd + "/" + name), "OUT=\(c.env ?? "") \(c.args): also in the current directory") }
            _ = Proc.run(["rm", "-f", c.lands])
        }
        #expect(!Proc.exists(cwd + "/ignored"))
    }

    /// The licence and the changelog: `copyright` in Debian's machine-readable format (DEP-5),
    /// the Debian changelog for the package's version, gzip -9n, named as Debian Policy 12.7 says
    /// (a native version's changelog.gz, a Debian revision's changelog.Debian.gz); and lintian,
    /// when it is installed, has nothing to say about either.
    static let versions: [(String, String)] = [("1.2.3", "changelog.gz"), ("1.2.3-1", "changelog.Debian.gz")]

    @Test(arguments: versions)
    func copyrightAndChangelog(version: String, changelog: String) throws {
        let dir = Proc.makeTempDir("kiosk-deb-doc")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let maintainer = ["DEBFULLNAME": "Kiosk Packager", "DEBEMAIL": "packager@example.org"]
        guard let deb = Self.build(into: dir, version: version, env: maintainer) else { return }
        let x = Proc.run(["dpkg-deb", "-x", deb, dir + "/root"])
        #expect(x.status == 0, "\(x.err)")
        let doc = dir + "/root/usr/share/doc/kiosk-hud/"
        #expect(Proc.exists(doc + "copyright") && Proc.exists(doc + changelog))
        #expect(!Proc.exists(doc + (changelog == "changelog.gz" ? "changelog.Debian.gz" : "changelog.gz")))

        // DEP-5: a header naming the format, every file under Apache-2.0, the licence's text.
        let copyright = Proc.readFile(doc + "copyright") ?? ""
        let paragraphs = DEP5.paragraphs(copyright)
        #expect(paragraphs.first?["Format"] == "https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/")
        let files = paragraphs.first { $0["Files"] != nil }
        #expect(files?["Files"] == "*")
        #expect(files?["Copyright"]?.isEmpty == false)
        #expect(files?["License"] == "Apache-2.0")
        let licence = paragraphs.first { $0["License"] == "Apache-2.0" && $0["Files"] == nil }
        #expect(licence?.text["License"]?.contains("/usr/share/common-licenses/Apache-2.0") == true)
        #expect(DEP5.problems(copyright).isEmpty, "\(DEP5.problems(copyright))")

        // The changelog: gzip -9n (no name, no time stamp: the same bytes from the same commit),
        // one entry for this version, signed by the maintainer with an RFC 5322 date.
        let gz = Proc.readBytes(doc + changelog) ?? []
        #expect(gz.count > 10 && gz[0] == 0x1f && gz[1] == 0x8b)
        #expect(gz.count > 10 && gz[3] & 0x08 == 0 && gz[4..<8].allSatisfy { $0 == 0 }, "gzip -n: no file name, no time")
        #expect(gz.count > 10 && gz[8] == 2, "gzip -9")
        let text = Proc.run(["gzip", "-dc", doc + changelog]).out
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "kiosk-hud (\(version)) unstable; urgency=medium")
        #expect(lines.contains { $0.hasPrefix("  * ") })
        let trailer = lines.first { $0.hasPrefix(" -- ") } ?? ""
        #expect(trailer.hasPrefix(" -- Kiosk Packager <packager@example.org>  "), "\(trailer)")
        let date = String(trailer.dropFirst(" -- Kiosk Packager <packager@example.org>  ".count))
        #expect(Proc.run(["date", "-d", date, "+%s"]).status == 0, "\(date)")
        #expect(date.hasSuffix(" +0000") && date.dropFirst(3).hasPrefix(", "), "\(date)")
        #expect(text.hasSuffix("\n") && !text.contains("\n\n\n"))

        // lintian (the Quick start installs it; a machine without it skips this): no tag about either file.
        guard Proc.executable("lintian") else { return }
        let lint = Proc.run(["lintian", "--no-cfg", "-I", "--pedantic", deb])
        let about = lint.out.split(separator: "\n").filter { $0.contains("copyright") || $0.contains("changelog") }
        #expect(about.isEmpty, "\(lint.out)")
        #expect(!lint.out.contains("no-copyright-file") && !lint.out.contains("no-changelog"))
        // And no error or warning at all (the binary stripped, the maintainer scripts as
        // debhelper writes them, the changelog's lines within 80 columns).
        let serious = lint.out.split(separator: "\n").filter { $0.hasPrefix("E: ") || $0.hasPrefix("W: ") }
        #expect(serious.isEmpty, "\(serious.joined(separator: "\n"))")
    }
}

/// Debian's machine-readable copyright format (DEP-5), read strictly enough for a test: paragraphs
/// of `Field: value` lines, continuation lines starting with a space, a lone "." for a blank
/// line in a text.
enum DEP5 {
    struct Paragraph {
        /// Each field's first line (its value, or the licence's short name).
        var fields: [String: String] = [:]
        /// Each field's whole text, continuation lines included.
        var text: [String: String] = [:]
        subscript(_ name: String) -> String? { fields[name] }
    }

    static func paragraphs(_ s: String) -> [Paragraph] {
        var out: [Paragraph] = [], current = Paragraph(), last: String?
        for line in s.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) {
                if !current.fields.isEmpty { out.append(current) }
                current = Paragraph(); last = nil
            } else if line.hasPrefix(" ") || line.hasPrefix("\t") {
                if let last { current.text[last, default: ""] += "\n" + line.dropFirst() }
            } else if let colon = line.firstIndex(of: ":") {
                let name = String(line[..<colon])
                let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
                current.fields[name] = String(value); current.text[name] = String(value); last = name
            }
        }
        if !current.fields.isEmpty { out.append(current) }
        return out
    }

    /// What breaks the format: lines that are neither fields nor continuations, a continuation
    /// with no field, a header without Format, a Files paragraph without Copyright or License, a
    /// licence named in Files with no text there or in a License paragraph of its own.
    static func problems(_ s: String) -> [String] {
        var problems: [String] = []
        var hasField = false
        for line in s.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty { hasField = false; continue }
            if line.hasPrefix(" ") || line.hasPrefix("\t") {
                if !hasField { problems.append("continuation without a field: \(line)") }
                continue
            }
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
                  line[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
                problems.append("not a field: \(line)"); continue
            }
            hasField = true
        }
        let ps = paragraphs(s)
        if ps.first?["Format"] == nil { problems.append("no Format in the header") }
        let standalone = Set(ps.dropFirst().filter { $0["Files"] == nil }.compactMap { $0["License"] })
        for p in ps.dropFirst() where p["Files"] != nil {
            if p["Copyright"] == nil { problems.append("Files \(p["Files"]!): no Copyright") }
            guard let l = p["License"] else { problems.append("Files \(p["Files"]!): no License"); continue }
            if p.text["License"] == l && !standalone.contains(l) { problems.append("licence \(l): no text") }
        }
        return problems
    }
}
