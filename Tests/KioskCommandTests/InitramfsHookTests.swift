// dist/initramfs-tools/hooks/kiosk-hud run by the host's own mkinitramfs, for the test guest's
// kernel (Tests/VM/initramfs/make.sh, prepare.sh's cache): what the settings name lands in the
// image — the pictures at their paths, the board profile's [display] modules — and what they
// name but this system has not got is a warning, not a failed build. The image booting is
// VMBootTests.bootFromTheInitramfs's.
import Glibc
import KioskSys
import KioskTestSupport
import Testing

@Suite(.serialized) struct InitramfsHookTests {
    /// Whether mkinitramfs can run here (root, unshare, initramfs-tools); a missing
    /// initramfs-tools is recorded as the VM suites record what they miss.
    static func canMakeInitramfs() -> Bool {
        guard getuid() == 0, Proc.executable("unshare") else { print("InitramfsHookTests: not root, skipped"); return false }
        guard Proc.executable("mkinitramfs"), Proc.executable("lsinitramfs") else {
            if let issue = VMGate.cannotRun("INITRAMFS HOOK TESTS", "missing mkinitramfs (apt-get install initramfs-tools)") { Issue.record(Comment(rawValue: issue)) }
            return false
        }
        return true
    }

    @Test func thePicturesAndTheProfilesModulesAreInTheImage() throws {
        guard Self.canMakeInitramfs() else { return }
        let dir = Proc.makeTempDir("kiosk-initramfs-hook")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let logo = dir + "/etc/logo.png", missing = dir + "/etc/no-such-underlay.png", board = dir + "/etc/board.toml"
        // A profile of its own (--board FILE): a logo, and a display chain of one module the
        // kernel has (cirrus, which nothing else puts in) and one it has not.
        let setup = """
            set -e
            mkdir -p "$0/etc"
            cp "$1/Tests/KioskHUDTests/Goldens/logo-alone-480x800.png" "$0/etc/logo.png"
            cat > "$0/etc/board.toml" <<EOF
            name = "hook-test"
            [display]
            modules = ["cirrus", "kiosk-no-such-module"]
            [style]
            logo = "$0/etc/logo.png"
            EOF
            echo "KIOSK_HUD_ARGS=\\"--board $0/etc/board.toml --underlay $0/etc/no-such-underlay.png --mode bar\\"" > "$0/defaults"
            """
        #expect(Proc.run(["sh", "-c", setup, dir, Proc.root]).status == 0)
        let made = Proc.run([Proc.root + "/Tests/VM/initramfs/make.sh", Proc.kioskHUD, dir + "/defaults", dir + "/initrd.img"])
        #expect(made.status == 0, "make.sh: \(made.err)")
        guard made.status == 0 else { return }
        #expect(made.err.contains("W: kiosk-hud: no module kiosk-no-such-module for kernel"), "\(made.err)")
        #expect(made.err.contains("W: kiosk-hud: the underlay \(missing) is missing"), "\(made.err)")
        #expect(!made.err.contains("no module cirrus"), "\(made.err)")
        let listed = Proc.run(["lsinitramfs", dir + "/initrd.img"])
        #expect(listed.status == 0, "lsinitramfs: \(listed.err)")
        let files = Set(listed.out.split(separator: "\n").map(String.init))
        for path in [logo, board] {
            #expect(files.contains(String(path.dropFirst())), "\(path) is not in the image")
        }
        #expect(files.contains { $0.hasSuffix("/drivers/gpu/drm/tiny/cirrus.ko") || $0.hasSuffix("/drivers/gpu/drm/tiny/cirrus.ko.xz") },
                "the profile's module cirrus is not in the image")
        #expect(files.contains("etc/default/kiosk-hud"))
    }

    /// The caches (make.sh --cache: the hook's KIOSK_HUD_CACHE): the glyphs, and the initramfs's
    /// first frame kept by the last carried-over daemon (initramfs-frame-KEY.bin), go where the
    /// initramfs's daemon looks — /var/cache/kiosk-hud, or --glyph-cache's directory — the frame
    /// as frame-KEY.bin; --glyph-cache none: neither.
    @Test(arguments: ["", "--glyph-cache /var/lib/kiosk-cache", "--glyph-cache none"])
    func theCachesGoWhereTheDaemonLooks(_ option: String) throws {
        guard Self.canMakeInitramfs() else { return }
        let dir = Proc.makeTempDir("kiosk-initramfs-cache")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let setup = """
            set -e
            mkdir -p "$0/cache"
            echo glyphs > "$0/cache/glyphs-0123.bin"
            echo frame > "$0/cache/initramfs-frame-00000000deadbeef.bin"
            echo other > "$0/cache/frame-0000000000000001.bin"
            echo "KIOSK_HUD_ARGS=\\"--mode bar $1\\"" > "$0/defaults"
            """
        #expect(Proc.run(["sh", "-c", setup, dir, option]).status == 0)
        let made = Proc.run([Proc.root + "/Tests/VM/initramfs/make.sh", Proc.kioskHUD, dir + "/defaults", dir + "/initrd.img", "--cache", dir + "/cache"])
        #expect(made.status == 0, "make.sh: \(made.err)")
        guard made.status == 0 else { return }
        let files = Set(Proc.run(["lsinitramfs", dir + "/initrd.img"]).out.split(separator: "\n").map(String.init))
        let place = option.hasSuffix("none") ? nil : option.isEmpty ? "var/cache/kiosk-hud" : "var/lib/kiosk-cache"
        let cached = files.filter { $0.contains("glyphs-0123.bin") || $0.contains("frame-") }.sorted()
        if let place {
            #expect(cached == [place + "/frame-00000000deadbeef.bin", place + "/glyphs-0123.bin"], "\(cached)")
        } else {
            #expect(cached.isEmpty, "\(cached)")
        }
    }
}
