// The systemd drop-ins the docs show and the one the package ships, against a real systemd:
// each drop-in block in README.md, dist/README.md, Boards/README.md and docs/*.md is a file
// under dist/systemd/examples (its first line names where it is installed; the block and the
// file are compared byte for byte, so the doc and the file cannot drift), and each is verified
// with `systemd-analyze verify` beside our units, Debian 12's and Debian 13's units of the
// update frameworks the docs pair with kiosk-hud (swupdate, rauc) and of the display managers
// the package orders after the handover (lightdm, gdm3, sddm) — no ordering cycle, nothing
// printed. The package's own drop-in, display-manager.service.d/kiosk-hud.conf, is shown to
// reach each display manager through its display-manager.service alias.
//
// Debian's units come from Tests/SystemdUnits/fetch-debian-units.sh (`apt-get download` with an
// apt configuration of its own, once, into .build-debs/units): without the archive the verify
// tests record an issue and stop.
import Glibc
import KioskSys
import KioskTestSupport
import Testing

/// A drop-in the docs show: where it goes on a board, the file in dist/ that it is, and where
/// the docs show it.
struct DocumentedDropIn: CustomStringConvertible {
    /// The installed path, from the block's first line: /etc/systemd/system/NAME.d/FILE.conf.
    let path: String
    /// dist/systemd/examples/NAME.d/FILE.conf, relative to the checkout.
    var file: String { "dist/systemd/examples/" + path.split(separator: "/").suffix(2).joined(separator: "/") }
    /// doc:line of the block.
    let shownAt: String
    var description: String { "\(path) (\(shownAt))" }
}

enum DropIns {
    /// The docs that may show a drop-in, relative to the checkout.
    static func docs() -> [String] {
        ["README.md", "dist/README.md", "Boards/README.md"]
            + (listDirectory(Proc.root + "/docs") ?? []).filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    /// A unit file's section header, as a line of a code block.
    static func isSectionHeader(_ line: Substring) -> Bool {
        let t = line.drop { $0 == " " || $0 == "\t" }
        return ["[Unit]", "[Service]", "[Socket]", "[Install]", "[Timer]", "[Path]", "[Mount]"].contains(String(t.prefix { $0 != " " }))
            && t.drop { $0 != "]" }.dropFirst().allSatisfy { $0 == " " }
    }

    /// The drop-ins the docs show, and what is wrong with the docs: a block is a code block
    /// (indented or fenced) whose first line is `# /etc/systemd/system/NAME.d/FILE.conf`, to its
    /// last line with the same indentation; it must equal dist's file. A unit section header
    /// outside such a block is an unchecked drop-in.
    static func documented() -> (dropIns: [DocumentedDropIn], problems: [String]) {
        var found: [DocumentedDropIn] = [], problems: [String] = []
        for doc in docs() {
            guard let text = Proc.readFile(Proc.root + "/" + doc) else { problems.append("\(doc): cannot be read"); continue }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            var i = 0
            while i < lines.count {
                let line = lines[i]
                let indent = line.prefix { $0 == " " }
                let rest = line.dropFirst(indent.count)
                guard rest.hasPrefix("# /etc/systemd/system/"), rest.hasSuffix(".conf"), !rest.contains(" ", after: 2),
                      rest.split(separator: "/").count == 6, rest.split(separator: "/")[4].hasSuffix(".d") else {
                    if isSectionHeader(line) { problems.append("\(doc):\(i + 1): a unit file's section outside a drop-in block from dist/systemd/examples") }
                    i += 1
                    continue
                }
                var block = [String(rest)]
                var j = i + 1
                // To the first blank line, a line less indented, or a fence's end.
                while j < lines.count, lines[j].hasPrefix(indent), !lines[j].dropFirst(indent.count).isEmpty, !lines[j].hasPrefix("```") {
                    block.append(String(lines[j].dropFirst(indent.count)))
                    j += 1
                }
                let d = DocumentedDropIn(path: String(rest.dropFirst(2)), shownAt: "\(doc):\(i + 1)")
                let shown = block.joined(separator: "\n") + "\n"
                let file = Proc.readFile(Proc.root + "/" + d.file)
                if file == nil { problems.append("\(d): no \(d.file)") } else if file != shown {
                    problems.append("\(d): the block is not \(d.file) as it is:\n\(shown)")
                }
                found.append(d)
                i = j
            }
        }
        // And no example that no doc shows.
        let shown = Set(found.map(\.file))
        for dir in (listDirectory(Proc.root + "/dist/systemd/examples") ?? []).sorted() {
            for f in (listDirectory(Proc.root + "/dist/systemd/examples/" + dir) ?? []).sorted() where !shown.contains("dist/systemd/examples/\(dir)/\(f)") {
                problems.append("dist/systemd/examples/\(dir)/\(f): no doc shows it")
            }
        }
        return (found, problems)
    }

    /// The drop-ins the package ships (dist/systemd/NAME.d/FILE.conf, installed in
    /// /lib/systemd/system/NAME.d/), as paths relative to dist/systemd.
    static func shipped() -> [String] {
        (listDirectory(Proc.root + "/dist/systemd") ?? []).filter { $0.hasSuffix(".d") }.sorted().flatMap { d in
            (listDirectory(Proc.root + "/dist/systemd/" + d) ?? []).filter { $0.hasSuffix(".conf") }.sorted().map { d + "/" + $0 }
        }
    }
}

extension Substring {
    /// Whether `c` occurs after the first `n` characters.
    fileprivate func contains(_ c: Character, after n: Int) -> Bool { dropFirst(n).contains(c) }
}

@Suite(.serialized) struct DocumentedDropInsTests {
    /// Every drop-in block in the docs is a file under dist/systemd/examples, byte for byte,
    /// and every such file is shown; the ones this checkout documents are all there.
    @Test func everyDocumentedDropInIsDistsFile() {
        let (found, problems) = DropIns.documented()
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        #expect(Set(found.map(\.path)) == ["/etc/systemd/system/kiosk-hud.service.d/swupdate.conf", "/etc/systemd/system/kiosk-hud.service.d/rauc.conf",
                                           "/etc/systemd/system/kiosk-hud-quit.service.d/after-network.conf"], "\(found)")
        #expect(DropIns.shipped() == ["display-manager.service.d/kiosk-hud.conf"])
        // No drop-in orders kiosk-hud.service after a unit with default dependencies (a cycle
        // through sysinit.target): it has no [Unit] ordering at all.
        for d in found where d.path.contains("/kiosk-hud.service.d/") {
            let text = Proc.readFile(Proc.root + "/" + d.file) ?? ""
            #expect(!text.split(separator: "\n").contains { $0.hasPrefix("After=") || $0.hasPrefix("Requires=") || $0.hasPrefix("BindsTo=") }, "\(d)")
        }
    }

    /// Debian's units of a release (fetched once), or nil with an issue recorded.
    static func debianUnits(_ release: String) -> String? {
        let r = Proc.run([Proc.root + "/Tests/SystemdUnits/fetch-debian-units.sh"])
        let dir = (r.out.split(separator: "\n").last.map(String.init) ?? "") + "/" + release + "/root"
        guard r.status == 0, Proc.exists(dir + "/.done") else {
            Issue.record("cannot get Debian's swupdate, rauc and display manager units (Tests/SystemdUnits/fetch-debian-units.sh): \(r.err)")
            return nil
        }
        return dir
    }

    /// The display managers' units, as Debian's packages name them (gdm3's is gdm.service).
    static let displayManagers = ["lightdm", "gdm", "sddm"]

    /// What is verified: our units, Debian's update units, the display manager (by its alias)
    /// and the targets that pull everything in at boot and at shutdown.
    static let verified = BootUnitsTests.units().map(\.name)
        + ["swupdate.socket", "swupdate.service", "swupdate-progress.service", "rauc.service", "display-manager.service",
           "graphical.target", "poweroff.target", "reboot.target", "halt.target"]

    /// On an installed system in small (BootUnitsTests.installedSystem) with the release's
    /// swupdate, rauc and display manager packages unpacked, our units where the package puts
    /// them (/lib/systemd/system, its display-manager drop-in too), the example app in
    /// /etc/systemd/system, all enabled as the packages' postinsts do (kiosk-hud.service,
    /// kiosk-app.service, swupdate.socket, swupdate.service; the display manager linked as
    /// display-manager.service): with each display manager, without a documented drop-in and
    /// with each in turn, `systemd-analyze verify` prints nothing — no ordering cycle, no bad
    /// line, no missing program.
    @Test(arguments: ["bookworm", "trixie"])
    func everyDropInVerifiesWithDebiansUnits(release: String) throws {
        guard Proc.executable("systemd-analyze") else {
            Issue.record("systemd-analyze is missing: install the systemd package (README's Quick start)"); return
        }
        guard let debian = Self.debianUnits(release) else { return }
        let (dropIns, problems) = DropIns.documented()
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        let root = Proc.makeTempDir("kiosk-verify-dropins")
        defer { _ = Proc.run(["rm", "-rf", root]) }
        try Self.makeRoot(root, debian: debian)
        for dm in Self.displayManagers {
            Self.link(root, displayManager: dm)
            for d in [nil] + dropIns {
                let at = root + (d?.path ?? "")
                if let d {
                    try makeDirectories(String(at[..<at.lastIndex(of: "/")!]))
                    try replaceFile(at, with: Proc.readBytes(Proc.root + "/" + d.file) ?? [])
                }
                let r = Proc.run(["systemd-analyze", "verify", "--man=no", "--root=\(root)"] + Self.verified)
                #expect(r.status == 0 && r.out.isEmpty && r.err.isEmpty,
                        "\(release), \(dm).service, \(d.map { "\($0)" } ?? "no drop-in"): systemd-analyze verify: status \(r.status)\n\(r.out)\(r.err)")
                if d != nil { _ = Proc.run(["rm", "-f", at]) }
            }
        }
        // The rig sees what it is for: the drop-in updates.md once showed (After=swupdate.socket)
        // is the cycle through sysinit.target that costs the boot its splash.
        let ordered = root + "/etc/systemd/system/kiosk-hud.service.d/ordered.conf"
        try makeDirectories(root + "/etc/systemd/system/kiosk-hud.service.d")
        try replaceFile(ordered, with: Array("[Unit]\nAfter=swupdate.socket\n".utf8))
        let r = Proc.run(["systemd-analyze", "verify", "--man=no", "--root=\(root)"] + Self.verified)
        #expect(r.err.contains("Found ordering cycle on kiosk-hud.service/start") && r.err.contains("swupdate.socket/start"),
                "\(release): After=swupdate.socket was not found to be a cycle:\n\(r.err)")
    }

    /// The package's display-manager.service.d/kiosk-hud.conf reaches each of Debian's display
    /// managers through the alias: a probe ordered after the display manager and before the
    /// handover is an ordering cycle with it (the display manager after the handover), and none
    /// without it. systemd reads the drop-ins of every name a unit has, the alias's included.
    @Test(arguments: ["bookworm", "trixie"])
    func theDisplayManagerComesAfterTheHandover(release: String) throws {
        guard Proc.executable("systemd-analyze") else {
            Issue.record("systemd-analyze is missing: install the systemd package (README's Quick start)"); return
        }
        guard let debian = Self.debianUnits(release) else { return }
        let root = Proc.makeTempDir("kiosk-verify-dm")
        defer { _ = Proc.run(["rm", "-rf", root]) }
        try Self.makeRoot(root, debian: debian)
        try replaceFile(root + "/etc/systemd/system/probe.service", with: Array("""
            [Unit]
            Wants=display-manager.service kiosk-hud-quit.service
            After=display-manager.service
            Before=kiosk-hud-quit.service

            [Service]
            ExecStart=/usr/bin/systemctl

            """.utf8))
        let dropIn = root + "/lib/systemd/system/display-manager.service.d/kiosk-hud.conf"
        for dm in Self.displayManagers {
            Self.link(root, displayManager: dm)
            let r = Proc.run(["systemd-analyze", "verify", "--man=no", "--root=\(root)", "probe.service"])
            #expect(r.err.contains("Found ordering cycle") && r.err.contains("\(dm).service/start")
                    && r.err.contains("kiosk-hud-quit.service/start"), "\(release), \(dm): the drop-in did not order it after the handover:\n\(r.err)")
        }
        _ = Proc.run(["mv", dropIn, root + "/kiosk-hud.conf.away"])
        for dm in Self.displayManagers {
            Self.link(root, displayManager: dm)
            let r = Proc.run(["systemd-analyze", "verify", "--man=no", "--root=\(root)", "probe.service"])
            #expect(r.status == 0 && r.err.isEmpty, "\(release), \(dm) without the drop-in: \(r.err)")
        }
    }

    /// The root: BootUnitsTests.installedSystem, /lib → usr/lib as on Debian 12 and 13, the
    /// release's packages unpacked over it, our units and shipped drop-ins in /lib/systemd/system,
    /// the example app in /etc/systemd/system, enabled as the packages do it.
    static func makeRoot(_ root: String, debian: String) throws {
        var script = BootUnitsTests.installedSystem(at: root) + "\nln -s usr/lib lib\n"
        script += "tar -C '\(debian)' --exclude=./.done -cf - . | tar -C '\(root)' -xf - --keep-directory-symlink\n"
        for u in BootUnitsTests.units() where u.name != "kiosk-app.service" {
            script += "cp '\(BootUnitsTests.dist)/systemd/\(u.file)' lib/systemd/system/\(u.name)\n"
        }
        for d in DropIns.shipped() {
            script += "mkdir -p lib/systemd/system/\(d.split(separator: "/")[0]); cp '\(BootUnitsTests.dist)/systemd/\(d)' lib/systemd/system/\(d)\n"
        }
        script += "cp '\(BootUnitsTests.dist)/systemd/kiosk-app.service.example' etc/systemd/system/kiosk-app.service\n"
        // Debian's swupdate has an init script too: systemctl would run update-rc.d in the root.
        script += "SYSTEMCTL_SKIP_SYSV=1 systemctl --root='\(root)' enable kiosk-hud.service kiosk-app.service swupdate.socket swupdate.service\n"
        let r = Proc.run(["sh", "-c", script])
        #expect(r.status == 0, "making the root: \(r.err)")
    }

    /// display-manager.service → the manager's unit, as Debian's display manager packages link it.
    static func link(_ root: String, displayManager dm: String) {
        _ = Proc.run(["ln", "-sfn", "/lib/systemd/system/\(dm).service", root + "/etc/systemd/system/display-manager.service"])
    }
}
