// The .deb's triggers (Tools/make-deb.sh's DEBIAN/triggers) run by dpkg for real, in a throwaway
// root with its own database (DpkgRoot: maintainer scripts chrootless, told the root by
// DPKG_ROOT): `activate-noawait update-initramfs` reaches the package that is interested in it
// — a stand-in for initramfs-tools, whose postinst writes down how it was called — on install
// (at the end of dpkg's run, or left pending with --no-triggers and run by `--triggers-only
// --pending`) and on removal, as docs/initramfs.md promises; and the file triggers on Plymouth's
// client (/usr/bin/plymouth, /bin/plymouth) call kiosk-hud's own postinst with `triggered`, which
// leaves the `plymouth` link as dist/debian/postinst says: Plymouth's client wins while it is
// installed, the link to kiosk-hud comes back when it goes. Each maintainer script run is read
// from dpkg's own account of it (--debug=2: "fork/exec …postinst ( triggered … )").
import Glibc
import KioskSys
import KioskTestSupport
import Testing

@Suite(.serialized) struct DebTriggerTests {
    /// A stand-in for initramfs-tools: interested in `update-initramfs` as Debian's is
    /// (interest-noawait), its postinst appending its arguments to `$DPKG_ROOT/initramfs-tools.calls`.
    static func fakeInitramfsTools(into dir: String) throws -> String {
        let stage = dir + "/fake-initramfs-tools"
        try makeDirectories(stage + "/DEBIAN")
        try replaceFile(stage + "/DEBIAN/control", with: Array("""
            Package: initramfs-tools
            Version: 0.142-8
            Architecture: all
            Maintainer: test <test@example.org>
            Description: stand-in for the test

            """.utf8))
        try replaceFile(stage + "/DEBIAN/triggers", with: Array("interest-noawait update-initramfs\n".utf8))
        try replaceFile(stage + "/DEBIAN/postinst", with: Array("""
            #!/bin/sh
            set -e
            echo "$*" >> "${DPKG_ROOT:-}/initramfs-tools.calls"

            """.utf8), mode: 0o755)
        let deb = dir + "/initramfs-tools.deb"
        let r = Proc.run(["dpkg-deb", "--root-owner-group", "--build", stage, deb])
        #expect(r.status == 0, "\(r.err)")
        return deb
    }

    /// dpkg on `root`, each maintainer script it runs in its output (--debug=2); fails the test
    /// on a non-zero status or an error or warning.
    @discardableResult
    static func dpkg(_ root: DpkgRoot, _ args: [String], _ what: String) -> String {
        let d = root.dpkg(["--debug=2"] + args)
        let text = d.out + d.err
        #expect(d.status == 0 && !text.contains("error") && !text.contains("warning"), "\(what): \(text)")
        return text
    }

    /// The maintainer-script runs in dpkg's debug output, as "kiosk-hud.postinst triggered /usr/bin/plymouth".
    static func scriptRuns(_ output: String) -> [String] {
        output.split(separator: "\n").compactMap { line -> String? in
            guard let r = line.firstRange(of: "fork/exec ") else { return nil }
            let rest = line[r.upperBound...]
            guard let open = rest.firstRange(of: " ( "), rest.hasSuffix(")") else { return nil }
            let script = rest[..<open.lowerBound].split(separator: "/").last.map(String.init) ?? ""
            let args = rest[open.upperBound...].dropLast().split(separator: " ").joined(separator: " ")
            return args.isEmpty ? script : script + " " + args
        }
    }

    func calls(_ root: DpkgRoot) -> [String] {
        (Proc.readFile(root.root + "/initramfs-tools.calls") ?? "").split(separator: "\n").map(String.init)
    }

    func triggersPending(_ root: DpkgRoot, _ package: String) -> String {
        Proc.run(["dpkg-query", "--admindir=" + root.root + "/var/lib/dpkg", "-W", "-f", "${db:Status-Abbrev}|${Triggers-Pending}", package]).out
    }

    /// The package's trigger reaches initramfs-tools' postinst as `triggered update-initramfs`:
    /// once at the end of an install's run; left pending by --no-triggers (initramfs-tools then
    /// "triggers-pending") until `dpkg --triggers-only --pending` runs it; and on removal.
    @Test func updateInitramfsIsTriggeredOnInstallAndRemoval() throws {
        let root = try DpkgRoot()
        guard let deb = DebPackageTests.build(into: root.dir) else { return }
        let tools = try Self.fakeInitramfsTools(into: root.dir)
        Self.dpkg(root, ["-i", tools], "installing the initramfs-tools stand-in")
        #expect(calls(root) == ["configure "], "\(calls(root))")

        // Installed: the trigger runs once, at the end of the run, after kiosk-hud is configured.
        let install = Self.dpkg(root, ["-i", deb], "installing kiosk-hud")
        let runs = Self.scriptRuns(install)
        #expect(runs.contains("kiosk-hud.postinst configure"), "\(runs)")
        #expect(runs.filter { $0.hasPrefix("initramfs-tools.postinst") } == ["initramfs-tools.postinst triggered update-initramfs"], "\(runs)")
        if let configured = runs.firstIndex(of: "kiosk-hud.postinst configure"),
           let triggered = runs.firstIndex(of: "initramfs-tools.postinst triggered update-initramfs") {
            #expect(configured < triggered, "the initramfs was rebuilt before kiosk-hud was configured: \(runs)")
        }
        #expect(install.contains("Processing triggers for initramfs-tools"), "\(install)")
        #expect(calls(root) == ["configure ", "triggered update-initramfs"], "\(calls(root))")
        #expect(triggersPending(root, "initramfs-tools") == "ii |")

        // Removed: triggered again (the hook is gone from the next initramfs).
        let remove = Self.dpkg(root, ["--remove", "kiosk-hud"], "removing kiosk-hud")
        #expect(Self.scriptRuns(remove).contains("initramfs-tools.postinst triggered update-initramfs"), "\(Self.scriptRuns(remove))")
        #expect(calls(root).last == "triggered update-initramfs" && calls(root).count == 3, "\(calls(root))")
        Self.dpkg(root, ["--purge", "kiosk-hud"], "purging kiosk-hud")

        // With --no-triggers: pending, not run, until dpkg is asked to run what is pending.
        let deferred = Self.dpkg(root, ["--no-triggers", "-i", deb], "installing kiosk-hud with --no-triggers")
        #expect(!Self.scriptRuns(deferred).contains { $0.hasPrefix("initramfs-tools.postinst") }, "\(Self.scriptRuns(deferred))")
        #expect(triggersPending(root, "initramfs-tools") == "it | update-initramfs", "\(triggersPending(root, "initramfs-tools"))")
        let before = calls(root).count
        let pending = Self.dpkg(root, ["--triggers-only", "--pending"], "running the pending triggers")
        #expect(Self.scriptRuns(pending) == ["initramfs-tools.postinst triggered update-initramfs"], "\(Self.scriptRuns(pending))")
        #expect(calls(root).count == before + 1 && calls(root).last == "triggered update-initramfs", "\(calls(root))")
        #expect(triggersPending(root, "initramfs-tools") == "ii |")
    }

    /// Plymouth's client coming and going through a package (DebPackageTests.fakePlymouth, at
    /// /usr/bin/plymouth as Debian ships it, then at /bin/plymouth as an older one): each time
    /// dpkg calls kiosk-hud's postinst `triggered` with the client's path, and the link is as
    /// the postinst promises — Plymouth's file while Plymouth is installed, the link to kiosk-hud
    /// back once it is gone (and none beside a /bin/plymouth).
    @Test func plymouthsClientTriggersThePostinst() throws {
        let root = try DpkgRoot()
        guard let deb = DebPackageTests.build(into: root.dir) else { return }
        let link = root.root + "/usr/bin/plymouth"
        let triggered = "kiosk-hud.postinst triggered /usr/bin/plymouth"

        let install = Self.dpkg(root, ["-i", deb], "installing kiosk-hud")
        #expect(!Self.scriptRuns(install).contains { $0.contains("triggered") }, "its own link triggers nothing: \(Self.scriptRuns(install))")
        #expect(readLink(link) == "kiosk-hud")

        // Plymouth installed: its client replaces the link, kiosk-hud's postinst is triggered
        // and leaves Plymouth's file alone.
        let plymouth = try DebPackageTests.fakePlymouth(into: root.dir)
        let came = Self.dpkg(root, ["-i", plymouth], "installing Plymouth")
        #expect(Self.scriptRuns(came).filter { $0.hasPrefix("kiosk-hud.") } == [triggered], "\(Self.scriptRuns(came))")
        #expect(readLink(link) == nil && Proc.readFile(link) == "#!/bin/sh\necho Plymouth\n", "\(readLink(link) ?? "a file")")
        #expect(triggersPending(root, "kiosk-hud") == "ii |")

        // Plymouth purged: triggered again, the link back.
        let went = Self.dpkg(root, ["--purge", "plymouth"], "purging Plymouth")
        #expect(Self.scriptRuns(went).filter { $0.hasPrefix("kiosk-hud.") } == [triggered], "\(Self.scriptRuns(went))")
        #expect(readLink(link) == "kiosk-hud", "the link did not come back")

        // An older Plymouth's /bin/plymouth (a /bin of its own): the other file trigger; the link
        // goes while it is there, and comes back after.
        let old = try DebPackageTests.fakePlymouth(into: root.dir + "/old", client: "/bin/plymouth")
        let oldCame = Self.dpkg(root, ["-i", old], "installing a /bin/plymouth")
        #expect(Self.scriptRuns(oldCame).filter { $0.hasPrefix("kiosk-hud.") } == ["kiosk-hud.postinst triggered /bin/plymouth"],
                "\(Self.scriptRuns(oldCame))")
        #expect(readLink(link) == nil && !Proc.exists(link), "the link stayed beside /bin/plymouth")
        let oldWent = Self.dpkg(root, ["--purge", "plymouth"], "purging the /bin/plymouth")
        #expect(Self.scriptRuns(oldWent).filter { $0.hasPrefix("kiosk-hud.") } == ["kiosk-hud.postinst triggered /bin/plymouth"],
                "\(Self.scriptRuns(oldWent))")
        #expect(readLink(link) == "kiosk-hud")
        Self.dpkg(root, ["--purge", "kiosk-hud"], "purging kiosk-hud")
        #expect(readLink(link) == nil)
    }
}
