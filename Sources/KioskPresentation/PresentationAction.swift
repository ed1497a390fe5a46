/// Something that happened inside a `PresentationMachine`, in the order it happened.
///
/// Redraws are not reported: the renderer samples `appearance(at:)` after
/// every entry point and on each frame while `isAnimating(at:)` is true.
public enum PresentationAction: Sendable, Equatable {
    /// The HUD went from not drawn to drawn: draw its first frame now
    /// (grace time expired, or an immediate show).
    case appeared
    /// A hide of the drawn HUD began (animated or instant).
    case hideStarted
    /// The HUD is no longer drawn: restore what was under it.
    case disappeared
    /// The hide completion (MBProgressHUD's `completionBlock` / `hudWasHidden:`).
    /// Emitted exactly once per shown-then-hidden cycle; see `PresentationMachine`.
    case completed
}

/// A coarse view of a `PresentationMachine`'s state, mainly for diagnostics and tests.
public enum PresentationPhase: Sendable, Equatable {
    /// Nothing on screen and nothing pending.
    case hidden
    /// `show` was called; waiting for the grace time before drawing.
    case waitingForGrace
    /// Drawn (possibly still animating in).
    case shown
    /// Drawn; a hide is postponed until the minimum show time has elapsed.
    case waitingForMinShow
    /// A hide animation is running.
    case hiding
}
