import KioskSeams
@testable import KioskDRM
import KioskRaster
import KioskSys
import Testing

/// The copy to scanout: rotation, format conversion, pitch, only the damaged rectangle.
@Suite struct ScanoutCopyTests {
    func picture(_ w: Int, _ h: Int, _ f: PixelFormat = .xrgb8888) throws -> Bitmap {
        let b = try Bitmap(width: w, height: h, format: f)
        for y in 0..<h {
            for x in 0..<w {
                if f == .rgb565 { b.surface.row16(y)[x] = UInt16(truncatingIfNeeded: x &* 31 &+ y &* 2047) }
                else { b.surface.row32(y)[x] = 0xFF00_0000 | UInt32(x) << 12 | UInt32(y) }
            }
        }
        return b
    }

    /// Every pixel lands where DisplayTransform.toPanel says (pixel centres), through a padded pitch.
    @Test(arguments: Rotation.allCases)
    func rotationMatchesTheTransform(_ r: Rotation) throws {
        let src = try picture(37, 23)
        let t = DisplayTransform(rotation: r, width: 37, height: 23)
        let dst = try Bitmap(width: t.panelWidth, height: t.panelHeight, format: .xrgb8888, stride: t.panelWidth * 4 + 12)
        ScanoutCopy.copy(src.surface, rect: src.surface.bounds, to: dst.surface, rotation: r)
        for y in 0..<23 {
            for x in 0..<37 {
                let p = t.toPanel(x: Double(x) + 0.5, y: Double(y) + 0.5)
                #expect(dst.surface.row32(Int(p.y))[Int(p.x)] == src.surface.row32(y)[x], "(\(x),\(y)) at \(r)")
            }
        }
    }

    /// Only the rectangle is written; everything else in the destination stays as it was.
    @Test(arguments: Rotation.allCases)
    func onlyTheDamageIsWritten(_ r: Rotation) throws {
        let src = try picture(50, 40)
        let t = DisplayTransform(rotation: r, width: 50, height: 40)
        let dst = try Bitmap(width: t.panelWidth, height: t.panelHeight, format: .xrgb8888)
        for y in 0..<t.panelHeight { for x in 0..<t.panelWidth { dst.surface.row32(y)[x] = 0xDEAD_BEEF } }
        let rect = IntRect(x: 7, y: 33, width: 41, height: 5)   // crosses tile edges
        ScanoutCopy.copy(src.surface, rect: rect, to: dst.surface, rotation: r)
        let panelRect = t.toPanel(rect)
        for y in 0..<t.panelHeight {
            for x in 0..<t.panelWidth {
                let inside = panelRect.contains(x: x, y: y)
                let v = dst.surface.row32(y)[x]
                #expect(inside ? v != 0xDEAD_BEEF : v == 0xDEAD_BEEF, "panel (\(x),\(y)) \(r)")
            }
        }
    }

    @Test func formatConversions() throws {
        let src = try picture(8, 4)
        let d16 = try Bitmap(width: 8, height: 4, format: .rgb565)
        ScanoutCopy.copy(src.surface, rect: src.surface.bounds, to: d16.surface, rotation: .none)
        let p = src.surface.row32(3)[5]
        let r5: UInt32 = (p >> 8) & 0xF800, g6: UInt32 = (p >> 5) & 0x07E0, b5: UInt32 = (p >> 3) & 0x1F
        let want = UInt16(r5 | g6 | b5)
        #expect(d16.surface.row16(3)[5] == want)
        let back = try Bitmap(width: 8, height: 4, format: .xrgb8888)
        ScanoutCopy.copy(d16.surface, rect: d16.surface.bounds, to: back.surface, rotation: .half)
        #expect(back.surface.row32(0)[2] == Blend.expand565(d16.surface.row16(3)[5]))
        let s16 = try picture(9, 5, .rgb565)
        let r16 = try Bitmap(width: 5, height: 9, format: .rgb565)
        ScanoutCopy.copy(s16.surface, rect: s16.surface.bounds, to: r16.surface, rotation: .quarter)
        #expect(r16.surface.row16(2)[4 - 1] == s16.surface.row16(1)[2])
    }
}
