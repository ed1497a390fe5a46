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
    @Test func thePicturesAndTheProfilesModulesAreInTheImage() throws {
        guard getuid() == 0, Proc.executable("unshare") else { print("InitramfsHookTests: not root, skipped"); return }
        guard Proc.executable("mkinitramfs"), Proc.executable("lsinitramfs") else {
            if let issue = VMGate.cannotRun("INITRAMFS HOOK TESTS", "missing mkinitramfs (apt-get install initramfs-tools)") { Issue.record(Comment(rawValue: issue)) }
            return
        }
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
}
