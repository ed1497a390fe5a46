// Input sanitising shared by the state machines.

extension Double {
    /// A duration that is safe to schedule with: NaN, ±∞ and negative values become 0.
    var sanitizedDuration: Double {
        isFinite && self > 0 ? self : 0
    }

    /// `self` clamped to 0…1; NaN becomes `fallback`, ±∞ clamp to the ends.
    func clampedUnit(nanFallback fallback: Double) -> Double {
        if isNaN { return fallback }
        return Swift.min(1, Swift.max(0, self))
    }
}

/// A monotonic view of caller-supplied time stamps.
///
/// Non-finite stamps are replaced by the last accepted one (or 0 before the
/// first), and stamps earlier than the last accepted one are raised to it, so
/// time never runs backwards inside a machine.
struct MonotonicTime: Sendable, Equatable {
    private(set) var last: Double?

    /// The sanitised form of `now` without recording it.
    func peek(_ now: Double) -> Double {
        guard now.isFinite else { return last ?? 0 }
        guard let last else { return now }
        return Swift.max(now, last)
    }

    /// Sanitises `now` and records it as the latest time seen.
    mutating func accept(_ now: Double) -> Double {
        let t = peek(now)
        last = t
        return t
    }
}
