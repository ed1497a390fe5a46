import KioskSys

/// Which font files to use, in order, and at what pixel size.
public struct FontSpec: Sendable, Hashable {
    /// Font files: the primary first, then fallbacks tried in order for
    /// characters the faces before them lack. Face 0 of a collection is used.
    public var paths: [String]
    /// The pixel size passed to `FT_Set_Pixel_Sizes(face, 0, pixelSize)`.
    public var pixelSize: Int

    /// A spec with explicit paths (primary first).
    public init(paths: [String], pixelSize: Int) {
        self.paths = paths
        self.pixelSize = pixelSize
    }

    /// A spec with a primary font followed by `fallbacks`
    /// (by default the fallbacks present on this machine).
    public init(primary: String = FontSpec.defaultPrimary,
                fallbacks: [String] = FontSpec.defaultFallbacks,
                pixelSize: Int) {
        self.init(paths: [primary] + fallbacks, pixelSize: pixelSize)
    }

    /// The HUD's primary font: DejaVu Sans Bold (Debian `fonts-dejavu-core`).
    public static let defaultPrimary = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

    /// Fallback fonts commonly installed on Debian, in preference order:
    /// DejaVu Sans, WenQuanYi Micro Hei, Noto Sans CJK, Droid Sans Fallback.
    public static let candidateFallbacks: [String] = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
        "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
        "/usr/share/fonts/truetype/droid/DroidSansFallback.ttf",
    ]

    /// The `candidateFallbacks` that exist on this machine, checked once
    /// (on first use) so creating specs stays cheap.
    public static let defaultFallbacks: [String] = candidateFallbacks.filter { LinuxKernel().fileExists($0) }
}
