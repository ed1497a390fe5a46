// The words of the settings that take one of a few (`.choice`), each list a type: the rule's
// list, the setter's decision and the getter's word all come from one declaration, so a word
// cannot be accepted by the rule and then misread by the setter (the lists were written out
// twice before).
import KioskPresentation
import KioskHUD
import KioskRaster
import KioskSettings

extension ValueRule {
    /// One of `E`'s raw values.
    static func choice<E: RawRepresentable & CaseIterable>(of _: E.Type) -> ValueRule where E.RawValue == String {
        .choice(E.allCases.map(\.rawValue))
    }
}

/// `[style] theme`.
enum ThemeChoice: String, CaseIterable {
    case light, dark
    var style: HUDStyle { self == .dark ? .dark : .light }
}

/// `[style] bezel`.
enum BezelChoice: String, CaseIterable {
    case solid, blur
}

/// `[style] background`.
enum BackgroundChoice: String, CaseIterable {
    case none, dim, gradient
    init(_ b: HUDBackground) {
        switch b {
        case .none: self = .none
        case .dim: self = .dim
        case .gradient: self = .gradient
        }
    }
}

/// `[timing] animation`.
enum AnimationChoice: String, CaseIterable {
    case fade, zoom, zoomIn, zoomOut
    var kind: AnimationKind {
        switch self {
        case .fade: .fade
        case .zoom: .zoom
        case .zoomIn: .zoomIn
        case .zoomOut: .zoomOut
        }
    }
    init(_ k: AnimationKind) {
        switch k {
        case .zoom: self = .zoom
        case .zoomIn: self = .zoomIn
        case .zoomOut: self = .zoomOut
        default: self = .fade
        }
    }
}

/// `[display] format`.
enum FormatChoice: String, CaseIterable {
    case xrgb8888, argb8888, rgb565
    var format: PixelFormat {
        switch self {
        case .xrgb8888: .xrgb8888
        case .argb8888: .argb8888
        case .rgb565: .rgb565
        }
    }
    init(_ f: PixelFormat) {
        switch f {
        case .argb8888: self = .argb8888
        case .rgb565: self = .rgb565
        default: self = .xrgb8888
        }
    }
}

/// `[motion] neutral`.
enum NeutralChoice: String, CaseIterable {
    case resting, faceUp = "face-up"
}

/// `[plymouth] boot_status`.
enum BootStatusChoice: String, CaseIterable {
    case details, none
}
