/// One animated segment of a scalar pair (opacity, scale), begin-from-current-state style.
struct Tween: Sendable, Equatable {
    var fromOpacity: Double
    var fromScale: Double
    var toOpacity: Double
    var toScale: Double
    var start: Double
    var duration: Double
    var curve: TimingCurve

    /// A segment that is already at rest.
    static func resting(opacity: Double, scale: Double, at time: Double) -> Tween {
        Tween(fromOpacity: opacity, fromScale: scale, toOpacity: opacity, toScale: scale,
              start: time, duration: 0, curve: .linear)
    }

    var end: Double { start + duration }

    func progress(at time: Double) -> Double {
        // Compare against `end` itself so the value is final exactly when the end event fires.
        if time >= end { return 1 }
        return curve.progress(elapsed: time - start, duration: duration)
    }

    func opacity(at time: Double) -> Double {
        let p = progress(at: time)
        return p >= 1 ? toOpacity : fromOpacity + (toOpacity - fromOpacity) * p
    }

    func scale(at time: Double) -> Double {
        let p = progress(at: time)
        return p >= 1 ? toScale : fromScale + (toScale - fromScale) * p
    }

    func isRunning(at time: Double) -> Bool {
        duration > 0 && time < end
    }
}
