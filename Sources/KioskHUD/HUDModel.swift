import KioskRaster
import KioskText

/// What the indicator shows. Named after MBProgressHUDMode, plus SVProgressHUD's presets.
public enum HUDMode: String, Sendable, Equatable, CaseIterable {
    /// A spinner (UIActivityIndicatorView style), animated.
    case indeterminate
    /// A round pie chart of the progress.
    case determinate
    /// A ring of the progress.
    case annular
    /// A horizontal progress bar.
    case bar
    /// No indicator: labels only.
    case text
    /// A picture given by the caller (`HUDContent.image`).
    case custom
    /// A check mark (SVProgressHUD's showSuccess).
    case success
    /// A cross (SVProgressHUD's showError).
    case error
}

/// What is dimmed or tinted behind the bezel, over the whole screen.
public enum HUDBackground: Sendable, Equatable {
    /// Nothing: only the bezel is drawn (MBProgressHUD's default).
    case none
    /// A solid colour over everything (SVProgressHUD's black mask).
    case dim(Color)
    /// SVProgressHUD's radial gradient mask: clear at the centre to black 0.75 at min(w, h).
    case gradient
}

/// How the bezel's own background is drawn.
public enum BezelStyle: Sendable, Equatable {
    /// The bezel colour alone.
    case solid
    /// What lies behind the bezel blurred (radius in points), then the bezel colour over it.
    case blur(radius: Double)
}

/// The HUD's look: MBProgressHUD's defaults unless changed. Sizes are in points; `scale` turns
/// them into pixels (2 on a dense panel).
public struct HUDStyle: Sendable, Equatable {
    /// Space between the bezel and its content, and between the bezel and the screen edge.
    public var margin = 20.0
    /// Space between two visible elements.
    public var padding = 4.0
    public var cornerRadius = 5.0
    public var labelFontSize = 16.0
    public var detailsFontSize = 12.0
    public var buttonFontSize = 12.0
    /// Font files: the first is primary, the others fall back for characters it lacks.
    public var fontPaths: [String] = [FontSpec.defaultPrimary] + FontSpec.defaultFallbacks
    /// Labels, indicator and button.
    public var contentColor = Color(white: 0, a: 0.7)
    public var bezelColor = Color(white: 0.8, a: 0.6)
    public var bezelStyle = BezelStyle.solid
    public var background = HUDBackground.none
    /// Smallest bezel size (0 = none).
    public var minWidth = 0.0, minHeight = 0.0
    /// Force a square bezel.
    public var square = false
    /// Bezel centre offset from the screen centre; `HUDStyle.maxOffset` pins it to an edge.
    public var offsetX = 0.0, offsetY = 0.0
    /// Round indicators' size and ring line width.
    public var indicatorSize = 37.0
    public var ringLineWidth = 2.0
    public var barWidth = 120.0, barHeight = 20.0
    /// How far the motion effect moves the bezel, each way (0 = off).
    public var motionDepth = 10.0
    /// Pixels per point.
    public var scale = 1.0

    /// MBProgressHUDMaxOffset: an offset this large moves the bezel to the screen edge.
    public static let maxOffset = 1_000_000.0

    public init() {}

    /// MBProgressHUD's look: light grey bezel, black content.
    public static let light = HUDStyle()

    /// Dark bezel, white content (SVProgressHUD's dark style).
    public static var dark: HUDStyle {
        var s = HUDStyle()
        s.bezelColor = Color(white: 0.1, a: 0.85)
        s.contentColor = Color(white: 1, a: 0.9)
        return s
    }
}

/// What the HUD says and shows.
public struct HUDContent: Sendable, Equatable {
    public var mode: HUDMode = .indeterminate
    /// 0…1 for determinate, annular and bar (NaN and out-of-range values are clamped).
    public var progress = 0.0
    public var label = ""
    public var details = ""
    /// The button's title; the button shows only with a title and `buttonHasAction`.
    public var buttonTitle = ""
    public var buttonHasAction = false
    /// The picture for `.custom`.
    public var image: HUDImage?

    public init(mode: HUDMode = .indeterminate, progress: Double = 0, label: String = "", details: String = "",
                buttonTitle: String = "", buttonHasAction: Bool = false, image: HUDImage? = nil) {
        self.mode = mode; self.progress = progress; self.label = label; self.details = details
        self.buttonTitle = buttonTitle; self.buttonHasAction = buttonHasAction; self.image = image
    }

    /// Whether the button is shown (MBProgressHUDRoundedButton: a title and an action).
    public var showsButton: Bool { !buttonTitle.isEmpty && buttonHasAction }
}

/// A picture for the custom mode: a premultiplied bitmap and its size in points.
public final class HUDImage: @unchecked Sendable, Equatable {
    public let bitmap: Bitmap
    /// Pixels of the bitmap per point (2 for an @2x picture).
    public let scale: Double

    public init(bitmap: Bitmap, scale: Double = 1) { self.bitmap = bitmap; self.scale = scale > 0 ? scale : 1 }

    public static func == (a: HUDImage, b: HUDImage) -> Bool { a === b }
}
