// `kiosk-hud show --wayland` and `run --wayland` over a running compositor, as a kiosk has them:
// Debian 12's sway 1.7 headless (pixman), started as an ordinary user, a fullscreen app of known
// pixels (Tests/Wayland/kiosk-wl-app.c), kiosk-hud run as the compositor's user, grim's
// screenshots (wlr-screencopy) and sway's seat commands (a pointer given to the seat by the app's
// virtual pointer). The picture must equal `kiosk-hud render` of the same options over the app's
// screenshot: the overlay is premultiplied and the compositor blends it as the renderer would.
// Skipping is a failure: sway, grim and gcc are in the README's install line.
import Glibc
import KioskPNG
import KioskTestSupport
import Testing

@Suite(.serialized) struct WaylandOverlayTests {
    /// A HUD that does not move: no spinner, no animation.
    static let still = ["--mode", "annular", "--progress", "0.6", "--label", "Loading…", "--details", "Updating firmware 3 of 7",
                        "--button", "Cancel"]

    /// kiosk-hud where the compositor's user can run it.
    static let copy: Result<StrangerCopy, any Error> = Result { try StrangerCopy([Proc.kioskHUD]) }

    func ready() throws -> (SwayHeadless.Type, StrangerCopy) {
        if let missing = SwayHeadless.missing { Issue.record("the Wayland tests cannot run here: \(missing)"); throw Skip() }
        return (SwayHeadless.self, try Self.copy.get())
    }
    struct Skip: Error {}
    struct WaylandTestError: Error, CustomStringConvertible { var description: String }

    /// `show` (or `run`) as the compositor's user, its log in the runtime directory.
    final class HUDProcess {
        let pid: pid_t
        let log: String
        init(_ sway: SwayHeadless, _ args: [String]) throws {
            let copy = try WaylandOverlayTests.copy.get()
            log = sway.runtimeDir + "/hud-\(UInt32.random(in: 0...UInt32.max)).log"
            guard let pid = Proc.spawn(sway.asCompositorUser([copy.path(Proc.kioskHUD)] + args), stderr: log) else {
                throw WaylandTestError(description: "cannot start kiosk-hud \(args)")
            }
            self.pid = pid
        }
        var text: String { Proc.readFile(log) ?? "" }
        /// Waits for the first frame's log line.
        func waitForFirstFrame() -> Bool { waitUntil(15) { text.contains("first-frame ") } }
        /// Waits for the exit; its status, nil after `seconds`.
        func exitStatus(within seconds: Double) -> Int32? {
            var status: Int32 = 0
            var result: Int32?
            _ = waitUntil(seconds) {
                let r = waitpid(pid, &status, WNOHANG)
                if r == pid { result = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f); return true }
                return r == -1
            }
            return result
        }
        func stop() -> Int32? {
            kill(pid, SIGTERM)
            if let s = exitStatus(within: 10) { return s }
            kill(pid, SIGKILL)
            return exitStatus(within: 5)
        }
    }

    /// What the compositor shows: `kiosk-hud render --overlay` of `args` at the output's size
    /// (the HUD over nothing, straight alpha) premultiplied again — exact: premultiplying undoes
    /// the PNG writer's rounding — and blended over `underlay` (a screenshot of the app) with
    /// pixman's SrcOver, as sway's renderer does: d' = s + MUL(d, 255 - sa).
    func overApp(_ args: [String], width: Int, height: Int, underlay: String, dir: String) throws -> PNGImage {
        let out = dir + "/overlay-\(width)x\(height)-\(UInt32.random(in: 0...UInt32.max)).png"
        let r = Proc.run([Proc.kioskHUD, "render", "--size", "\(width)x\(height)", "--overlay", "-o", out] + args)
        guard r.status == 0 else { throw WaylandTestError(description: "kiosk-hud render --overlay: \(r.err)") }
        let hud = try PNG.read(path: out), app = try PNG.read(path: underlay)
        guard hud.width == app.width, hud.height == app.height else {
            throw WaylandTestError(description: "the overlay is \(hud.width)x\(hud.height), the app's screenshot \(app.width)x\(app.height)")
        }
        var out2 = app
        out2.rgba = OverlayBlend.blend(hud.rgba, over: app.rgba)
        return out2
    }

    /// How a screenshot differs from `render`'s picture: pixels whose colour differs, the largest
    /// difference of a channel, and the differing pixels outside `box` (alpha ignored: grim's
    /// is opaque).
    struct Difference: CustomStringConvertible {
        var pixels = 0, largest = 0, outside = 0
        var isNone: Bool { pixels == 0 }
        var description: String { "\(pixels) pixels differ (by up to \(largest)), \(outside) outside the bezel" }
    }

    func difference(_ a: PNGImage, _ b: PNGImage, box: (x: Int, y: Int, w: Int, h: Int)) -> Difference {
        guard a.width == b.width, a.height == b.height else { return Difference(pixels: Int.max, largest: 255, outside: Int.max) }
        var d = Difference()
        for y in 0..<a.height {
            for x in 0..<a.width {
                let i = (y * a.width + x) * 4
                let m = max(abs(Int(a.rgba[i]) - Int(b.rgba[i])), abs(Int(a.rgba[i + 1]) - Int(b.rgba[i + 1])), abs(Int(a.rgba[i + 2]) - Int(b.rgba[i + 2])))
                guard m > 0 else { continue }
                d.pixels += 1
                d.largest = max(d.largest, m)
                if x < box.x || x >= box.x + box.w || y < box.y || y >= box.y + box.h { d.outside += 1 }
            }
        }
        return d
    }

    /// Takes screenshots of `output` until one is `expected` (the compositor shows a commit at
    /// its next frame), up to 5 s; how the last differs.
    func settle(_ sway: SwayHeadless, output: String, expected: PNGImage, box: (x: Int, y: Int, w: Int, h: Int)) throws -> Difference {
        var d = Difference()
        _ = try waitUntilThrowing(5) {
            d = difference(try PNG.read(path: try sway.screenshot(output: output)), expected, box: box)
            return d.isNone
        }
        return d
    }

    func waitUntilThrowing(_ seconds: Double, _ condition: () throws -> Bool) throws -> Bool {
        var failure: Error?
        let ok = waitUntil(seconds) {
            do { return try condition() } catch { failure = error; return true }
        }
        if let failure { throw failure }
        return ok
    }

    /// The bezel's and the button's boxes in picture pixels (`render --print-layout`).
    func layout(_ args: [String], width: Int, height: Int, dir: String) throws -> (bezel: (x: Int, y: Int, w: Int, h: Int), button: (x: Double, y: Double)) {
        let r = Proc.run([Proc.kioskHUD, "render", "--size", "\(width)x\(height)", "--print-layout", "-o", dir + "/layout.png"] + args)
        func box(_ name: String) -> [Double]? {
            r.out.split(separator: "\n").first { $0.hasPrefix(name + " ") }.map { $0.split(separator: " ").dropFirst().compactMap { Double($0) } }
        }
        guard r.status == 0, let b = box("bezel"), let k = box("button"), b.count == 4, k.count == 4 else {
            throw WaylandTestError(description: "render --print-layout: \(r.out) \(r.err)")
        }
        return ((Int(b[0]), Int(b[1]), Int(b[2].rounded(.up)), Int(b[3].rounded(.up))), (k[0] + k[2] / 2, k[1] + k[3] / 2))
    }

    /// `show --wayland` of `args` over the app on every output equals `render --overlay` of the
    /// same blended over the app's screenshot, pixel for pixel.
    func expectRenderings(_ sway: SwayHeadless, _ args: [String], before: [String], renderArgs: [String] = []) throws {
        for (i, o) in sway.outputs.enumerated() {
            let expected = try overApp(args + renderArgs, width: o.width, height: o.height, underlay: before[i], dir: sway.runtimeDir)
            let bezel = try layout(args + renderArgs, width: o.width, height: o.height, dir: sway.runtimeDir).bezel
            let d = try settle(sway, output: SwayHeadless.outputName(i), expected: expected, box: bezel)
            #expect(d.isNone, "\(SwayHeadless.outputName(i)): \(d), against render --overlay \((args + renderArgs).joined(separator: " ")) over the app")
        }
    }

    // MARK: The picture

    /// The app on `outputs`, a still HUD shown over it, and each output's picture checked
    /// against `render --overlay` (with `renderArgs`) blended over the app; the HUD's log.
    func showOverTheApp(_ outputs: [SwayHeadless.Output], renderArgs: [String] = []) throws -> String {
        _ = try ready()
        let sway = try SwayHeadless(outputs: outputs)
        defer { sway.stop() }
        _ = try sway.startApp()
        let before = try outputs.indices.map { try sway.screenshot(output: SwayHeadless.outputName($0)) }
        let hud = try HUDProcess(sway, ["show", "--wayland", sway.socket, "--glyph-cache", "none"] + Self.still)
        defer { _ = hud.stop() }
        #expect(hud.waitForFirstFrame(), "no first frame: \(hud.text)")
        try expectRenderings(sway, Self.still, before: before, renderArgs: renderArgs)
        return hud.text.replacing(sway.socket, with: "SOCKET")
    }

    @Test func theHUDOverTheAppIsRendersOverlayBlendedOverIt() throws {
        let log = try showOverTheApp([.init(width: 800, height: 480, scale: 1)])
        #expect(log.contains("output wayland socket=SOCKET outputs="), "\(log)")
    }

    @Test func atScaleTwoTheHUDIsDrawnAtTwiceItsSize() throws {
        let log = try showOverTheApp([.init(width: 800, height: 480, scale: 2)], renderArgs: ["--scale", "2"])
        #expect(log.contains("400x240 scale 2: picture 800x480"), "\(log)")
    }

    @Test func everyOutputHasTheHUD() throws {
        _ = try showOverTheApp([.init(width: 800, height: 480, scale: 1), .init(width: 640, height: 400, scale: 1)])
    }

    // MARK: The button and the app under the HUD

    @Test func aPressOnTheButtonEndsShowWith10() throws {
        _ = try ready()
        let sway = try SwayHeadless(outputs: [.init(width: 800, height: 480, scale: 1)])
        defer { sway.stop() }
        let app = try sway.startApp(virtualPointer: true)
        // `auto`: $WAYLAND_DISPLAY, as the compositor's session has it (docs/wayland.md).
        let hud = try HUDProcess(sway, ["show", "--wayland", "auto", "--glyph-cache", "none", "--on-button", "exit"] + Self.still)
        defer { _ = hud.stop() }
        #expect(hud.waitForFirstFrame(), "no first frame: \(hud.text)")
        // A click outside the bezel reaches the app (nothing dims it: the input region is the bezel).
        try sway.click(x: 40, y: 40)
        #expect(app.waitForLine("button pressed 40 40"), "the app did not get the click beside the HUD: \(app.lines)")
        let b = try layout(Self.still, width: 800, height: 480, dir: sway.runtimeDir).button
        try sway.click(x: Int(b.x), y: Int(b.y))
        #expect(hud.exitStatus(within: 10) == 10, "show did not end with 10 on the button: \(hud.text)")
        #expect(!app.lines.contains("button pressed \(Int(b.x)) \(Int(b.y))"), "the press on the button went to the app too")
    }

    @Test func cancelOnRunsHUDEndsTheCommandWith130() throws {
        _ = try ready()
        let sway = try SwayHeadless(outputs: [.init(width: 800, height: 480, scale: 1)])
        defer { sway.stop() }
        _ = try sway.startApp(virtualPointer: true)
        let args = ["--mode", "indeterminate", "--label", "Working", "--scale", "1"]
        let hud = try HUDProcess(sway, ["run", "--hud", "display", "--wayland", sway.socket, "--glyph-cache", "none"] + args + ["--", "sleep", "60"])
        defer { _ = hud.stop() }
        #expect(hud.waitForFirstFrame(), "no first frame: \(hud.text)")
        // run's button is "Cancel" (--cancel-title's default).
        let b = try layout(args + ["--button", "Cancel"], width: 800, height: 480, dir: sway.runtimeDir).button
        try sway.click(x: Int(b.x), y: Int(b.y))
        #expect(hud.exitStatus(within: 15) == 130, "run did not end with 130 on Cancel: \(hud.text)")
    }

    // MARK: From the splash to the app

    @Test func theHUDEndsWhenTheAppsWindowIsMapped() throws {
        _ = try ready()
        let sway = try SwayHeadless(outputs: [.init(width: 800, height: 480, scale: 1)])
        defer { sway.stop() }
        let waiting = try HUDProcess(sway, ["show", "--wayland", sway.socket, "--glyph-cache", "none", "--until-window", "kiosk-test-app"] + Self.still)
        let other = try HUDProcess(sway, ["show", "--wayland", sway.socket, "--glyph-cache", "none", "--until-window", "another-app"] + Self.still)
        defer { _ = waiting.stop(); _ = other.stop() }
        #expect(waiting.waitForFirstFrame() && other.waitForFirstFrame(), "no first frame: \(waiting.text) \(other.text)")
        #expect(waiting.exitStatus(within: 0.5) == nil, "the HUD ended with no app: \(waiting.text)")
        let app = try sway.startApp()
        #expect(waiting.exitStatus(within: 10) == 0, "the HUD did not end at the app's window: \(waiting.text)")
        #expect(waiting.text.contains("window kiosk-test-app is on screen: the HUD ends"), "\(waiting.text)")
        #expect(other.exitStatus(within: 0.5) == nil, "a HUD waiting for another app ended: \(other.text)")
        #expect(other.stop() == 0)
        // The HUDs gone, the app's picture is all there is.
        var wrong = Int.max
        _ = try waitUntilThrowing(5) {
            let shot = try PNG.read(path: try sway.screenshot())
            wrong = 0
            for y in stride(from: 0, to: shot.height, by: 7) {
                for x in stride(from: 0, to: shot.width, by: 7) {
                    let p = TestApp.pixel(x: x, y: y, width: app.width, height: app.height), i = (y * shot.width + x) * 4
                    if shot.rgba[i] != p.r || shot.rgba[i + 1] != p.g || shot.rgba[i + 2] != p.b { wrong += 1 }
                }
            }
            return wrong == 0
        }
        #expect(wrong == 0, "\(wrong) sampled pixels are not the app's")
    }

    @Test func untilWindowGoesWithWaylandOnly() {
        let r = Proc.run([Proc.kioskHUD, "show", "--offscreen", "-", "--until-window", "any", "--duration", "0"])
        #expect(r.status == 64, "\(r.err)")
        #expect(r.err.contains("--until-window goes with --wayland"), "\(r.err)")
    }

    // MARK: The compositor's end, and who may connect

    @Test func theCompositorKilledMidShowEndsNothingElse() throws {
        _ = try ready()
        let sway = try SwayHeadless(outputs: [.init(width: 800, height: 480, scale: 1)])
        defer { sway.stop() }
        let hud = try HUDProcess(sway, ["show", "--wayland", sway.socket, "--glyph-cache", "none", "--mode", "indeterminate", "--label", "Busy"])
        #expect(hud.waitForFirstFrame(), "no first frame: \(hud.text)")
        _ = sway.killCompositor(signal: SIGKILL)
        #expect(waitUntil(10) { hud.text.contains("wayland: ") && hud.text.contains("compositor") }, "the end went unsaid: \(hud.text)")
        #expect(hud.exitStatus(within: 1) == nil, "show died with the compositor: \(hud.text)")
        #expect(hud.stop() == 0, "show did not end cleanly on SIGTERM: \(hud.text)")
    }

    @Test func aRootHUDRefusesAUsersCompositor() throws {
        _ = try ready()
        let sway = try SwayHeadless(outputs: [.init(width: 800, height: 480, scale: 1)])
        defer { sway.stop() }
        let r = Proc.run([Proc.kioskHUD, "show", "--wayland", sway.socket, "--duration", "1", "--glyph-cache", "none"])
        #expect(r.status != 0)
        #expect(r.err.contains("runs as uid \(Stranger.uid), not root"), "\(r.err)")
    }

    @Test func noCompositorThereIsOneClearError() throws {
        let r = Proc.run([Proc.kioskHUD, "show", "--wayland", "/nonexistent/wayland-9", "--duration", "1"])
        #expect(r.status != 0)
        #expect(r.err.contains("no Wayland compositor answers at /nonexistent/wayland-9"), "\(r.err)")
    }
}

