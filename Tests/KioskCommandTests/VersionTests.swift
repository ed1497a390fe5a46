// The version, written once (Sources/KioskCLI/Version.swift): `kiosk-hud --version` prints it,
// CHANGELOG.md's newest release is it, and Tools/make-deb.sh takes it for the .deb's version
// when none is given. Tools/install.sh installs the licence with the docs.
import Glibc
import KioskSys
import KioskTestSupport
import Testing

@Suite struct VersionTests {
    /// CHANGELOG.md's newest release: the first "## X.Y.Z - DATE" heading.
    static func newestRelease() -> String? {
        let changelog = Proc.readFile(Proc.root + "/CHANGELOG.md") ?? ""
        for line in changelog.split(separator: "\n") where line.hasPrefix("## ") {
            let word = line.dropFirst(3).split(separator: " ").first.map(String.init) ?? ""
            let parts = word.split(separator: ".", omittingEmptySubsequences: false)
            if parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) { return word }
        }
        return nil
    }

    @Test func versionPrintsTheNewestReleaseAndSucceeds() throws {
        let release = try #require(Self.newestRelease())
        let r = Proc.run([Proc.kioskHUD, "--version"])
        #expect(r.status == 0)
        #expect(r.out == "kiosk-hud \(release)\n")
        #expect(r.err.isEmpty)
    }

    @Test func helpSaysSo() {
        let r = Proc.run([Proc.kioskHUD, "--help"])
        #expect(r.status == 0)
        #expect(r.out.contains("kiosk-hud --version prints the version (kiosk-hud \(Self.newestRelease() ?? "?"))."), "\(r.out)")
    }

    /// make-deb.sh without --version: the version, with +gitDATE.COMMIT in a git checkout.
    @Test func theDebTakesTheVersionWhenNoneIsGiven() throws {
        let release = try #require(Self.newestRelease())
        let dir = Proc.makeTempDir("kiosk-deb-version")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let r = Proc.run([Proc.root + "/Tools/make-deb.sh", "--binary", Proc.kioskHUD, "--out", dir, "--compress", "none"])
        #expect(r.status == 0, "make-deb.sh: \(r.err)")
        let deb = String(r.out.split(separator: "\n").last ?? "")
        let version = Proc.run(["dpkg-deb", "-f", deb, "Version"]).out
        #expect(version == release + "\n" || version.hasPrefix(release + "+git"), "\(version)")
    }

    /// install.sh puts LICENSE beside the other docs, byte for byte (the .deb has it as copyright).
    @Test func installShInstallsTheLicence() throws {
        let dest = Proc.makeTempDir("kiosk-install")
        defer { _ = Proc.run(["rm", "-rf", dest]) }
        let r = Proc.run([Proc.root + "/Tools/install.sh"], env: ["DESTDIR": dest, "PREFIX": "/usr", "KIOSK_HUD_BINARY": Proc.kioskHUD, "KIOSK_HUD_MAN": "none"])
        #expect(r.status == 0, "install.sh: \(r.err)")
        let installed = Proc.readBytes(dest + "/usr/share/doc/kiosk-hud/LICENSE")
        #expect(installed != nil && installed == Proc.readBytes(Proc.root + "/LICENSE"))
        #expect(Proc.run(["stat", "-c", "%a", dest + "/usr/share/doc/kiosk-hud/LICENSE"]).out == "644\n")
    }
}
