@testable import KioskRaster
import Testing

struct PremultiplyCase: Sendable, CustomTestStringConvertible {
    let color: Color
    let expected: PremultipliedColor
    var testDescription: String { "(\(color.r), \(color.g), \(color.b), a \(color.a))" }
}

@Suite("Color")
struct ColorTests {
    // Rule: premultiplication rounds like cairo/pixman: c16 = floor(c·a·65535 + 0.5), c8 = c16 >> 8 (scene table).
    @Test(arguments: [
        PremultiplyCase(color: Color(white: 0, a: 0.5), expected: PremultipliedColor(r: 0, g: 0, b: 0, a: 128)),
        PremultiplyCase(color: Color(white: 0.9, a: 0.8), expected: PremultipliedColor(r: 184, g: 184, b: 184, a: 204)),
        PremultiplyCase(color: Color(white: 0, a: 0.7), expected: PremultipliedColor(r: 0, g: 0, b: 0, a: 179)),
        PremultiplyCase(color: Color(white: 0, a: 0.1), expected: PremultipliedColor(r: 0, g: 0, b: 0, a: 25)),
        PremultiplyCase(color: .white, expected: PremultipliedColor(r: 255, g: 255, b: 255, a: 255)),
        PremultiplyCase(color: .clear, expected: PremultipliedColor(r: 0, g: 0, b: 0, a: 0)),
        PremultiplyCase(color: Color(rgb: 0xFF8000), expected: PremultipliedColor(r: 255, g: 128, b: 0, a: 255)),
    ])
    func premultipliedMatchesSceneTable(_ c: PremultiplyCase) {
        #expect(c.color.premultiplied == c.expected)
    }

    // Rule: the premultiplied value is exactly floor(v·65535 + 0.5) >> 8 for every channel (sweep).
    @Test func premultipliedFormulaSweep() {
        var bad = 0
        for ai in 0...40 {
            for ci in 0...40 {
                let a = Double(ai) / 40, c = Double(ci) / 40
                let p = Color(r: c, g: 1 - c, b: c / 2, a: a).premultiplied
                func q(_ v: Double) -> UInt8 { UInt8(Int((v * 65535 + 0.5).rounded(.down)) >> 8) }
                if p != PremultipliedColor(r: q(c * a), g: q((1 - c) * a), b: q(c / 2 * a), a: q(a)) { bad += 1 }
                if p.r > p.a || p.g > p.a || p.b > p.a { bad += 1 }
            }
        }
        #expect(bad == 0)
    }

    // Rule: NaN, −∞ and negative channels count as 0 (no crash), in colour and in alpha.
    @Test(arguments: [Double.nan, -Double.infinity, -1, -0.25, -0.0])
    func lowOrNaNChannelsClampToZero(_ v: Double) {
        let alpha = Color(white: 0, a: 0.6).premultiplied.a
        #expect(Color(r: v, g: v, b: v, a: 0.6).premultiplied == PremultipliedColor(r: 0, g: 0, b: 0, a: alpha))
        #expect(Color(r: 0.5, g: 1, b: 0.2, a: v).premultiplied == PremultipliedColor(r: 0, g: 0, b: 0, a: 0))
        #expect(Color(white: 1).withOpacity(v).premultiplied.a == 0)
    }

    // Rule: an alpha above 1 (or +∞) counts as 1.
    @Test(arguments: [1.0, 1.5, Double.infinity])
    func highAlphaClampsToOne(_ a: Double) {
        #expect(Color(r: 0.2, g: 0.4, b: 1, a: a).premultiplied == Color(r: 0.2, g: 0.4, b: 1).premultiplied)
    }

    // Rule: a colour channel above 1 (or +∞) counts as 1 before premultiplying, so a premultiplied
    // channel never exceeds alpha.
    @Test(arguments: [1.5, 2, Double.infinity])
    func highChannelsClampToOneBeforePremultiplying(_ v: Double) {
        let p = Color(r: v, g: 0.2, b: v, a: 0.5).premultiplied
        #expect(p == Color(r: 1, g: 0.2, b: 1, a: 0.5).premultiplied)
        #expect(p.r <= p.a && p.b <= p.a)
    }

    // Rule: a fill of an over-range colour gives the same pixels as the clamped colour (no carry
    // from one channel into the next).
    @Test func overRangeColourDoesNotCorruptNeighbouringChannels() throws {
        let (b1, c1) = try makeCanvas(4, 1, .argb8888)
        let (b2, c2) = try makeCanvas(4, 1, .argb8888)
        c1.clear(to: .white); c2.clear(to: .white)
        c1.fill(IntRect(x: 0, y: 0, width: 4, height: 1), .solid(Color(r: 2, g: 0, b: 0, a: 0.5)))
        c2.fill(IntRect(x: 0, y: 0, width: 4, height: 1), .solid(Color(r: 1, g: 0, b: 0, a: 0.5)))
        #expect(pixels(b2.surface) == Array(repeating: 0xFFFF_7F7F, count: 4))
        #expect(pixels(b1.surface) == pixels(b2.surface))
    }

    // Rule: withOpacity multiplies alpha by the clamped opacity; the other initialisers map 0…255 / white.
    @Test func initialisersAndOpacity() {
        #expect(Color(white: 0.5, a: 0.8).withOpacity(0.5) == Color(r: 0.5, g: 0.5, b: 0.5, a: 0.4))
        #expect(Color.white.withOpacity(2).a == 1)
        #expect(Color(rgb: 0x336699, a: 0.5) == Color(r: 0x33 / 255.0, g: 0x66 / 255.0, b: 0x99 / 255.0, a: 0.5))
        #expect(Color.black.premultiplied.argb == 0xFF00_0000)
        #expect(Color.clear.premultiplied.argb == 0)
    }

    // Rule: PremultipliedColor packs as 0xAARRGGBB and unpacks back.
    @Test func premultipliedColorARGBRoundTrip() {
        var rng = SplitMix64(seed: 9)
        for _ in 0..<500 {
            let v = UInt32.random(in: 0...UInt32.max, using: &rng)
            #expect(PremultipliedColor(argb: v).argb == v)
        }
        #expect(PremultipliedColor(r: 1, g: 2, b: 3, a: 4).argb == 0x0401_0203)
    }

    // Rule: clamp01 maps NaN to 0 and clamps to 0…1.
    @Test func clamp01Rules() {
        #expect(clamp01(.nan) == 0)
        #expect(clamp01(-.infinity) == 0)
        #expect(clamp01(.infinity) == 1)
        #expect(clamp01(0.25) == 0.25)
    }
}
