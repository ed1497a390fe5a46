/// A view of pixels someone else owns: a shadow buffer, a DRM dumb buffer's mapping, a test
/// bitmap. Rows are `stride` bytes apart, which may be more than `width × bytesPerPixel`.
public struct Surface {
    public let base: UnsafeMutableRawPointer
    public let width: Int
    public let height: Int
    /// Bytes from one row to the next.
    public let stride: Int
    public let format: PixelFormat

    /// Checks the geometry; throws `RasterError` if it cannot be right.
    public init(base: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, format: PixelFormat) throws {
        guard width > 0, height > 0, width <= Bitmap.maxDimension, height <= Bitmap.maxDimension else {
            throw RasterError.invalidSize(width: width, height: height)
        }
        guard stride >= width * format.bytesPerPixel, stride % format.bytesPerPixel == 0 else {
            throw RasterError.invalidStride(stride: stride, width: width, format: format)
        }
        self.base = base; self.width = width; self.height = height; self.stride = stride; self.format = format
    }

    /// The whole surface as a rectangle.
    public var bounds: IntRect { IntRect(x: 0, y: 0, width: width, height: height) }

    @inlinable public func row32(_ y: Int) -> UnsafeMutablePointer<UInt32> {
        (base + y &* stride).assumingMemoryBound(to: UInt32.self)
    }

    @inlinable public func row16(_ y: Int) -> UnsafeMutablePointer<UInt16> {
        (base + y &* stride).assumingMemoryBound(to: UInt16.self)
    }

    /// The pixel at (x, y) as premultiplied `0xAARRGGBB` (XRGB and RGB565 read as opaque).
    public func pixel(x: Int, y: Int) -> UInt32 {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x),\(y)) outside \(width)x\(height)")
        switch format {
        case .xrgb8888: return row32(y)[x] | 0xFF00_0000
        case .argb8888: return row32(y)[x]
        case .rgb565: return Blend.expand565(row16(y)[x])
        }
    }

    /// A view of the rectangle `r` (clipped to the surface), or nil when nothing is left.
    public func subsurface(_ r: IntRect) -> Surface? {
        let c = r.intersection(bounds)
        guard !c.isEmpty else { return nil }
        return try? Surface(base: base + c.y * stride + c.x * format.bytesPerPixel,
                            width: c.width, height: c.height, stride: stride, format: format)
    }
}

/// Pixels in ordinary memory that this object owns (64-byte aligned rows).
public final class Bitmap {
    /// The largest width or height accepted (a 16K screen).
    public static let maxDimension = 16384

    /// The largest side of a HUD's canvas (an 8K screen): a canvas this size is 256 MB at 4
    /// bytes a pixel, and a shadow buffer and a backdrop may both be needed.
    public static let maxCanvasSide = 8192

    public let surface: Surface
    private let storage: UnsafeMutableRawPointer

    /// A zero-filled bitmap. `stride` defaults to the row size rounded up to 64 bytes.
    public init(width: Int, height: Int, format: PixelFormat = .argb8888, stride: Int? = nil) throws {
        guard width > 0, height > 0, width <= Bitmap.maxDimension, height <= Bitmap.maxDimension else {
            throw RasterError.invalidSize(width: width, height: height)
        }
        let rowBytes = width * format.bytesPerPixel
        let s = stride ?? ((rowBytes + 63) & ~63)
        guard s >= rowBytes, s % format.bytesPerPixel == 0 else {
            throw RasterError.invalidStride(stride: s, width: width, format: format)
        }
        storage = UnsafeMutableRawPointer.allocate(byteCount: s * height, alignment: 64)
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: s * height)
        surface = try Surface(base: storage, width: width, height: height, stride: s, format: format)
    }

    deinit { storage.deallocate() }

    public var width: Int { surface.width }
    public var height: Int { surface.height }
    public var format: PixelFormat { surface.format }

    /// Straight (non-premultiplied) RGBA bytes, top row first — what a PNG encoder wants.
    public func rgbaBytes() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * 4)
        out.withUnsafeMutableBufferPointer { o in
            for y in 0..<height { straightRow(y, alpha: true, into: UnsafeMutableBufferPointer(rebasing: o[(y * width * 4)...])) }
        }
        return out
    }

    /// True when every pixel is opaque (always for the formats without alpha).
    public var isOpaque: Bool {
        guard format == .argb8888 else { return true }
        for y in 0..<height { for x in 0..<width where surface.pixel(x: x, y: y) >> 24 != 0xFF { return false } }
        return true
    }

    /// Row `y` as straight (non-premultiplied) RGBA8 (`alpha`) or RGB8 bytes into `o`, which
    /// holds at least width × 4 (or 3) bytes: a PNG written one row at a time.
    public func straightRow(_ y: Int, alpha: Bool, into o: UnsafeMutableBufferPointer<UInt8>) {
        var i = 0
        for x in 0..<width {
            let p = surface.pixel(x: x, y: y)
            let a = UInt32(p >> 24)
            func un(_ c: UInt32) -> UInt8 {
                a == 0 ? 0 : UInt8(min(255, (c * 255 + a / 2) / a))
            }
            o[i] = un((p >> 16) & 0xFF); o[i + 1] = un((p >> 8) & 0xFF); o[i + 2] = un(p & 0xFF)
            if alpha { o[i + 3] = UInt8(a); i += 4 } else { i += 3 }
        }
    }

    /// An ARGB8888 bitmap whose rows are exactly `width` × 4 bytes apart, for a decoder to write
    /// straight RGBA8 into (`rawBytes`) before `premultiplyStraightRGBA()` makes it ARGB8888 in
    /// place: one picture-sized buffer instead of an RGBA array and a bitmap.
    public static func forStraightRGBA(width: Int, height: Int) throws -> Bitmap {
        try Bitmap(width: width, height: height, format: .argb8888, stride: width * 4)
    }

    /// The pixels' bytes (stride × height).
    public var rawBytes: UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(start: surface.base, count: surface.stride * height)
    }

    /// Turns straight RGBA8 bytes written into this bitmap (rows `width` × 4 bytes, as
    /// `forStraightRGBA` makes them) into premultiplied ARGB8888, in place — the same pixels as
    /// `init(width:height:rgba:)` gives.
    public func premultiplyStraightRGBA() {
        precondition(format == .argb8888 && surface.stride == width * 4, "not a bitmap for straight RGBA")
        let bytes = surface.base.assumingMemoryBound(to: UInt8.self)
        let pixels = surface.base.assumingMemoryBound(to: UInt32.self)
        for i in 0..<(width * height) {
            let r = UInt32(bytes[4 * i]), g = UInt32(bytes[4 * i + 1]), b = UInt32(bytes[4 * i + 2]), a = UInt32(bytes[4 * i + 3])
            pixels[i] = a << 24 | Blend.mul(r, a) << 16 | Blend.mul(g, a) << 8 | Blend.mul(b, a)
        }
    }

    /// A bitmap from straight RGBA bytes (e.g. a decoded PNG), premultiplied into ARGB8888.
    public convenience init(width: Int, height: Int, rgba: [UInt8]) throws {
        try self.init(width: width, height: height, format: .argb8888)
        precondition(rgba.count >= width * height * 4, "rgba buffer too small")
        rgba.withUnsafeBufferPointer { src in
            for y in 0..<height {
                let row = surface.row32(y)
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    let a = UInt32(src[i + 3])
                    row[x] = a << 24 | Blend.mul(UInt32(src[i]), a) << 16 | Blend.mul(UInt32(src[i + 1]), a) << 8
                        | Blend.mul(UInt32(src[i + 2]), a)
                }
            }
        }
    }
}
