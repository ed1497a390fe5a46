// A throwaway root for dpkg (DebPackageTests installs the amd64 package there, Arm64BuildTests
// the arm64 one): its own dpkg database, maintainer scripts run chrootless with DPKG_ROOT.
import Glibc
import KioskSys

/// A root that looks like a Debian system with systemd to dpkg: its database says the
/// dependencies and base-files (which owns the common directories) are installed.
public final class DpkgRoot {
    public let dir = Proc.makeTempDir("kiosk-deb")
    public var root: String { dir + "/root" }
    public static let dependencies = ["libc6", "libdrm2", "libinput10", "libudev1", "libfreetype6", "libpng16-16", "libsystemd0", "fonts-dejavu-core"]
    public static let baseDirectories = ["/etc", "/etc/default", "/etc/systemd", "/etc/systemd/system", "/lib", "/lib/systemd", "/lib/systemd/system",
                                         "/usr", "/usr/bin", "/usr/share", "/usr/share/doc", "/usr/share/man",
                                         "/usr/share/man/man1", "/var", "/var/cache", "/var/lib", "/var/lib/systemd"]

    /// `libc6` is the stand-in glibc's version: this system's by default (a package built here
    /// installs on it), Debian 13's for the arm64 one. `architecture`: the stand-ins' (a foreign
    /// package's dependencies are met only by packages of its own architecture).
    public init(libc6: String = DpkgRoot.systemLibc6, architecture: String = "all") throws {
        let db = root + "/var/lib/dpkg"
        for d in ["/info", "/updates", "/triggers"] { try makeDirectories(db + d) }
        for d in Self.baseDirectories { try makeDirectories(root + d) }
        var status = ""
        for p in ["base-files"] + Self.dependencies {
            let version = p == "libc6" ? libc6 : "1.0-1"
            status += "Package: \(p)\nStatus: install ok installed\nPriority: optional\nVersion: \(version)\nArchitecture: \(architecture)\n"
                + "Maintainer: test\nDescription: stand-in for the test\n\n"
            try replaceFile(db + "/info/\(p).list", with: Array((p == "base-files" ? Self.baseDirectories.map { $0 + "\n" }.joined() : "").utf8))
        }
        try replaceFile(db + "/status", with: Array(status.utf8))
        if architecture != "all" {
            try replaceFile(db + "/arch", with: Array("amd64\n\(architecture)\n".utf8))
        }
    }

    deinit { _ = Proc.run(["rm", "-rf", dir]) }

    /// This system's libc6 version (dpkg's).
    public static let systemLibc6: String = Proc.run(["dpkg-query", "-W", "-f", "${Version}", "libc6"]).out

    /// The glibc `binary` needs, as Tools/make-deb.sh puts it in Depends: its newest GLIBC_
    /// symbol version, 2.36 at least (packed relocations).
    public static func glibcNeeded(by binary: String) -> String {
        let r = Proc.run(["sh", "-c", "{ echo GLIBC_2.36; LC_ALL=C readelf -V '\(binary)' | grep -o 'GLIBC_[0-9][0-9.]*'; } | sort -uV | tail -1"])
        return String(r.out.dropFirst("GLIBC_".count).prefix { $0 != "\n" })
    }

    /// dpkg on this root; maintainer scripts run without chroot, told the root by DPKG_ROOT.
    public func dpkg(_ args: [String]) -> (status: Int32, out: String, err: String) {
        Proc.run(["dpkg", "--root=" + root, "--force-script-chrootless", "--log=/dev/null"] + (geteuid() == 0 ? [] : ["--force-not-root"]) + args)
    }

    /// Every path under the root but dpkg's database, with symbolic links' targets.
    public func tree() -> [String] {
        let r = Proc.run(["find", root, "-path", root + "/var/lib/dpkg", "-prune", "-o", "-printf", "%P %y %l\\n"])
        return r.out.split(separator: "\n").map(String.init).filter { !$0.hasPrefix(" ") }.sorted()
    }
}
