// The HUD on cage, the kiosk compositor without the layer shell: cage 0.2.0 (Debian 13, what a
// Raspberry Pi OS user gets) headless (pixman) in the Debian 13 root, as an ordinary user, with
// the test app as its kiosk app. kiosk-hud's surface is then one xdg toplevel, which cage stacks
// over the app's and blends: the picture must equal `render --overlay` over the app's, pixel for
// pixel, as on sway and labwc. A click beside the bezel reaches the app (the input region is the
// bezel), a click on the button ends `show --on-button exit` with 10. The clicks come from the
// test app's `--click` (a virtual pointer of its own: cage has no seat commands), while the app
// holds one for the whole run, as a board's touchscreen is there from the start (a client asks
// for the seat's pointer when the seat says it has one: a device made and gone within one click
// would not reach a client that had none). Then a root daemon's HUD through `kiosk-hud overlay`:
// shown, hidden (the window unmapped, so that the app has the keyboard again), shown again. Debian 12's cage 0.1.4
// (wlroots 0.15) stops drawing after its first frame when headless with pixman ("Basic output
// test failed"), so it is not the one checked here.
import Glibc
import KioskPNG
import KioskTestSupport
import Testing

@Suite struct CageOverlayTests {
    static let still = ["--mode", "annular", "--progress", "0.6", "--label", "Loading…", "--details", "Updating firmware 3 of 7", "--button", "Cancel"]
    static let (width, height) = (1280, 720)

    /// The script run in the root: cage with the app as nobody, the HUD, the shots, two clicks.
    static func script(stage: String, hud: [String], button: (x: Int, y: Int)) -> String {
        let hudArgs = hud.map { "'" + $0 + "'" }.joined(separator: " ")
        return """
            set -u
            S=\(stage); RT=$S/rt
            dpkg -s cage grim >/dev/null 2>&1 || { apt-get update -q >/dev/null 2>&1; apt-get install -y -q --no-install-recommends cage grim >$S/apt.log 2>&1 || { echo "apt-get install cage grim failed"; tail -5 $S/apt.log; exit 3; }; }
            install -d -m 0700 -o 65534 -g 65534 $RT
            as="setpriv --reuid=65534 --regid=65534 --clear-groups env -i PATH=/usr/bin:/bin HOME=$RT XDG_RUNTIME_DIR=$RT WAYLAND_DISPLAY=wayland-0"
            pids=""
            trap 'for p in $pids; do kill -9 $p 2>/dev/null; done' EXIT
            $as env WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 WLR_HEADLESS_OUTPUTS=1 cage -- $S/app --virtual-pointer >$S/app.log 2>$RT/cage.log & pids="$pids $!"
            i=0; while ! grep -q '^ready' $S/app.log && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
            grep -q '^ready' $S/app.log || { echo "cage or the app did not start"; tail -20 $RT/cage.log; exit 4; }
            $as grim $RT/before.png || exit 5
            $as $S/kiosk-hud show --wayland auto --glyph-cache none --on-button exit \(hudArgs) >$S/hud.log 2>&1 & h=$!; pids="$pids $h"
            i=0; while ! grep -q 'first-frame ' $S/hud.log && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
            for n in 1 2 3 4 5; do sleep 0.3; $as grim $RT/after-$n.png; done
            $as $S/app --virtual-pointer --click 40 40 \(width) \(height)
            i=0; while ! grep -q 'button pressed 40 40' $S/app.log && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
            kill -0 $h 2>/dev/null && echo "hud running after the click beside it"
            $as $S/app --virtual-pointer --click \(button.x) \(button.y) \(width) \(height)
            i=0; while kill -0 $h 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
            kill -0 $h 2>/dev/null && echo "hud still running" || { wait $h; echo "hud exit $?"; }
            # A root daemon's HUD through `kiosk-hud overlay`: shown, hidden (the window unmapped,
            # the keyboard the app's again), shown again (mapped again).
            install -d -m 0755 $S/d
            ctl="$S/kiosk-hud ctl --socket $S/d/control.sock"
            $S/kiosk-hud daemon --offscreen - --socket $S/d/control.sock --group nogroup --glyph-cache none --hidden \(hudArgs) >$S/daemon.log 2>&1 & d=$!; pids="$pids $d"
            i=0; while ! grep -q 'control socket: listening' $S/daemon.log && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
            $as $S/kiosk-hud overlay --socket $S/d/control.sock >$S/overlay.log 2>&1 & o=$!; pids="$pids $o"
            i=0; while ! grep -q 'overlay: following the daemon' $S/overlay.log && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
            for step in shown hidden again; do
                case $step in hidden) $S/kiosk-hud ctl hide --no-animated --socket $S/d/control.sock ;; *) $S/kiosk-hud ctl show --no-animated --socket $S/d/control.sock ;; esac
                for n in 1 2 3 4 5; do sleep 0.3; $as grim $RT/$step-$n.png; done
            done
            kill $o; wait $o; echo "overlay exit $?"
            kill $d; wait $d; echo "daemon exit $?"
            """
    }

    @Test func theHUDOnCageIsAToplevelOverTheApp() async throws {
        // The button's centre, as `render --print-layout` lays it out at the output's size.
        let dir = Proc.makeTempDir("kiosk-cage-layout")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let layout = Proc.run([Proc.kioskHUD, "render", "--size", "\(Self.width)x\(Self.height)", "--print-layout", "-o", dir + "/layout.png"] + Self.still)
        let box = layout.out.split(separator: "\n").first { $0.hasPrefix("button ") }.map { $0.split(separator: " ").dropFirst().compactMap { Double($0) } }
        let b = try #require(box, "render --print-layout: \(layout.out) \(layout.err)")
        let button = (x: Int(b[0] + b[2] / 2), y: Int(b[1] + b[3] / 2))
        let result = await onOwnThread {
            Debian13Stage.run("cage's overlay", prefix: "kiosk-cage", logs: ["hud.log", "app.log", "daemon.log", "overlay.log"]) {
                Self.script(stage: $0, hud: Self.still, button: button)
            }
        }
        let (stage, text) = try result.get()
        #expect(text.contains("button pressed 40 40"), "the click beside the HUD did not reach the app: \(text)")
        #expect(text.contains("hud running after the click beside it"), "\(text)")
        #expect(text.contains("hud exit 10"), "the click on the button did not end show with 10: \(text)")
        // The HUD as cage shows it: render --overlay blended over the app's picture.
        let shots = try StagedShots(stage: stage, hud: Self.still)
        let (expected, before) = (shots.expected, shots.before)
        let counts = [shots.fewestDiffering("after", from: expected), shots.fewestDiffering("shown", from: expected),
                      shots.fewestDiffering("hidden", from: before), shots.fewestDiffering("again", from: expected)]
        #expect(counts[0] == 0, "cage's screen differs from render --overlay over the app in \(counts[0]) pixels at best (kept: \(stage))")
        #expect(counts[1] == 0 && counts[3] == 0, "the overlay's HUD, shown and shown again: \(counts[1]) and \(counts[3]) pixels differ (kept: \(stage))")
        #expect(counts[2] == 0, "the overlay hidden: \(counts[2]) pixels are not the app's (kept: \(stage))")
        #expect(text.contains("overlay exit 0") && text.contains("daemon exit 0"), "\(text)")
        if counts.allSatisfy({ $0 == 0 }) { _ = Proc.run(["rm", "-rf", stage]) }
    }
}
