/// How much of a PNG a read may decode, decided from the header before any pixel is read.
///
/// - At most `maxPixels` pixels (width × height): decoded as is.
/// - More, and not interlaced: decoded row by row and box-filtered down while streaming to fit
///   within `maxWidth` × `maxHeight` (aspect ratio kept; never enlarged), so the memory used is
///   the output plus a few rows whatever the file says.
/// - More and interlaced (Adam7 needs the whole image in memory), or over the hard caps
///   (`maxSide` on a side, `maxTotalPixels` in all): refused, naming the size.
/// - More work than `maxWorkBytes` (2^26 pixels at 8 bits a channel, e.g. 8192 × 8192; a
///   10000 × 10000 picture is past it): refused, scaled down or not — memory would allow it
///   (the rows stream), but every pixel is still inflated and converted, and a read must end
///   in about a second (the daemon reads on its loop).
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
    /// The most work a read may do, whatever the limit: width × height × the bytes a pixel takes
    /// in the file or as RGBA8, whichever is more (`PNGHeader.workBytesPerPixel`) — an
    /// 8192 × 8192 image at 8 bits a channel (2^26 pixels), half that in 16-bit RGBA. Decoding
    /// costs about that many bytes of libpng's transforms whether the image is kept as is or
    /// box-filtered down (release build, one core: 2^28 pixels of 1-bit gray, a 32 KB zlib
    /// bomb, took 2.3 s; 2^25 of 16-bit RGBA 1.2 s), so a header asking for more is refused
    /// before any pixel is read, and every read ends in about a second.
    public static let maxWorkBytes = 1 << 28
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
        let perPixel = header.workBytesPerPixel
        if pixels > Self.maxWorkBytes / perPixel {
            return .failure(PNGError(operation: "read", message:
                "\(size); at most \(Self.maxWorkBytes / perPixel) pixels are decoded"
                + (perPixel > 4 ? " at 16 bits a sample with \(perPixel / 2) channels" : "") + ", even to be scaled down"))
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
