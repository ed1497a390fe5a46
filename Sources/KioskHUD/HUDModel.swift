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

    /// Whether the mode shows the progress (pie, ring or bar): a progress given in another mode
    /// is kept but not seen, so a source of progress (psplash, Plymouth, RAUC, follow-boot, `run`)
    /// switches such a HUD to `.bar`.
    public var showsProgress: Bool {
        switch self {
        case .determinate, .annular, .bar: true
        case .indeterminate, .text, .custom, .success, .error: false
        }
    }
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
    /// Where the logo picture goes (`HUDRenderer.setLogo`), and its largest height in points
    /// (aspect kept, never more than twice the picture's own size).
    public var logoPlacement = LogoPlacement.above
    public var logoSize = 64.0

    /// MBProgressHUDMaxOffset: an offset this large moves the bezel to the screen edge.
    public static let maxOffset = 1_000_000.0

    /// The ranges a style's numbers are kept in: the settings' rules refuse values outside them
    /// (KioskBoards' table uses these), and `checked` keeps a library caller's values inside
    /// them, so that no size can overflow an integer when laid out or drawn.
    public enum Limits {
        /// Margins, padding, radii, the indicator and bar (points).
        public static let length: ClosedRange<Double> = 0...1000
        public static let fontSize: ClosedRange<Double> = 1...500
        public static let blurRadius: ClosedRange<Double> = 0...100
        public static let motionDepth: ClosedRange<Double> = 0...100
        public static let minSize: ClosedRange<Double> = 0...10_000
        /// Pixels per point: above 0, at most 8.
        public static let scale: ClosedRange<Double> = 0...8
    }

    public init() {}

    /// This style with every number finite and inside `Limits` (a value outside is brought to the
    /// nearest end, NaN to the default): safe to lay out and draw whatever a caller set.
    public var checked: HUDStyle {
        let d = HUDStyle()
        func keep(_ v: Double, _ r: ClosedRange<Double>, _ fallback: Double) -> Double { v.isNaN ? fallback : min(max(v, r.lowerBound), r.upperBound) }
        var s = self
        s.margin = keep(margin, Limits.length, d.margin)
        s.padding = keep(padding, Limits.length, d.padding)
        s.cornerRadius = keep(cornerRadius, Limits.length, d.cornerRadius)
        s.labelFontSize = keep(labelFontSize, Limits.fontSize, d.labelFontSize)
        s.detailsFontSize = keep(detailsFontSize, Limits.fontSize, d.detailsFontSize)
        s.buttonFontSize = keep(buttonFontSize, Limits.fontSize, d.buttonFontSize)
        s.minWidth = keep(minWidth, Limits.minSize, 0)
        s.minHeight = keep(minHeight, Limits.minSize, 0)
        s.offsetX = keep(offsetX, -HUDStyle.maxOffset...HUDStyle.maxOffset, 0)
        s.offsetY = keep(offsetY, -HUDStyle.maxOffset...HUDStyle.maxOffset, 0)
        s.indicatorSize = keep(indicatorSize, Limits.length, d.indicatorSize)
        s.ringLineWidth = keep(ringLineWidth, Limits.length, d.ringLineWidth)
        s.barWidth = keep(barWidth, Limits.length, d.barWidth)
        s.barHeight = keep(barHeight, Limits.length, d.barHeight)
        s.motionDepth = keep(motionDepth, Limits.motionDepth, d.motionDepth)
        s.logoSize = keep(logoSize, Limits.length, d.logoSize)
        s.scale = scale > 0 ? keep(scale, Limits.scale, 1) : 1
        if case let .blur(r) = bezelStyle { s.bezelStyle = .blur(radius: keep(r, Limits.blurRadius, 10)) }
        return s
    }

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

    /// True when `other` is laid out as this is: every field but the progress places something
    /// (derived, so a field added here is a layout field unless it is left out below, as the
    /// progress is: it moves the bar, never the bezel).
    public func laysOutLike(_ other: HUDContent) -> Bool {
        var a = self, b = other
        a.progress = 0; b.progress = 0
        return a == b
    }
}

/// A picture for the custom mode: a premultiplied bitmap and its size in points.
public final class HUDImage: @unchecked Sendable, Equatable {
    public let bitmap: Bitmap
    /// Pixels of the bitmap per point (2 for an @2x picture).
    public let scale: Double

    public init(bitmap: Bitmap, scale: Double = 1) { self.bitmap = bitmap; self.scale = scale > 0 ? scale : 1 }

    public static func == (a: HUDImage, b: HUDImage) -> Bool { a === b }
}
