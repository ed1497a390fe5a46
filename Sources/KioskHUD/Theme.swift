import KioskRaster

/// How the underlay picture covers the frame.
public enum UnderlayFit: String, Sendable, Equatable, CaseIterable {
    /// Scaled to cover the whole frame, aspect kept, the overflow cropped (centred).
    case fill
    /// Scaled to fit inside the frame, aspect kept, letterboxed on the underlay colour.
    case fit
    /// Not scaled: centred, cropped where larger than the frame.
    case center
    /// Scaled to the frame's size, aspect ignored.
    case stretch

    /// Where a `w`×`h` picture goes in a `width`×`height` frame.
    public func rect(pictureWidth w: Int, height h: Int, inWidth width: Int, height: Int) -> Rect {
        let fw = Double(width), fh = Double(height), pw = Double(max(1, w)), ph = Double(max(1, h))
        let k: Double
        switch self {
        case .stretch: return Rect(x: 0, y: 0, width: fw, height: fh)
        case .fill: k = max(fw / pw, fh / ph)
        case .fit: k = min(fw / pw, fh / ph)
        case .center:
            // Whole pixels: the picture is copied as is.
            return Rect(x: ((fw - pw) / 2).rounded(.down), y: ((fh - ph) / 2).rounded(.down), width: pw, height: ph)
        }
        let dw = pw * k, dh = ph * k
        return Rect(x: (fw - dw) / 2, y: (fh - dh) / 2, width: dw, height: dh)
    }
}

/// Where the logo picture goes.
public enum LogoPlacement: String, Sendable, Equatable, CaseIterable {
    /// Above the bezel, centred across the frame.
    case above
    /// Centred on the frame with the progress (a bar; the spinner while indeterminate) and the
    /// label and details under it, and no bezel: a boot splash. Content with a button, and modes
    /// without progress (text, notices, a custom picture), keep the bezel, the logo above it.
    case alone
    /// Not shown.
    case none
}

/// The logo as drawn: the picture scaled once for a style's size and scale.
enum LogoScaling {
    /// The pixel size of a `w`×`h` logo for at most `maxHeight` pixels high and `maxWidth` wide,
    /// aspect kept, never more than twice its own size.
    static func size(width w: Int, height h: Int, maxHeight: Double, maxWidth: Double) -> (width: Int, height: Int) {
        let pw = Double(max(1, w)), ph = Double(max(1, h))
        var k = min(maxHeight / ph, 2)
        k = min(k, maxWidth / pw)
        if !(k > 0) || !k.isFinite { k = 0 }
        return (max(1, Int((pw * k).rounded())), max(1, Int((ph * k).rounded())))
    }

    /// `image` at `size` (the same bitmap when that is its own size).
    static func scaled(_ image: Bitmap, to size: (width: Int, height: Int)) -> Bitmap? {
        if size.width == image.width && size.height == image.height { return image }
        guard let b = try? Bitmap(width: size.width, height: size.height, format: .argb8888) else { return nil }
        Canvas(b.surface).draw(image, in: Rect(x: 0, y: 0, width: Double(size.width), height: Double(size.height)))
        return b
    }
}
