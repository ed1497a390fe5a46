// TiltFilter: gravity → tilt → dead zone / hysteresis → −1…1 → rotation → low-pass; release.
import Testing
@testable import KioskPresentation

private let g = TiltFilter.standardGravity
private let pi = 3.141592653589793

/// The reading of a resting sensor tilted so that the panel's right edge is `right` degrees
/// below level and its top edge `top` degrees below level (reaction to gravity: (0, 0, +g)
/// face up).
private func gravity(right: Double = 0, top: Double = 0) -> (x: Double, y: Double, z: Double) {
    // Independent of the filter's own trig: small Taylor sin/cos are not good enough for 90°, so
    // build from exact values where they matter and kioskExp-free series otherwise.
    func sin(_ d: Double) -> Double {
        let r = d * pi / 180
        var term = r, sum = r, n = 1.0
        for _ in 0..<20 { term *= -r * r / ((n + 1) * (n + 2)); n += 2; sum += term }
        return sum
    }
    let sx = sin(right), sy = sin(top)
    let x = -sx * g, y = -sy * g
    let z = max(0, g * g - x * x - y * y).squareRoot()
    return (x, y, z)
}

private extension TiltFilter {
    mutating func add(_ a: (x: Double, y: Double, z: Double), at t: Double) -> Bool {
        add(x: a.x, y: a.y, z: a.z, at: t)
    }
    /// Holds a reading at `interval` from `start` to `end`.
    mutating func hold(_ a: (x: Double, y: Double, z: Double), from start: Double, to end: Double, interval: Double = 1.0 / 30) {
        var t = start
        while t <= end + 1e-9 { _ = add(a, at: t); t += interval }
    }
}

@Suite struct TiltFilterTests {
    // MARK: Elementary functions

    @Test func arctangentAndArcsineAreAccurate() {
        let cases: [(Double, Double)] = [(0, 0), (1, pi / 4), (-1, -pi / 4), (0.5, 0.4636476090008061),
                                         (3, 1.2490457723982544), (-1e6, -1.5707953267948966), (0.2679491924311227, pi / 12)]
        for (x, want) in cases { #expect(approx(kioskAtan(x), want, 1e-15), "atan(\(x))") }
        #expect(kioskAtan(.infinity) == pi / 2 && kioskAtan(-.infinity) == -pi / 2)
        #expect(kioskAtan(.nan).isNaN)
        #expect(approx(arcsine(0.5), pi / 6, 1e-15))
        #expect(arcsine(1) == pi / 2 && arcsine(-1) == -pi / 2 && arcsine(7) == pi / 2)
    }

    // MARK: Direction and magnitude

    @Test func levelIsCentreAndTiltRightMovesRight() {
        var f = TiltFilter(config: .init(timeConstant: 0))
        let used = f.add(gravity(), at: 0)
        #expect(used)
        #expect(f.value(at: 0) == (0, 0))
        _ = f.add(gravity(right: 45), at: 1)
        #expect(f.value(at: 1) == (1, 0))           // beyond 30°: full depth, right
        _ = f.add(gravity(right: -45), at: 2)
        #expect(f.value(at: 2) == (-1, 0))
        _ = f.add(gravity(top: 45), at: 3)          // top edge down: up the screen (y < 0)
        #expect(f.value(at: 3) == (0, -1))
        _ = f.add(gravity(top: -45), at: 4)
        #expect(f.value(at: 4) == (0, 1))
    }

    @Test func linearBetweenDeadZoneAndFullTilt() {
        var f = TiltFilter(config: .init(timeConstant: 0, deadZone: 2, fullTilt: 22))
        _ = f.add(gravity(right: 12), at: 0)        // (12 − 2) / (22 − 2)
        #expect(approx(f.value(at: 0).x, 0.5, 1e-9))
        _ = f.add(gravity(right: -7), at: 1)
        #expect(approx(f.value(at: 1).x, -0.25, 1e-9))
        _ = f.add(gravity(right: 1.9), at: 2)       // inside the dead zone
        #expect(f.value(at: 2).x == 0)
    }

    @Test func offsetIsClampedToDepth() {
        var f = TiltFilter(config: .init(timeConstant: 0))
        for (i, angle) in [31.0, 45, 60, 89, 90].enumerated() {
            _ = f.add(gravity(right: angle, top: -angle), at: Double(i))
            let d = f.offset(at: Double(i), depth: 10)
            #expect(d.dx == 10 && d.dy == 10, "\(angle)°")
        }
        // Upside down (face down) still clamps: only the in-plane components count.
        _ = f.add(x: -g, y: 0, z: -0.5, at: 10)
        #expect(f.offset(at: 10, depth: 12).dx == 12)
        #expect(f.offset(at: 10, depth: 0) == (0, 0))
    }

    @Test func magnitudeDoesNotMatterOnlyDirection() {
        var a = TiltFilter(config: .init(timeConstant: 0)), b = a
        let v = gravity(right: 10, top: 20)
        _ = a.add(v, at: 0)
        _ = b.add((v.x * 1.5, v.y * 1.5, v.z * 1.5), at: 0)
        #expect(approx(a.value(at: 0).x, b.value(at: 0).x) && approx(a.value(at: 0).y, b.value(at: 0).y))
    }

    // MARK: Rotation

    /// The panel-frame offset for a tilt, turned by `quarterTurns` as DisplayTransform.toPicture
    /// turns a vector (checked point-wise in KioskIIOTests against DisplayTransform itself).
    @Test(arguments: [(0, (1.0, 0.5)), (1, (0.5, -1.0)), (2, (-1.0, -0.5)), (3, (-0.5, 1.0))])
    func rotationTurnsTheOffset(quarterTurns: Int, want: (Double, Double)) {
        // Panel: right edge down (x = +1), bottom edge down by half the full tilt (y = +0.5).
        var f = TiltFilter(config: .init(timeConstant: 0, deadZone: 0, fullTilt: 30, quarterTurns: quarterTurns))
        _ = f.add(gravity(right: 40, top: -15), at: 0)
        let v = f.value(at: 0)
        #expect(approx(v.x, want.0, 1e-9) && approx(v.y, want.1, 1e-9), "\(quarterTurns) turns: \(v)")
    }

    @Test func negativeAndLargeQuarterTurnsWrap() {
        var a = TiltFilter(config: .init(timeConstant: 0, quarterTurns: -1))
        var b = TiltFilter(config: .init(timeConstant: 0, quarterTurns: 7))
        _ = a.add(gravity(right: 45), at: 0)
        _ = b.add(gravity(right: 45), at: 0)
        #expect(a.value(at: 0) == (0, 1) && b.value(at: 0) == (0, 1))
    }

    // MARK: Low-pass

    @Test func stepResponseIsFirstOrder() {
        let tau = 0.15
        var f = TiltFilter(config: .init(timeConstant: tau))
        _ = f.add(gravity(), at: 0)
        _ = f.add(gravity(right: 90), at: 1)        // step to +1 at t = 1
        #expect(f.value(at: 1).x == 0)
        #expect(approx(f.value(at: 1 + tau).x, 1 - kioskExp(-1), 1e-12))        // 63.2 %
        #expect(approx(f.value(at: 1 + 3 * tau).x, 1 - kioskExp(-3), 1e-12))    // 95.0 %
        #expect(f.isMoving(at: 1 + 3 * tau))
        // Within 1/1000 it snaps onto the target and stops moving: 0.15 × ln 1000 ≈ 1.04 s.
        #expect(f.value(at: 2.1).x == 1)
        #expect(!f.isMoving(at: 2.1))
        #expect(f.destination == (1, 0))
    }

    @Test func irregularSampleIntervalsGiveTheSameCurve() {
        // The same held tilt sampled at 30 Hz, at jittery intervals, and once: identical output.
        let tau = 0.2
        var regular = TiltFilter(config: .init(timeConstant: tau))
        var jittery = regular, once = regular
        _ = regular.add(gravity(), at: 0); _ = jittery.add(gravity(), at: 0); _ = once.add(gravity(), at: 0)
        regular.hold(gravity(right: 20), from: 0.5, to: 1.5)
        var t = 0.5, k = 0
        let gaps = [0.011, 0.07, 0.003, 0.2, 0.033, 0.05]
        while t <= 1.5 { _ = jittery.add(gravity(right: 20), at: t); t += gaps[k % gaps.count]; k += 1 }
        _ = once.add(gravity(right: 20), at: 0.5)
        for probe in [1.5, 1.6, 1.8, 2.5] {
            #expect(approx(regular.value(at: probe).x, once.value(at: probe).x, 1e-12))
            #expect(approx(jittery.value(at: probe).x, once.value(at: probe).x, 1e-12))
        }
        #expect(approx(once.value(at: 0.5 + tau).x, (20 - 1.5) / 28.5 * (1 - kioskExp(-1)), 1e-12))
    }

    @Test func zeroTimeConstantFollowsAtOnce() {
        var f = TiltFilter(config: .init(timeConstant: 0))
        _ = f.add(gravity(right: 90), at: 0)
        #expect(f.value(at: 0) == (1, 0) && !f.isMoving(at: 0))
    }

    // MARK: Noise

    @Test func noiseBelowTheDeadZoneNeverMovesTheOutput() {
        // ±0.7° of noise (peak to peak under the 1.5° dead zone) around 12° right, 30 Hz for 10 s: after settling, the rounded pixel offset
        // (what the renderer draws) never changes, and the exact output is constant.
        var f = TiltFilter()
        var seed: UInt64 = 0x9E3779B97F4A7C15
        func noise() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53) * 2 - 1
        }
        var t = 0.0
        var outputs: [(x: Double, y: Double)] = []
        while t < 10 {
            _ = f.add(gravity(right: 12 + 0.7 * noise(), top: 0.5 * noise()), at: t)
            if t > 1.5 { outputs.append(f.value(at: t)) }
            t += 1.0 / 30
        }
        #expect(Set(outputs.map { "\($0.x),\($0.y)" }).count == 1)
        #expect(!f.isMoving(at: t))
        // Level with noise: exactly centre.
        var level = TiltFilter()
        for i in 0..<300 { _ = level.add(gravity(right: 1.2 * noise(), top: 1.2 * noise()), at: Double(i) / 30) }
        #expect(level.value(at: 10) == (0, 0))
    }

    @Test func roundedPixelChangesAtMostOncePerMove() {
        // Noise sitting right on a pixel boundary (4.5 px) must not flicker between 4 and 5.
        let depth = 10.0
        let angle = 1.5 + 0.45 * 28.5          // exactly 4.5 px at depth 10
        var f = TiltFilter()
        var seed: UInt64 = 1
        func noise() -> Double { seed = seed &* 6364136223846793005 &+ 1; return Double(seed >> 11) / Double(1 << 53) - 0.5 }
        var rounded: [Int] = []
        var t = 0.0
        while t < 5 {
            _ = f.add(gravity(right: angle + noise()), at: t)
            for sub in 0..<2 {   // two frames per sample (60 Hz)
                rounded.append(Int(f.offset(at: t + Double(sub) / 60, depth: depth).dx.rounded()))
            }
            t += 1.0 / 30
        }
        var changes = 0
        for i in 1..<rounded.count where rounded[i] != rounded[i - 1] { changes += 1 }
        #expect(rounded.first == 0)
        #expect(changes == Set(rounded).count - 1, "monotonic: each value once; got \(changes) changes")
        #expect(rounded.suffix(200).allSatisfy { $0 == rounded.last })
    }

    @Test func hysteresisFollowsRealMoves() {
        var f = TiltFilter(config: .init(timeConstant: 0, deadZone: 1.5))
        _ = f.add(gravity(right: 10), at: 0)
        let a = f.value(at: 0).x
        _ = f.add(gravity(right: 11.4), at: 1)      // < dead zone from the held tilt: ignored
        #expect(f.value(at: 1).x == a)
        _ = f.add(gravity(right: 11.6), at: 2)      // > dead zone: followed
        #expect(approx(f.value(at: 2).x, (11.6 - 1.5) / 28.5, 1e-9))
    }

    // MARK: Samples that carry no tilt

    @Test func shakingFreeFallAndGarbageAreIgnored() {
        var f = TiltFilter(config: .init(timeConstant: 0))
        _ = f.add(gravity(right: 45), at: 0)
        do { let used = f.add(x: 0, y: 0, z: 0, at: 1); #expect(!used) }                     // free fall
        do { let used = f.add(x: 0.5 * g, y: 0, z: 3 * g, at: 2); #expect(!used) }           // 3 g: shaking
        do { let used = f.add(x: .nan, y: 0, z: g, at: 3); #expect(!used) }
        do { let used = f.add(x: .infinity, y: 0, z: g, at: 4); #expect(!used) }
        do { let used = f.add(x: 1e308, y: 1e308, z: 1e308, at: 5); #expect(!used) }        // overflows the magnitude
        #expect(f.value(at: 5) == (1, 0))
    }

    @Test func timeGoingBackwardsIsNoTimePassing() {
        var f = TiltFilter(config: .init(timeConstant: 0.15))
        _ = f.add(gravity(), at: 10)
        _ = f.add(gravity(right: 90), at: 5)    // treated as t = 10
        #expect(f.value(at: 10).x == 0)
        #expect(approx(f.value(at: 10.15).x, 1 - kioskExp(-1), 1e-12))
        #expect(f.value(at: .nan).x == 0)       // NaN time = the last time
    }

    // MARK: Reduce motion, release

    @Test func reduceMotionKeepsTheBezelCentred() {
        var f = TiltFilter(config: .init(timeConstant: 0, reduceMotion: true))
        _ = f.add(gravity(right: 45, top: 45), at: 0)
        #expect(f.value(at: 0) == (0, 0) && f.offset(at: 0, depth: 10) == (0, 0))
        #expect(!f.isMoving(at: 0) && f.destination == (0, 0))
        f.config.reduceMotion = false                // switching it off shows the tilt again
        #expect(f.value(at: 0) == (1, -1))
    }

    @Test func releaseEasesBackToCentreAndStops() {
        var f = TiltFilter(config: .init(timeConstant: 0.15, releaseTimeConstant: 0.25))
        f.hold(gravity(right: 90), from: 0, to: 2)
        #expect(f.value(at: 2) == (1, 0))
        f.release(at: 2)
        #expect(f.isReleased)
        #expect(f.value(at: 2) == (1, 0))                                      // no jump
        #expect(approx(f.value(at: 2.25).x, kioskExp(-1), 1e-12))             // eases
        #expect(f.value(at: 4) == (0, 0) && !f.isMoving(at: 4))               // and stops
        f.release(at: 5)                                                        // idempotent
        #expect(f.value(at: 5) == (0, 0))
        // A good sample resumes tracking, from centre.
        _ = f.add(gravity(right: 90), at: 6)
        #expect(!f.isReleased && f.value(at: 6) == (0, 0) && f.destination == (1, 0))
    }

    @Test func releaseMidWayStartsFromWhereItIs() {
        var f = TiltFilter(config: .init(timeConstant: 0.15, releaseTimeConstant: 0.25))
        _ = f.add(gravity(), at: 0)
        _ = f.add(gravity(right: 90), at: 1)
        let mid = f.value(at: 1.1).x
        f.release(at: 1.1)
        #expect(f.value(at: 1.1).x == mid)
        #expect(approx(f.value(at: 1.35).x, mid * kioskExp(-1), 1e-12))
    }

    @Test func nonsenseConfigIsSanitised() {
        var f = TiltFilter(config: .init(timeConstant: .nan, deadZone: -3, fullTilt: .nan))
        _ = f.add(gravity(right: 0.5), at: 0)
        #expect(f.value(at: 0) == (1, 0))            // no dead zone, no span: a step
        var h = TiltFilter(config: .init(timeConstant: -1, deadZone: .infinity))
        _ = h.add(gravity(right: 10), at: 0)
        #expect(approx(h.value(at: 0).x, 1.0 / 3, 1e-9))   // infinite dead zone treated as 0
    }
}

/// The neutral attitude: a kiosk standing upright, or hung on a wall, is "level" where it rests.
@Suite struct TiltNeutralTests {
    /// Upright panel (top edge up): the reaction to gravity points towards the top edge (+y).
    /// Tilting the top edge back by `back` degrees (away from the viewer) turns it towards −z.
    func upright(back: Double = 0, right: Double = 0) -> (x: Double, y: Double, z: Double) {
        let b = back * pi / 180, r = right * pi / 180
        // Small-angle-safe series are not needed: these angles are moderate; use the filter's
        // own conventions only through the public API.
        func s(_ a: Double) -> Double {
            var t = a, sum = a, n = 1.0
            for _ in 0..<20 {
                let k: Double = (n + 1) * (n + 2)
                t *= -a * a / k
                n += 2
                sum += t
            }
            return sum
        }
        func c(_ a: Double) -> Double { s(a + pi / 2) }
        let x: Double = -s(r) * g
        let y: Double = c(r) * c(b) * g
        let z: Double = -c(r) * s(b) * g
        return (x, y, z)
    }

    @Test func faceUpNeutralPinsAnUprightPanel() {
        var f = TiltFilter(config: .init(timeConstant: 0))
        let u = upright()
        _ = f.add(x: u.x, y: u.y, z: u.z, at: 1)
        #expect(abs(f.value(at: 1).y) == 1, "face-up neutral: an upright panel reads as tilted 90°")
    }

    @Test func restingNeutralCentresAnUprightPanel() {
        var cfg = TiltFilter.Config(timeConstant: 0)
        cfg.neutral = .firstSample
        var f = TiltFilter(config: cfg)
        let u = upright()
        _ = f.add(x: u.x, y: u.y, z: u.z, at: 1)
        let v0 = f.value(at: 1)
        #expect(v0.x == 0 && v0.y == 0)
        // Tilting the top back 15° moves the bezel half way (full at 30°), on the vertical axis.
        let b = upright(back: 15)
        _ = f.add(x: b.x, y: b.y, z: b.z, at: 2)
        let v = f.value(at: 2)
        let expected: Double = (15 - 1.5) / (30 - 1.5)
        let dy: Double = abs(v.y)
        #expect(abs(dy - expected) < 0.01, "got \(v.x), \(v.y)")
        #expect(v.x == 0)
        // Turning it right 30° about the vertical axis moves it fully sideways.
        let r = upright(right: 30)
        _ = f.add(x: r.x, y: r.y, z: r.z, at: 3)
        let dx: Double = abs(f.value(at: 3).x)
        #expect(abs(dx - 1) < 0.01)
    }

    @Test func givenGravityNeutral() {
        var cfg = TiltFilter.Config(timeConstant: 0)
        cfg.neutral = .gravity(x: 0, y: 1, z: 0)
        var f = TiltFilter(config: cfg)
        let u = upright()
        _ = f.add(x: u.x, y: u.y, z: u.z, at: 1)
        let v = f.value(at: 1)
        #expect(v.x == 0 && v.y == 0)
    }
}
