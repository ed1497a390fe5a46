/// How a pixel is stored in memory (little-endian, as DRM names them).
public enum PixelFormat: Sendable, Equatable, CustomStringConvertible {
    /// 32 bpp `0xXXRRGGBB`; the X byte is written as 0xFF and never read.
    case xrgb8888
    /// 32 bpp `0xAARRGGBB`, premultiplied alpha.
    case argb8888
    /// 16 bpp `RRRRRGGGGGGBBBBB`.
    case rgb565

    /// Bytes per pixel.
    public var bytesPerPixel: Int {
        switch self {
        case .xrgb8888, .argb8888: 4
        case .rgb565: 2
        }
    }

    public var description: String {
        switch self {
        case .xrgb8888: "XRGB8888"
        case .argb8888: "ARGB8888"
        case .rgb565: "RGB565"
        }
    }
}

/// Errors from the rasterizer's own checks.
public enum RasterError: Error, Equatable, CustomStringConvertible {
    /// A surface size that is zero, negative or larger than `Bitmap.maxDimension`.
    case invalidSize(width: Int, height: Int)
    /// A stride too small for the width, or not a multiple of the pixel size.
    case invalidStride(stride: Int, width: Int, format: PixelFormat)

    public var description: String {
        switch self {
        case let .invalidSize(w, h):
            "invalid surface size \(w)x\(h): each side must be 1…\(Bitmap.maxDimension)"
        case let .invalidStride(s, w, f):
            "invalid stride \(s) bytes for \(w) px of \(f)"
        }
    }
}
