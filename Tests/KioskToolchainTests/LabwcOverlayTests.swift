// The overlay on labwc, Raspberry Pi OS's compositor (Debian 13 packages 0.8.3): in the Debian 13
// root (Tools/debian13.sh; labwc and grim installed there on first use), labwc headless (pixman)
// as an ordinary user, `kiosk-hud show --wayland auto` as that user — its picture, grim's, equal
// to `render --overlay` blended over the screen before it, pixel for pixel — and
// `--until-window` ending once the test app's window is mapped; and `kiosk-hud overlay` drawing a
// root daemon's HUD the same. The host's kiosk-hud runs there
// as it is (it links glibc only), and so does the test app (libwayland-client.so.0, the root's).
import Glibc
import KioskPNG
import KioskTestSupport
import Testing

@Suite struct LabwcOverlayTests {
    /// The script run in the root: labwc as nobody, the shots and the HUDs; every process it
    /// started ended before it returns (the root's runner waits for its output's end).
    static func script(stage: String, hud: [String]) -> String {
        let hudArgs = hud.map { "'" + $0 + "'" }.joined(separator: " ")
        return """
            set -u
            S=\(stage); RT=$S/rt
            dpkg -s labwc grim >/dev/null 2>&1 || { apt-get update -q >/dev/null 2>&1; apt-get install -y -q --no-install-recommends labwc grim >$S/apt.log 2>&1 || { echo "apt-get install labwc grim failed"; tail -5 $S/apt.log; exit 3; }; }
            install -d -m 0700 -o 65534 -g 65534 $RT
            # Words, not a function: `as … &` would fork a subshell, and $! be its pid, not the program's.
            as="setpriv --reuid=65534 --regid=65534 --clear-groups env -i PATH=/usr/bin:/bin HOME=$RT XDG_RUNTIME_DIR=$RT WAYLAND_DISPLAY=wayland-0"
            pids=""
            trap 'for p in $pids; do kill -9 $p 2>/dev/null; done' EXIT
            $as env WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 labwc >$RT/labwc.log 2>&1 & pids="$pids $!"
            i=0; while [ ! -S $RT/wayland-0 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
            [ -S $RT/wayland-0 ] || { echo "labwc did not start"; tail -20 $RT/labwc.log; exit 4; }
            sleep 0.5
            $as grim $RT/before.png || exit 5
            $as $S/kiosk-hud show --wayland auto --glyph-cache none \(hudArgs) >$S/hud.log 2>&1 & h=$!; pids="$pids $h"
            i=0; while ! grep -q 'first-frame ' $S/hud.log && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
            for n in 1 2 3 4 5; do sleep 0.3; $as grim $RT/after-$n.png; done
            kill $h; wait $h; echo "hud exit $?"
            # The daemon's HUD (root's daemon, offscreen) drawn by the overlay of labwc's user.
            install -d -m 0755 $S/d
            $S/kiosk-hud daemon --offscreen - --socket $S/d/control.sock --group nogroup --glyph-cache none \(hudArgs) >$S/daemon.log 2>&1 & d=$!; pids="$pids $d"
            i=0; while ! grep -q 'control socket: listening' $S/daemon.log && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
            $as $S/kiosk-hud overlay --socket $S/d/control.sock >$S/overlay.log 2>&1 & o=$!; pids="$pids $o"
            i=0; while ! grep -q 'overlay: following the daemon' $S/overlay.log && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
            for n in 1 2 3 4 5; do sleep 0.3; $as grim $RT/overlay-$n.png; done
            kill $o; wait $o; echo "overlay exit $?"
            kill $d; wait $d; echo "daemon exit $?"
            $as $S/kiosk-hud show --wayland auto --glyph-cache none --until-window kiosk-test-app --label Starting >$S/until.log 2>&1 & u=$!; pids="$pids $u"
            i=0; while ! grep -q 'first-frame ' $S/until.log && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
            kill -0 $u 2>/dev/null && echo "until running before the app"
            $as $S/app >$S/app.log 2>&1 & pids="$pids $!"
            i=0; while kill -0 $u 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
            kill -0 $u 2>/dev/null && echo "until still running" || { wait $u; echo "until exit $?"; }
            """
    }

    static let still = ["--mode", "annular", "--progress", "0.6", "--label", "Loading…", "--details", "Updating firmware 3 of 7", "--button", "Cancel"]

    @Test func theOverlayOnLabwc() async throws {
        let result = await onOwnThread {
            Debian13Stage.run("labwc's overlay", prefix: "kiosk-labwc", logs: ["hud.log", "daemon.log", "overlay.log", "until.log", "app.log"]) {
                Self.script(stage: $0, hud: Self.still)
            }
        }
        let (stage, text) = try result.get()
        #expect(text.contains("hud exit 0"), "\(text)")
        #expect(text.contains("until running before the app") && text.contains("until exit 0"), "\(text)")
        #expect(text.contains("window kiosk-test-app is on screen: the HUD ends"), "\(text)")

        // The HUD as the compositor shows it: render --overlay blended over the screen before it.
        let shots = try StagedShots(stage: stage, hud: Self.still)
        let (shown, followed) = (shots.fewestDiffering("after", from: shots.expected), shots.fewestDiffering("overlay", from: shots.expected))
        #expect(shown == 0, "labwc's screen differs from render --overlay over it in \(shown) pixels at best (kept: \(stage))")
        // The same HUD, the daemon's, drawn by `kiosk-hud overlay`.
        #expect(followed == 0, "with the overlay following the daemon, labwc's screen differs in \(followed) pixels at best (kept: \(stage))")
        #expect(text.contains("overlay exit 0") && text.contains("daemon exit 0"), "\(text)")
        if shown == 0 && followed == 0 { _ = Proc.run(["rm", "-rf", stage]) }
    }
}
