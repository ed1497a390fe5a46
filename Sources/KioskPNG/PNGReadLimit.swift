/// How much of a PNG a read may decode, decided from the header before any pixel is read.
///
/// - At most `maxPixels` pixels (width × height): decoded as is.
/// - More, and not interlaced: decoded row by row and box-filtered down while streaming to fit
///   within `maxWidth` × `maxHeight` (aspect ratio kept; never enlarged), so the memory used is
///   the output plus a few rows whatever the file says.
/// - More and interlaced (Adam7 needs the whole image in memory), or over the hard caps
///   (`maxSide` on a side, `maxTotalPixels` in all): refused, naming the size.
/// - Files of more than `maxFileBytes` bytes are refused before reading.
public struct PNGReadLimit: Sendable, Equatable {
    /// The most pixels decoded at the image's own size.
    public var maxPixels: Int
    /// The box a larger image is scaled down to fit in.
    public var maxWidth: Int
    public var maxHeight: Int
    /// The largest file read.
    public var maxFileBytes: Int

    /// Hard caps, whatever the limit: 65535 on a side (libpng's png_set_user_limits is set to
    /// it too) and 2^31 pixels in all.
    public static let maxSide = 65535
    public static let maxTotalPixels = 1 << 31
    /// The largest allocation libpng may make for one ancillary chunk (png_set_chunk_malloc_max).
    static let chunkMallocMax = 1 << 20

    /// A limit; `maxWidth`/`maxHeight` are clamped to 1…`maxSide`, `maxPixels` to ≥ 0.
    public init(maxPixels: Int, maxWidth: Int, maxHeight: Int, maxFileBytes: Int = 64 << 20) {
        self.maxPixels = max(0, maxPixels)
        self.maxWidth = min(max(1, maxWidth), Self.maxSide)
        self.maxHeight = min(max(1, maxHeight), Self.maxSide)
        self.maxFileBytes = max(0, maxFileBytes)
    }

    /// What `PNG.read(path:)` and `PNG.decode(_:)` use: up to 64 Mpixels (256 MB of RGBA) as
    /// is, larger images scaled down to fit 8192 × 8192, files up to 64 MiB.
    public static let `default` = PNGReadLimit(maxPixels: 1 << 26, maxWidth: 8192, maxHeight: 8192)

    /// The size an image with `header` is decoded at, or why it is refused.
    public func decodedSize(of header: PNGHeader) -> Result<(width: Int, height: Int), PNGError> {
        let w = header.width, h = header.height, pixels = header.pixels
        let size = "image is \(w)x\(h) (\(pixels) pixels)"
        if w > Self.maxSide || h > Self.maxSide || pixels > Self.maxTotalPixels {
            return .failure(PNGError(operation: "read", message:
                "\(size); at most \(Self.maxSide) pixels on a side and \(Self.maxTotalPixels) in all"))
        }
        if pixels <= maxPixels { return .success((w, h)) }
        if header.interlaced {
            return .failure(PNGError(operation: "read", message:
                "\(size); at most \(maxPixels) pixels, or a non-interlaced PNG to be scaled down"))
        }
        if w <= maxWidth && h <= maxHeight { return .success((w, h)) }
        // The side that hits its bound first takes it; the other keeps the ratio (rounded, ≥ 1).
        if w * maxHeight >= h * maxWidth {
            return .success((maxWidth, max(1, min(maxHeight, (h * maxWidth + w / 2) / w))))
        }
        return .success((max(1, min(maxWidth, (w * maxHeight + h / 2) / h)), maxHeight))
    }
}
