// The arm64 kiosk-hud from Tools/cross-build.sh: an AArch64 program that draws, pixel for pixel,
// what the x86-64 one draws, packaged as kiosk-hud_VERSION_arm64.deb that dpkg installs.
//
// Same pixels: both binaries render the same scenes in the Debian 13 root, the arm64 one under
// qemu-user with the sysroot's loader, so both open the same FreeType (Debian 13's, amd64 and
// arm64 builds of one version) and the same font files: what differs is the architecture and the
// compiler (6.0.3 for arm64, this run's for x86-64), nothing else. The rasterizer promises the
// same bits on both (no fused multiply-add, its own trigonometry): the tolerance is zero.
import Glibc
import KioskPNG
import KioskSys
import KioskTestSupport
import Testing

@Suite struct Arm64BuildTests {
    static func build() async throws -> CrossBuild.Arm64 {
        try await onOwnThread { CrossBuild.arm64 }.get()
    }

    /// The README's pictures (Tools/readme-images.sh), the golden scenes' settings (KioskHUDTests:
    /// every mode at 1× and 2×, dim, gradient on dark, blur over a picture, RGB565) and the
    /// benchmark scene. Paths are the root's (the checkout is its /src).
    static let scenes: [(name: String, args: [String])] = {
        let readme = ["--size", "300x200", "--scale", "1", "--label", "Loading…", "--details", "Updating firmware 3 of 7", "--button", "Cancel",
                      "--progress", "0.6", "--phase", "3"]
        let golden = ["--size", "320x240", "--label", "Loading…", "--details", "Updating firmware 3 of 7", "--button", "Cancel",
                      "--progress", "0.6", "--phase", "3"]
        let modes = ["indeterminate", "determinate", "annular", "bar", "text", "success", "error"]
        var s = modes.map { ("readme-\($0)", readme + ["--mode", $0]) }
        s.append(("readme-annular-dark-gradient", ["--size", "300x200", "--mode", "annular", "--progress", "0.35", "--label", "Provisioning",
                                                  "--background", "gradient", "--theme", "dark"]))
        for scale in ["1", "2"] {
            s += (modes + ["custom"]).map { m in
                ("golden-\(m)@\(scale)x", golden + ["--mode", m, "--scale", scale] + (m == "custom" ? ["--image", "/src/docs/images/success.png"] : []))
            }
        }
        s.append(("golden-annular-dim", golden + ["--mode", "annular", "--background", "dim"]))
        s.append(("golden-indeterminate-gradient-dark", golden + ["--mode", "indeterminate", "--background", "gradient", "--theme", "dark"]))
        s.append(("golden-success-blur", golden + ["--mode", "success", "--bezel", "blur", "--underlay",
                                                   "/src/Tests/KioskHUDTests/Fixtures/bench-reference-800x480.png"]))
        s.append(("golden-bar-rgb565", golden + ["--mode", "bar", "--format", "rgb565"]))
        s.append(("golden-button-pressed-tilted", golden + ["--mode", "annular", "--pressed", "--motion-offset", "7,-5"]))
        s.append(("bench-800x480", ["--scene", "bench", "--size", "800x480"]))
        return s
    }()

    @Test func theArm64BinaryIsAnAArch64ProgramLinkingOnlyGlibc() async throws {
        let b = try await Self.build()
        let header = Proc.run(["sh", "-c", "LC_ALL=C readelf -h '\(b.binary)'"])
        #expect(header.out.contains("Machine:                           AArch64"), "\(header.out)")
        let needed = Proc.run(["sh", "-c", "LC_ALL=C readelf -d '\(b.binary)' | sed -n 's/.*(NEEDED).*\\[\\(.*\\)\\]/\\1/p'"])
        #expect(needed.out.split(separator: "\n").sorted() == ["ld-linux-aarch64.so.1", "libc.so.6", "libm.so.6"], "\(needed.out)")
        let help = Proc.run(["qemu-aarch64-static", "-L", b.sysroot, b.binary, "--help"])
        #expect(help.status == 0 && help.out.contains("USAGE: kiosk-hud"), "\(help.err)")
    }

    @Test func theArm64BinaryDrawsWhatTheX86OneDraws() async throws {
        let b = try await Self.build()
        let stage = "/tmp/kiosk-same-pixels"
        let host = b.root + stage
        _ = Proc.run(["rm", "-rf", host])
        try makeDirectories(host + "/x86")
        try makeDirectories(host + "/arm64")
        for (from, to) in [(Proc.kioskHUD, "kiosk-hud-x86"), (b.binary, "kiosk-hud-arm64"), ("/usr/bin/qemu-aarch64-static", "qemu-aarch64-static")] {
            #expect(Proc.run(["cp", from, host + "/" + to]).status == 0, "cp \(from)")
        }
        var script = "set -e\nexport HOME=\(stage)/home\n"
        for (name, args) in Self.scenes {
            let quoted = args.map { "'" + $0 + "'" }.joined(separator: " ")
            script += "\(stage)/kiosk-hud-x86 render \(quoted) --out \(stage)/x86/\(name).png\n"
            script += "\(stage)/qemu-aarch64-static -L /cross/arm64 \(stage)/kiosk-hud-arm64 render \(quoted) --out \(stage)/arm64/\(name).png\n"
        }
        try replaceFile(host + "/render.sh", with: Array(script.utf8))
        let r = await onOwnThread { Debian13.exclusive("the same-pixels renders") { Proc.run([Proc.root + "/Tools/debian13.sh", "run", "sh", stage + "/render.sh"]) } }
        #expect(r.status == 0, "\(r.err.suffix(3000))")
        for (name, _) in Self.scenes {
            let x86 = try PNG.read(path: "\(host)/x86/\(name).png")
            let arm64 = try PNG.read(path: "\(host)/arm64/\(name).png")
            #expect(x86.width == arm64.width && x86.height == arm64.height, "\(name)")
            let differing = zip(x86.rgba, arm64.rgba).lazy.filter { $0 != $1 }.count
            #expect(differing == 0, "\(name): \(differing) bytes differ between the x86-64 and the arm64 render")
        }
    }

    /// The package as DebPackageTests checks the amd64 one, on a root whose dpkg knows arm64: it
    /// installs, enables the splash, its binary (run here under qemu-user) finds its profiles, and
    /// its unit's command starts and answers.
    @Test func theArm64PackageInstallsAndItsBinaryRuns() async throws {
        let b = try await Self.build()
        #expect(Proc.run(["dpkg-deb", "-f", b.deb, "Architecture"]).out == "arm64\n")
        let listing = Proc.run(["dpkg-deb", "-c", b.deb]).out
        for page in ["kiosk-hud.1.gz", "kiosk-hud-show.1.gz", "kiosk-hud-boards.1.gz"] {
            #expect(listing.contains("./usr/share/man/man1/" + page), "no \(page): the manual pages come from running the arm64 binary")
        }
        let root = try DpkgRoot(libc6: "2.41-12+deb13u5", architecture: "arm64")
        #expect(Proc.run(["dpkg-deb", "-f", b.deb, "Depends"]).out.hasPrefix("libc6 (>= \(DpkgRoot.glibcNeeded(by: b.binary))), "))
        #expect(DpkgRoot.glibcNeeded(by: b.binary) == "2.38", "built against Debian 13's glibc")
        let install = root.dpkg(["-i", b.deb])
        #expect(install.status == 0 && install.err.isEmpty, "\(install.err)")
        let r = root.root
        #expect(readLink(r + "/etc/systemd/system/sysinit.target.wants/kiosk-hud.service") == "/lib/systemd/system/kiosk-hud.service")
        let m = Machines.pi4TouchDisplay()
        let detect = Proc.run(["qemu-aarch64-static", "-L", b.sysroot, r + "/usr/bin/kiosk-hud", "boards", "detect"], env: ["KIOSK_BOARD_ROOT": m.root])
        #expect(detect.status == 0, "\(detect.err)")
        #expect(detect.out.contains("Chosen: rpi-touch-display (\(r)/usr/share/kiosk-hud/boards/rpi-touch-display.toml): the only match (3 rules)\n"),
                "\(detect.out)")
        // The unit's command as systemd would run it (its ExecStart; the options file's variables
        // empty), under qemu-user, with an offscreen display and a socket of the test's: it
        // starts, answers `ctl ping` (the installed binary's own ctl), and quits cleanly.
        let service = String(decoding: try readFileBytes(r + "/lib/systemd/system/kiosk-hud.service", limit: 1 << 16), as: UTF8.self)
        let exec = service.split(separator: "\n").first { $0.hasPrefix("ExecStart=") }
            .map { $0.dropFirst("ExecStart=".count).split(separator: " ").map(String.init) } ?? []
        #expect(exec.prefix(2) == ["/usr/bin/kiosk-hud", "daemon"], "\(exec)")
        let installed = ["qemu-aarch64-static", "-L", b.sysroot, r + "/usr/bin/kiosk-hud"]
        let dir = Proc.makeTempDir("kiosk-arm64-unit")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let socket = ["--socket", dir + "/c.sock"]
        let pid = try #require(Proc.spawn(installed + exec.dropFirst().filter { !$0.hasPrefix("$") }
                                          + ["--offscreen", dir, "--no-input", "--glyph-cache", "none", "--no-frame-cache"] + socket,
                                          env: ["HOME": dir], stderr: dir + "/daemon.log"))
        let answered = waitForDaemon(socket: dir + "/c.sock", binary: installed)
        #expect(answered, "no answer within 30 s: \(Proc.readFile(dir + "/daemon.log") ?? "")")
        #expect(Proc.run(installed + ["ctl", "quit"] + socket).status == 0)
        #expect(await onOwnThread { Proc.wait(pid) } == 0, "\(Proc.readFile(dir + "/daemon.log") ?? "")")

        let purge = root.dpkg(["--purge", "kiosk-hud"])
        #expect(purge.status == 0 && purge.err.isEmpty, "\(purge.err)")
    }
}
