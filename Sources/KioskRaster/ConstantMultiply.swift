/// One 8-bit factor times every channel of a span with one 16-bit high multiply per lane instead
/// of two multiplies (the dim and the blit + dim, `Blend.overSpan`).
///
/// pixman's `MUL(x, a)` is a multiply, an add and pmulhuw by 257 per lane: two multiplies. For a
/// factor known for the whole span there is often a 16-bit `M` and a byte `c` with
/// `((256·x + c) · M) >> 24 == MUL(x, a)` for every x in 0…255 (found by trying every M near
/// 257·a and every c, checked over all x; the test checks the table again for every a and x).
/// The lanes already hold `256·x + (other byte)`: `(lane & 0xFF00) | c` for green and alpha,
/// `(lane << 8) | c` for blue and red, so a pixel costs two high multiplies where it cost four
/// (el_dim is bound by the multiplier, one 128-bit multiply per cycle here).
///
/// Every factor from 125 to 255 has one (a dim of up to 51 % black, whatever its opacity in a
/// fade), and seven below; the others (`entry(a) == 0`) take the two-multiply path.
///
/// x86 only: NEON has no 16-bit high multiply, so `mulhi` there is umull, umull2 and uzp2 per
/// eight lanes and the span costs more instructions than pixman's multiply-accumulate (mla) and
/// shift-accumulate (usra); `Blend.overSpan` takes the two-multiply path on arm64.
enum ConstantMultiply {
    /// `M << 8 | c` for factor a (0…255), or 0 when no such pair exists.
    @inline(__always)
    static func entry(_ a: UInt32) -> UInt32 { table[Int(a & 0xFF)] }

    /// `MUL(x, a)` of every channel of eight pixels with `m` = M and `c` = c in every lane.
    @inline(__always)
    static func mul8(_ x: SIMD8<UInt32>, _ m: SIMD16<UInt16>, _ c: SIMD16<UInt16>) -> SIMD8<UInt32> {
        let v = unsafeBitCast(x, to: SIMD16<UInt16>.self)
        let rb = mulhi((v &<< 8) | c, m) &>> 8
        let ag = mulhi((v & 0xFF00) | c, m) & 0xFF00
        return unsafeBitCast(rb | ag, to: SIMD8<UInt32>.self)
    }

    /// `(t · m) >> 16` in every lane: pmulhuw on SSE2; umull, umull2 and uzp2 on NEON.
    @inline(__always)
    static func mulhi(_ t: SIMD16<UInt16>, _ m: SIMD16<UInt16>) -> SIMD16<UInt16> {
        // In halves: the SIMD16 widening conversions are not inlined (a call per step).
        SIMD16(lowHalf: mulhi(t.lowHalf, m.lowHalf), highHalf: mulhi(t.highHalf, m.highHalf))
    }

    @inline(__always)
    static func mulhi(_ t: SIMD8<UInt16>, _ m: SIMD8<UInt16>) -> SIMD8<UInt16> {
        Blend.narrow((Blend.widen(t) &* Blend.widen(m)) &>> 16)
    }

    /// One MUL the way `mul8` does it, for the tests.
    static func mul(_ x: UInt32, _ a: UInt32) -> UInt32? {
        let e = entry(a)
        if e == 0 { return nil }
        return ((256 &* x &+ (e & 0xFF)) &* (e >> 8)) >> 24
    }

    static let table: [UInt32] = [
        0x000000, 0x01FDC2, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000,
        0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000,
        0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000,
        0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000,
        0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000,
        0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000,
        0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000,
        0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000,
        0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000,
        0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000,
        0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x5572FF, 0x000000, 0x000000,
        0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000,
        0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x667BFF, 0x000000,
        0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000,
        0x000000, 0x000000, 0x000000, 0x000000, 0x748BFF, 0x000000, 0x000000, 0x7780FF,
        0x7880FF, 0x000000, 0x7A85FF, 0x000000, 0x000000, 0x7D80FF, 0x7E80FF, 0x7F80FF,
        0x8041FF, 0x817EFF, 0x827DFF, 0x8380FD, 0x8482F9, 0x857AFF, 0x8683F7, 0x8779FE,
        0x8878FE, 0x8983F4, 0x8A88EF, 0x8B74FF, 0x8C88ED, 0x8D89EB, 0x8E88EC, 0x8F8FE5,
        0x908CE7, 0x918CE6, 0x9291E1, 0x9391E0, 0x948CE4, 0x9595DB, 0x9687E7, 0x978EE0,
        0x9898D7, 0x9967FE, 0x9A97D7, 0x9B95D8, 0x9C97D6, 0x9D8FDC, 0x9E99D3, 0x9F9ECE,
        0xA099D2, 0xA191D8, 0xA29FCC, 0xA3A3C9, 0xA47FE4, 0xA596D2, 0xA69CCD, 0xA7A7C4,
        0xA8A6C4, 0xA9A9C2, 0xAA56FF, 0xABA8C2, 0xACA7C2, 0xADADBD, 0xAEA9C0, 0xAFABBE,
        0xB0AFBB, 0xB1AFBA, 0xB2AEBB, 0xB3A9BE, 0xB4A5C0, 0xB5AFB9, 0xB692CD, 0xB7B3B6,
        0xB8B8B2, 0xB9B4B4, 0xBAB6B3, 0xBBABBA, 0xBCBCAE, 0xBDBBAE, 0xBEBAAF, 0xBFC0AA,
        0xC0B9AF, 0xC1BCAD, 0xC2C3A8, 0xC3B4B1, 0xC4C4A7, 0xC5C5A6, 0xC6C3A7, 0xC7C0A9,
        0xC8C4A6, 0xC9C7A4, 0xCAC2A7, 0xCBC9A3, 0xCC99C0, 0xCDC8A3, 0xCEBBAB, 0xCFCE9E,
        0xD0D19D, 0xD1CD9F, 0xD2C5A3, 0xD3CBA0, 0xD4D39B, 0xD5CE9E, 0xD6D699, 0xD7D39B,
        0xD8D699, 0xD9D19C, 0xDAD29B, 0xDBD997, 0xDCD897, 0xDDCD9D, 0xDEDA96, 0xDFE092,
        0xE0D897, 0xE1D29A, 0xE2E291, 0xE3E490, 0xE4E191, 0xE5E390, 0xE6E092, 0xE7E58F,
        0xE8E88D, 0xE9EA8C, 0xEAE58F, 0xEBE68E, 0xECEC8B, 0xEDE88D, 0xEEDE92, 0xEFF088,
        0xF0E290, 0xF1F188, 0xF2EF89, 0xF3F188, 0xF4F586, 0xF5F188, 0xF6F287, 0xF7F884,
        0xF8F287, 0xF9F685, 0xFAF685, 0xFBFC82, 0xFCFA83, 0xFDFE81, 0xFE02FF, 0xFF01FF,
    ]
}
