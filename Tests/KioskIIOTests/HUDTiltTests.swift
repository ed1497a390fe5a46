// The tilt on a HUD: scripted motion and the fake sysfs tree driving a HUD on the offscreen
// display; how far the bezel moves, what each frame damages, rotation, noise.
import KioskPresentation
import KioskSeams
import KioskTestDoubles
@testable import KioskHUD
import KioskIIO
import KioskSession
import KioskRaster
import KioskText
import Testing

/// A HUD (text mode, no animations, so only the tilt changes frames) on an offscreen display.
struct TiltScene {
    let display: OffscreenDisplay
    let clock = ManualClock()
    let hud: HUD
    let tracker: TiltTracker

    init(source: any MotionSource, depth: Double = 10, rotation: Rotation = .none, config: TiltFilter.Config = TiltFilter.Config()) throws {
        display = try OffscreenDisplay(width: 320, height: 240, rotation: rotation)
        var style = HUDStyle()
        style.motionDepth = depth
        hud = try HUD(display: display, clock: clock, fonts: try FontLibrary(), style: style,
                      content: HUDContent(mode: .text, label: "Tilt me"))
        var c = config
        c.quarterTurns = rotation.rawValue / 90
        tracker = TiltTracker(source: source, config: c)
        hud.show(animated: false)
        try hud.tick()
    }

    /// One 60 Hz frame: take samples, set the tilt, draw. Returns the damage presented.
    @discardableResult
    func frame(_ each: (() -> Void)? = nil) throws -> DamageRegion {
        clock.advance(by: 1.0 / 60)
        each?()
        let t = tracker.update(at: clock.now)
        hud.setMotion(x: t.x, y: t.y)
        return try hud.tick().damage
    }

    var motion: (x: Double, y: Double) { let s = hud.frameState(); return (s.motionX, s.motionY) }

    /// The box the renderer damages for the bezel at a whole-pixel offset.
    func bezelBox(_ dx: Int, _ dy: Int) -> IntRect {
        hud.renderer.bezelBox(HUDFrameState(motionX: Double(dx), motionY: Double(dy)))
    }
}

@Suite struct HUDTiltTests {
    @Test func tiltingRightForOneSecondMovesTheBezelByTheDepthDamagingOnlyTheBezel() throws {
        let motion = ScriptedMotion()
        let g = gravityVector(right: 40)
        motion.hold(x: g.x, y: g.y, z: g.z, from: 0, to: 1)
        let scene = try TiltScene(source: motion)
        let before = scene.display.presentCount
        var previous = 0
        var moves = 0
        for _ in 0..<60 {
            let damage = try scene.frame()
            let now = Int(scene.motion.x.rounded())
            if now == previous {
                #expect(damage.isEmpty, "no move, no damage")
            } else {
                moves += 1
                // Exactly the old and new bezel boxes (merged as DamageRegion merges them), nothing else.
                #expect(damage == DamageRegion([scene.bezelBox(previous, 0), scene.bezelBox(now, 0)]))
                #expect(scene.display.lastPresent?.damage == damage.rects)
            }
            previous = now
        }
        // After 1 s: 1 − e^(−1/0.15) = 99.87 % of the depth, drawn as the full 10 px.
        #expect(Int(scene.motion.x.rounded()) == 10 && scene.motion.y == 0)
        #expect(moves == 10 && scene.display.presentCount - before == 10)   // one present per pixel
        // The picture on screen is the bezel 10 px right, pixel for pixel.
        let ref = try HUDRenderer(width: 320, height: 240, fonts: try FontLibrary(), style: scene.hud.style,
                                  content: scene.hud.content)
        ref.renderFull(HUDFrameState(motionX: 10))
        #expect(samePixels(scene.display.screen.surface, ref.shadow.surface))
        // Back to level: back to the centre, same damage rule, then nothing more.
        let lv = gravityVector()
        motion.hold(x: lv.x, y: lv.y, z: lv.z, from: scene.clock.now, to: scene.clock.now + 1.5)
        for _ in 0..<90 { try scene.frame() }
        #expect(scene.motion == (0, 0))
        #expect(try scene.frame().isEmpty)
    }

    @Test(arguments: [0.0, 4, 10, 25])
    func depthIsConfigurableAndClamped(depth: Double) throws {
        let motion = ScriptedMotion()
        let g = gravityVector(right: 85, top: -85)          // far beyond full tilt both ways
        motion.hold(x: g.x, y: g.y, z: g.z, from: 0, to: 2)
        let scene = try TiltScene(source: motion, depth: depth)
        var most = 0.0
        for _ in 0..<120 { try scene.frame(); most = max(most, abs(scene.motion.x), abs(scene.motion.y)) }
        #expect(scene.motion.x == depth && scene.motion.y == depth)
        #expect(most == depth)                                        // never beyond ±depth
    }

    @Test(arguments: Rotation.allCases)
    func tiltRightMovesTowardsThePanelsLowerEdgeForEveryRotation(rotation: Rotation) throws {
        for (right, top, panelWant) in [(40.0, 0.0, (10.0, 0.0)), (-40, 0, (-10, 0)), (0, 40, (0, -10)), (0, -40, (0, 10))] {
            let motion = ScriptedMotion()
            let g = gravityVector(right: right, top: top)
            motion.hold(x: g.x, y: g.y, z: g.z, from: 0, to: 1.5)
            let scene = try TiltScene(source: motion, rotation: rotation)
            for _ in 0..<90 { try scene.frame() }
            // The picture offset, as the panel shows it (DisplayTransform, independent of the filter).
            let t = scene.display.transform
            let c = t.toPanel(x: 100, y: 80), m = t.toPanel(x: 100 + scene.motion.x, y: 80 + scene.motion.y)
            #expect(m.x - c.x == panelWant.0 && m.y - c.y == panelWant.1,
                    "rotation \(rotation), tilt right \(right)° top \(top)°: picture \(scene.motion)")
        }
    }

    @Test func reduceMotionNeverMovesTheBezel() throws {
        let motion = ScriptedMotion()
        let g = gravityVector(right: 60)
        motion.hold(x: g.x, y: g.y, z: g.z, from: 0, to: 1)
        let scene = try TiltScene(source: motion, config: TiltFilter.Config(reduceMotion: true))
        for _ in 0..<60 { #expect(try scene.frame().isEmpty) }
        #expect(scene.motion == (0, 0))
    }

    // MARK: Through the fake sysfs tree

    @Test func subPixelSensorNoiseNeverRedraws() throws {
        // ±12 counts (±0.7°) of noise on every axis around 14° right, at 30 Hz for 6 s: once
        // settled, not one frame is presented.
        let fs = FakeSysfs()
        fs.addAccelerometer(0, raw: rawCounts(right: 14))
        let source = IIOMotionSource()
        let sampler = IIOSampler(settings: .init(root: fs.root), log: { _ in })
        let scene = try TiltScene(source: source)
        var seed: UInt64 = 42
        func noise() -> Int { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Int(seed >> 40) % 25 - 12 }
        var presentsAfterSettling = 0
        for f in 0..<(60 * 7) {
            try scene.frame {
                if f % 2 == 0 {
                    let base = rawCounts(right: 14)
                    fs.setRaw(0, (base.0 + noise(), base.1 + noise(), base.2 + noise()))
                    source.pump(sampler, at: scene.clock.now)
                }
            }
            if f == 90 { presentsAfterSettling = scene.display.presentCount }
        }
        #expect(scene.motion.x > 3 && scene.motion.x < 6)
        #expect(scene.display.presentCount == presentsAfterSettling, "noise caused redraws")
    }

    @Test func stepResponseThroughTheFakeTree() throws {
        let fs = FakeSysfs()
        fs.addAccelerometer(0, raw: rawCounts())
        let source = IIOMotionSource()
        let sampler = IIOSampler(settings: .init(root: fs.root), log: { _ in })
        let scene = try TiltScene(source: source)
        func run(_ frames: Int) throws { for f in 0..<frames { try scene.frame { if f % 2 == 0 { source.pump(sampler, at: scene.clock.now) } } } }
        try run(30)
        #expect(scene.motion == (0, 0))
        fs.setRaw(0, (-1024, 0, 0))                  // 90° right, at once
        let t0 = scene.clock.now + 1.0 / 60           // the next frame's sample sees it
        try run(1)
        let tau = TiltFilter.Config().timeConstant
        while scene.clock.now < t0 + tau - 1e-9 { try run(1) }
        // One time constant later: 63 % of the way (the HUD rounds to whole pixels when drawing).
        let v = scene.tracker.value(at: t0 + tau).x
        #expect(abs(v - 0.632) < 0.01, "\(v)")
        try run(70)
        #expect(scene.motion == (10, 0))
    }
}

func samePixels(_ a: Surface, _ b: Surface) -> Bool {
    guard a.width == b.width, a.height == b.height else { return false }
    for y in 0..<a.height { for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { return false } }
    return true
}
