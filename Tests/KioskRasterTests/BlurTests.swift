@testable import KioskRaster
import Testing

@Suite("Blur")
struct BlurTests {
    // Rule: blurring a uniform region leaves it exactly uniform (edges are clamped, not darkened).
    @Test(arguments: [PixelFormat.argb8888, .xrgb8888, .rgb565], [1, 3, 12])
    func uniformStaysUniform(_ format: PixelFormat, _ radius: Int) throws {
        let (bitmap, canvas) = try makeCanvas(20, 14, format)
        canvas.clear(to: Color(r: 0.75, g: 0.5, b: 0.25, a: 0.8))
        let before = rawBytes(bitmap.surface)
        canvas.blur(IntRect(x: 2, y: 1, width: 15, height: 11), radius: radius)
        #expect(rawBytes(bitmap.surface) == before)
        #expect(canvas.damage.contains(x: 2, y: 1))
    }

    // Rule: a single bright pixel spreads symmetrically into a smaller peak, and its total is roughly kept.
    @Test(arguments: [1, 2])
    func impulseSpreadsAndKeepsEnergy(_ radius: Int) throws {
        let (bitmap, canvas) = try makeCanvas(25, 25, .argb8888)
        bitmap.surface.row32(12)[12] = 0xFFFF_FFFF
        canvas.blur(bitmap.surface.bounds, radius: radius)
        let s = bitmap.surface
        let peak = channel(s.pixel(x: 12, y: 12), 24)
        #expect(peak > 0 && peak < 255)
        #expect(channel(s.pixel(x: 13, y: 12), 24) > 0 && channel(s.pixel(x: 12, y: 11), 24) > 0)
        var total = 0
        for y in 0..<25 {
            for x in 0..<25 {
                let a = channel(s.pixel(x: x, y: y), 24)
                total += a
                #expect(a <= peak)
                #expect(s.pixel(x: x, y: y) == s.pixel(x: 24 - x, y: y) && s.pixel(x: x, y: y) == s.pixel(x: x, y: 24 - y))
                if abs(x - 12) > 3 * radius || abs(y - 12) > 3 * radius { #expect(a == 0, "(\(x),\(y)) beyond 3 box passes") }
            }
        }
        #expect(abs(total - 255) <= 26, "total alpha \(total) vs 255")
    }

    // Rule: radius 0 (or negative) does nothing and reports no damage.
    @Test(arguments: [0, -1, Int.min])
    func nonPositiveRadiusDoesNothing(_ radius: Int) throws {
        let (bitmap, canvas) = try makeCanvas(10, 8, .argb8888)
        fillRandom(bitmap.surface, seed: 91)
        let before = rawBytes(bitmap.surface)
        canvas.blur(bitmap.surface.bounds, radius: radius)
        #expect(rawBytes(bitmap.surface) == before)
        #expect(canvas.damage.isEmpty)
    }

    // Rule: a blur changes only pixels inside its rectangle (and the clip), and reads only those.
    @Test func blurIsConfinedToItsRect() throws {
        let (bitmap, canvas) = try makeCanvas(24, 20, .argb8888)
        fillRandom(bitmap.surface, seed: 92)
        let before = pixels(bitmap.surface)
        let r = IntRect(x: 5, y: 4, width: 10, height: 9)
        canvas.blur(r, radius: 2)
        let after = pixels(bitmap.surface)
        var changedInside = 0
        for y in 0..<20 {
            for x in 0..<24 {
                if r.contains(x: x, y: y) {
                    if after[y * 24 + x] != before[y * 24 + x] { changedInside += 1 }
                } else {
                    #expect(after[y * 24 + x] == before[y * 24 + x], "(\(x),\(y)) outside changed")
                }
            }
        }
        #expect(changedInside > 45)
        #expect(canvas.damage.rects == [r])

        // Reads only its rectangle: changing pixels outside it does not change the result.
        let (other, oc) = try makeCanvas(24, 20, .argb8888)
        fillRandom(other.surface, seed: 93)
        for y in r.minY..<r.maxY { for x in r.minX..<r.maxX { other.surface.row32(y)[x] = before[y * 24 + x] } }
        oc.blur(r, radius: 2)
        for y in r.minY..<r.maxY { for x in r.minX..<r.maxX { #expect(other.surface.pixel(x: x, y: y) == after[y * 24 + x]) } }
    }

    // Rule: a blur rectangle partly off the canvas or outside the clip is cut down to both.
    @Test func blurRectIsClipped() throws {
        let (bitmap, canvas) = try makeCanvas(16, 12, .argb8888)
        fillRandom(bitmap.surface, seed: 94)
        let before = pixels(bitmap.surface)
        canvas.clip = IntRect(x: 0, y: 0, width: 10, height: 12)
        canvas.blur(IntRect(x: -20, y: 6, width: 100, height: 100), radius: 4)
        #expect(canvas.damage.rects == [IntRect(x: 0, y: 6, width: 10, height: 6)])
        let after = pixels(bitmap.surface)
        for i in before.indices where !(i % 16 < 10 && i / 16 >= 6) { #expect(after[i] == before[i]) }
    }
}
