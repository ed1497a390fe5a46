import KioskSeams
import KioskRaster

/// Pixel conversions the copy to scanout does (the shadow buffer normally has the scanout's own
/// format, so the first two are the ones that run).
protocol PixelConversion {
    associatedtype Source: FixedWidthInteger
    associatedtype Destination: FixedWidthInteger
    static func convert(_ s: Source) -> Destination
}
enum Copy32: PixelConversion {
    @inline(__always) static func convert(_ s: UInt32) -> UInt32 { s }
}
enum Copy16: PixelConversion {
    @inline(__always) static func convert(_ s: UInt16) -> UInt16 { s }
}
enum Pack565: PixelConversion {
    @inline(__always) static func convert(_ s: UInt32) -> UInt16 {
        UInt16(truncatingIfNeeded: (s >> 8) & 0xF800 | (s >> 5) & 0x07E0 | (s >> 3) & 0x001F)
    }
}
enum Expand565: PixelConversion {
    @inline(__always) static func convert(_ s: UInt16) -> UInt32 {
        let p = UInt32(s)
        let r = (p >> 11) & 0x1F, g = (p >> 5) & 0x3F, b = p & 0x1F
        return 0xFF00_0000 | (r << 3 | r >> 2) << 16 | (g << 2 | g >> 4) << 8 | (b << 3 | b >> 2)
    }
}

/// Copies damaged rectangles of the picture (the shadow buffer, in ordinary memory) into a
/// scanout buffer, turning them by the output's rotation and converting the format if needed.
/// Only writes the destination, never reads it (scanout memory is often uncached or
/// write-combined: reads are very slow, and reading the buffer on screen is what we never do).
///
/// Rows: one pointer per source row and per destination row, hoisted out of the inner loops.
/// 0° is a row memcpy; 180° walks each destination row backwards; 90° and 270° go through
/// 32×32-pixel tiles so both the column reads and the row writes stay in cache.
public enum ScanoutCopy {
    static let tile = 32

    /// The panel pixel a picture pixel lands on: picture `w`×`h`.
    @inline(__always)
    public static func panelPixel(x: Int, y: Int, w: Int, h: Int, rotation: Rotation) -> (x: Int, y: Int) {
        switch rotation {
        case .none: return (x, y)
        case .quarter: return (h - 1 - y, x)
        case .half: return (w - 1 - x, h - 1 - y)
        case .threeQuarters: return (y, w - 1 - x)
        }
    }

    /// Copies `rect` (picture coordinates, clipped to the picture) from `src` to `dst`.
    /// `dst` is the panel: `src.height`×`src.width` for 90°/270°, else `src`'s size.
    public static func copy(_ src: Surface, rect: IntRect, to dst: Surface, rotation: Rotation) {
        let r = rect.intersection(src.bounds)
        guard !r.isEmpty else { return }
        let swapped = rotation == .quarter || rotation == .threeQuarters
        precondition(dst.width == (swapped ? src.height : src.width) && dst.height == (swapped ? src.width : src.height),
                     "scanout \(dst.width)x\(dst.height) does not fit a \(src.width)x\(src.height) picture at \(rotation)")
        switch (src.format.bytesPerPixel, dst.format.bytesPerPixel) {
        case (4, 4): run(Copy32.self, src, r, dst, rotation)
        case (2, 2): run(Copy16.self, src, r, dst, rotation)
        case (4, 2): run(Pack565.self, src, r, dst, rotation)
        default: run(Expand565.self, src, r, dst, rotation)
        }
    }

    @inline(__always)
    static func run<C: PixelConversion>(_: C.Type, _ src: Surface, _ r: IntRect, _ dst: Surface, _ rotation: Rotation) {
        let sBase = src.base, dBase = dst.base
        let sStride = src.stride, dStride = dst.stride
        let w = src.width, h = src.height
        @inline(__always) func sRow(_ y: Int) -> UnsafeMutablePointer<C.Source> {
            (sBase + y &* sStride).assumingMemoryBound(to: C.Source.self)
        }
        @inline(__always) func dRow(_ y: Int) -> UnsafeMutablePointer<C.Destination> {
            (dBase + y &* dStride).assumingMemoryBound(to: C.Destination.self)
        }
        switch rotation {
        case .none:
            if C.Source.self == C.Destination.self {
                let bytes = r.width &* MemoryLayout<C.Source>.stride
                let off = r.minX &* MemoryLayout<C.Source>.stride
                for y in r.minY..<r.maxY {
                    (dBase + y &* dStride + off).copyMemory(from: sBase + y &* sStride + off, byteCount: bytes)
                }
            } else {
                for y in r.minY..<r.maxY {
                    let s = sRow(y), d = dRow(y)
                    for x in r.minX..<r.maxX { d[x] = C.convert(s[x]) }
                }
            }
        case .half:
            for y in r.minY..<r.maxY {
                let s = sRow(y), d = dRow(h &- 1 &- y) + (w &- 1)
                for x in r.minX..<r.maxX { d[-x] = C.convert(s[x]) }
            }
        case .quarter, .threeQuarters:
            // Panel row = x (90°) or w-1-x (270°); panel column = h-1-y (90°) or y (270°).
            let cw = rotation == .quarter
            let t = tile
            var ty = r.minY
            while ty < r.maxY {
                let ty1 = min(ty &+ t, r.maxY)
                var tx = r.minX
                while tx < r.maxX {
                    let tx1 = min(tx &+ t, r.maxX)
                    for x in tx..<tx1 {
                        let d = dRow(cw ? x : w &- 1 &- x)
                        var s = sRow(ty) + x
                        let sStep = sStride / MemoryLayout<C.Source>.stride
                        if cw {
                            var col = h &- 1 &- ty
                            for _ in ty..<ty1 { d[col] = C.convert(s.pointee); s += sStep; col &-= 1 }
                        } else {
                            var col = ty
                            for _ in ty..<ty1 { d[col] = C.convert(s.pointee); s += sStep; col &+= 1 }
                        }
                    }
                    tx = tx1
                }
                ty = ty1
            }
        }
    }
}
