/// The tilt motion effect's signal path, pure and time-injected: accelerometer samples (already
/// in the panel's frame, after the mount matrix) → tilt angles about the screen's two axes →
/// dead zone and hysteresis → −1…1 → display rotation → a first-order low-pass evaluated at any
/// frame time. `MotionOffset.map` (or `HUD.setMotion`) turns the result into ±depth pixels.
///
/// Axes and sign (IIO / Android convention): x towards the panel's right edge, y towards its top
/// edge, z out of the screen towards the viewer; a resting sensor reports the reaction to gravity,
/// +9.81 m/s² pointing away from the earth (face up on a table: (0, 0, +g)). The bezel slides
/// *downhill*, like a marble: lower the right edge ("tilt right") and it moves right; lower the
/// top edge and it moves up. Level is face up; the tilt about each axis is
/// `asin(component / |a|)`, so each axis also works when the panel stands upright.
///
/// Noise: a tilt within `deadZone` degrees of level counts as level, and the target the filter
/// chases moves only when the measured tilt leaves the current target by more than `deadZone`
/// (hysteresis). With sensor noise below the dead zone the target is constant, the filter output
/// converges monotonically to it (and snaps onto it within 0.001), so a rounded pixel offset
/// changes at most once per real move: no sub-pixel jitter, no redraws.
///
/// Failure: `release(at:)` (sensor lost or stalled) eases back to centre with
/// `releaseTimeConstant` and then holds still; the next good sample resumes tracking.
public struct TiltFilter: Sendable {
    /// Tuning. Non-finite or negative numbers are treated as 0 (`fullTilt`: as the dead zone).
    public struct Config: Sendable, Equatable {
        /// Low-pass time constant in seconds (63 % of a step after this long); 0 follows the sensor.
        public var timeConstant: Double
        /// Degrees: tilts within this of level are level, and changes smaller than this are ignored.
        public var deadZone: Double
        /// Degrees of tilt that move the bezel the full depth (more is clamped).
        public var fullTilt: Double
        /// Display rotation: clockwise quarter turns of the panel relative to the picture
        /// (`KioskSeams.Rotation.rawValue / 90`). Takes effect from the next sample.
        public var quarterTurns: Int
        /// Reduce motion: the offset is always 0.
        public var reduceMotion: Bool
        /// Time constant of the ease back to centre after `release(at:)`, in seconds.
        public var releaseTimeConstant: Double
        /// Samples whose magnitude lies outside this range (in g) carry no tilt (shaking, free
        /// fall) and are ignored.
        public var gravityWindow: ClosedRange<Double>
        /// Which attitude counts as level.
        public var neutral: Neutral = .faceUp

        /// Defaults: 0.15 s time constant, 1.5° dead zone, full depth at 30°, 0.25 s release.
        public init(timeConstant: Double = 0.15, deadZone: Double = 1.5, fullTilt: Double = 30,
                    quarterTurns: Int = 0, reduceMotion: Bool = false, releaseTimeConstant: Double = 0.25,
                    gravityWindow: ClosedRange<Double> = 0.5...2.0) {
            self.timeConstant = timeConstant; self.deadZone = deadZone; self.fullTilt = fullTilt
            self.quarterTurns = quarterTurns; self.reduceMotion = reduceMotion
            self.releaseTimeConstant = releaseTimeConstant; self.gravityWindow = gravityWindow
        }
    }

    /// The attitude at which the bezel sits in the centre.
    public enum Neutral: Sendable, Equatable {
        /// Lying face up (a table-top or tablet HUD).
        case faceUp
        /// However the panel rests when the first good sample arrives: a kiosk standing upright or
        /// hanging on a wall moves the bezel only when it is tilted away from that.
        case firstSample
        /// A given resting gravity vector (panel frame, any length).
        case gravity(x: Double, y: Double, z: Double)
    }

    /// The resting direction tilts are measured from (unit vector), once known.
    public private(set) var reference: (x: Double, y: Double, z: Double)?

    /// Standard gravity, m/s².
    public static let standardGravity = 9.80665
    /// The output snaps onto the target when both axes are this close (1/1000 of full depth).
    public static let snapDistance = 1e-3

    /// The tuning; changes apply from the next sample (`reduceMotion` at once).
    public var config: Config
    /// The tilt the target was last set from, degrees, panel frame (x right, y down the panel).
    private var held: (x: Double, y: Double)?
    private var target: (x: Double, y: Double) = (0, 0)
    private var start: (x: Double, y: Double) = (0, 0)
    private var startTime = 0.0
    private var tau = 0.0
    private var clock = MonotonicTime()
    /// After `release(at:)` and until the next good sample.
    public private(set) var isReleased = false
    /// The last sample's tilt in degrees (before the dead zone), panel frame; nil before one.
    public private(set) var lastTilt: (x: Double, y: Double)?

    public init(config: Config = Config()) { self.config = config }

    /// Feeds one sample (m/s², panel frame) taken at `time`. Returns false if it carries no tilt
    /// (non-finite, or a magnitude outside `gravityWindow`); the target is then unchanged.
    @discardableResult
    public mutating func add(x: Double, y: Double, z: Double, at time: Double) -> Bool {
        let now = clock.accept(time)
        guard x.isFinite, y.isFinite, z.isFinite else { return false }
        let mag = (x * x + y * y + z * z).squareRoot()
        guard mag.isFinite, mag > 0, config.gravityWindow.contains(mag / Self.standardGravity) else { return false }
        // Downhill direction on the panel, in its pixel axes (x right, y down), relative to the
        // neutral attitude: about the panel's vertical axis, the change of the x component's
        // angle; about its horizontal axis, the angle turned in the y–z plane. Face up, for a
        // small tilt, these are asin(−x/|a|) and asin(y/|a|).
        let n = (x: x / mag, y: y / mag, z: z / mag)
        let r: (x: Double, y: Double, z: Double)
        switch config.neutral {
        case .faceUp: r = (0, 0, 1)
        case .firstSample:
            if reference == nil { reference = n }
            r = reference!
        case let .gravity(gx, gy, gz):
            let m = (gx * gx + gy * gy + gz * gz).squareRoot()
            r = m > 0 && m.isFinite ? (gx / m, gy / m, gz / m) : (0, 0, 1)
        }
        reference = r
        // Face up this is exactly asin of each component; from any other rest the vertical axis
        // is measured as the turn in the y–z plane (asin loses the sign of a tilt around ±90°).
        let tilt: (x: Double, y: Double)
        if r == (0, 0, 1) {
            tilt = (degrees(arcsine(-n.x)), degrees(arcsine(n.y)))
        } else {
            tilt = (degrees(arcsine(-n.x) - arcsine(-r.x)), degrees(planeAngle(from: (r.y, r.z), to: (n.y, n.z))))
        }
        lastTilt = tilt
        let dz = deadZone
        var h = held ?? tilt
        if abs(tilt.x - h.x) > dz { h.x = tilt.x }
        if abs(tilt.y - h.y) > dz { h.y = tilt.y }
        held = h
        isReleased = false
        retarget(rotate((normalized(h.x), normalized(h.y))), at: now, tau: config.timeConstant)
        return true
    }

    /// The sensor is gone or stalled: ease back to centre and stay there until the next sample.
    public mutating func release(at time: Double) {
        let now = clock.accept(time)
        guard !isReleased else { return }
        isReleased = true
        held = nil
        retarget((0, 0), at: now, tau: config.releaseTimeConstant)
    }

    /// The tilt at `time`, each axis −1…1 in the picture's axes (x right, y down), for
    /// `HUD.setMotion(x:y:)`. Always (0, 0) with reduce motion.
    public func value(at time: Double) -> (x: Double, y: Double) {
        if config.reduceMotion { return (0, 0) }
        let dt = Swift.max(0, clock.peek(time) - startTime)
        let k = tau > 0 ? kioskExp(-dt / tau) : 0
        let v = (x: target.x + (start.x - target.x) * k, y: target.y + (start.y - target.y) * k)
        if abs(v.x - target.x) < Self.snapDistance && abs(v.y - target.y) < Self.snapDistance { return target }
        return v
    }

    /// The offset in pixels at `time` for a depth of `depth` pixels (`MotionOffset.map`).
    public func offset(at time: Double, depth: Double) -> (dx: Double, dy: Double) {
        let v = value(at: time)
        return MotionOffset.map(x: v.x, y: v.y, depth: depth)
    }

    /// Whether the output still changes after `time` (the caller keeps drawing frames meanwhile).
    public func isMoving(at time: Double) -> Bool {
        if config.reduceMotion { return false }
        let v = value(at: time)
        return v.x != target.x || v.y != target.y
    }

    /// Where the output is heading, −1…1 per axis (picture axes).
    public var destination: (x: Double, y: Double) { config.reduceMotion ? (0, 0) : target }

    // MARK: Steps

    private var deadZone: Double { config.deadZone.isFinite && config.deadZone > 0 ? config.deadZone : 0 }

    /// Degrees beyond the dead zone → −1…1.
    private func normalized(_ angle: Double) -> Double {
        let dz = deadZone
        let beyond = abs(angle) - dz
        guard beyond > 0 else { return 0 }
        let full = config.fullTilt.isFinite ? config.fullTilt : dz
        let span = full - dz
        let v = span > 0 ? Swift.min(1, beyond / span) : 1
        return angle < 0 ? -v : v
    }

    /// Panel axes → picture axes for the display rotation (`DisplayTransform.toPicture` applied to
    /// a vector).
    private func rotate(_ p: (x: Double, y: Double)) -> (x: Double, y: Double) {
        switch ((config.quarterTurns % 4) + 4) % 4 {
        case 1: return (p.y, -p.x)
        case 2: return (-p.x, -p.y)
        case 3: return (-p.y, p.x)
        default: return p
        }
    }

    private mutating func retarget(_ t: (x: Double, y: Double), at now: Double, tau newTau: Double) {
        let current = Self.unreduced(self, at: now)
        start = current
        startTime = now
        target = t
        tau = newTau.isFinite && newTau > 0 ? newTau : 0
    }

    /// The output ignoring reduce motion (so toggling it does not lose the state).
    private static func unreduced(_ f: TiltFilter, at time: Double) -> (x: Double, y: Double) {
        var g = f
        g.config.reduceMotion = false
        return g.value(at: time)
    }
}

// MARK: Elementary functions (no Glibc here)

private let pi = 3.141592653589793

private func degrees(_ radians: Double) -> Double { radians * (180 / pi) }

/// asin for u in −1…1 (clamped), via `kioskAtan`.
func arcsine(_ u: Double) -> Double {
    let c = Swift.min(1, Swift.max(-1, u))
    let r = 1 - c * c
    if r <= 0 { return c < 0 ? -pi / 2 : pi / 2 }
    return kioskAtan(c / r.squareRoot())
}

/// arctan in pure Swift: reduction to |x| ≤ tan(π/12) (1/x and the π/6 shift), then the Taylor
/// series to x^27 (error < 1e-16 there). NaN gives NaN, ±∞ gives ±π/2.
func kioskAtan(_ x: Double) -> Double {
    if x.isNaN { return x }
    var a = abs(x)
    var invert = false
    if a > 1 { a = 1 / a; invert = true }
    var shift = 0.0
    let sqrt3 = 1.7320508075688772
    if a > 0.2679491924311227 {
        a = (a * sqrt3 - 1) / (a + sqrt3)
        shift = pi / 6
    }
    let a2 = a * a
    var term = a, sum = a, n = 1.0
    for _ in 0..<13 {
        term *= -a2
        n += 2
        sum += term / n
    }
    var r = shift + sum
    if invert { r = pi / 2 - r }
    return x < 0 ? -r : r
}

/// The signed angle (radians, −π…π, positive from +z towards +y) turning 2-D vector `a` into `b`.
func planeAngle(from a: (Double, Double), to b: (Double, Double)) -> Double {
    let la = (a.0 * a.0 + a.1 * a.1).squareRoot(), lb = (b.0 * b.0 + b.1 * b.1).squareRoot()
    guard la > 0, lb > 0 else { return 0 }
    // a, b as (y, z): the angle of (y, z) measured from +z towards +y.
    let sinD = (b.0 * a.1 - b.1 * a.0) / (la * lb), cosD = (b.0 * a.0 + b.1 * a.1) / (la * lb)
    let s = arcsine(Swift.max(-1, Swift.min(1, sinD)))
    return cosD >= 0 ? s : (s >= 0 ? pi - s : -pi - s)
}
