/// How the HUD appears and disappears (MBProgressHUDAnimation).
///
/// Opacity of the bezel and the background always animates 0 → 1 on show and
/// 1 → 0 on hide. The bezel scale depends on the kind:
///
/// | kind      | show (from → to) | hide (to) |
/// |-----------|------------------|-----------|
/// | `.fade`   | 1 → 1            | 1         |
/// | `.zoomIn` | 0.5 → 1          | 1.5       |
/// | `.zoomOut`| 1.5 → 1          | 0.5       |
/// | `.zoom`   | as `.zoomIn`     | as `.zoomOut` |
public enum AnimationKind: Sendable, Equatable, CaseIterable {
    /// Opacity only.
    case fade
    /// `.zoomIn` when appearing, `.zoomOut` when disappearing.
    case zoom
    /// Grows from 0.5 to 1 on show; grows on to 1.5 on hide.
    case zoomIn
    /// Shrinks from 1.5 to 1 on show; shrinks on to 0.5 on hide.
    case zoomOut

    /// The concrete kind used for a transition (resolves `.zoom`).
    public func resolved(appearing: Bool) -> AnimationKind {
        guard self == .zoom else { return self }
        return appearing ? .zoomIn : .zoomOut
    }

    /// Bezel scale at the start of a show animation that begins from fully
    /// transparent (1 for `.fade`).
    public var showStartScale: Double {
        switch resolved(appearing: true) {
        case .zoomIn: 0.5
        case .zoomOut: 1.5
        case .fade, .zoom: 1
        }
    }

    /// Bezel scale at the end of a hide animation.
    public var hideEndScale: Double {
        switch resolved(appearing: false) {
        case .zoomIn: 1.5
        case .zoomOut: 0.5
        case .fade, .zoom: 1
        }
    }
}

/// What the renderer should draw at one instant.
public struct Appearance: Sendable, Equatable {
    /// Whether the HUD is on screen at all (false: draw nothing, not even the background).
    public var isVisible: Bool
    /// Opacity in 0…1, applied to the bezel and to the background dimming.
    public var opacity: Double
    /// Bezel scale around its centre (1 = natural size).
    public var scale: Double

    /// Creates an appearance.
    public init(isVisible: Bool, opacity: Double, scale: Double) {
        self.isVisible = isVisible
        self.opacity = opacity
        self.scale = scale
    }

    /// Not on screen.
    public static let hidden = Appearance(isVisible: false, opacity: 0, scale: 1)
    /// Fully on screen at natural size.
    public static let shown = Appearance(isVisible: true, opacity: 1, scale: 1)
}
