import Glibc
@testable import KioskRaster
import Testing

struct Angle: Sendable, CustomTestStringConvertible {
    let value: Double, name: String
    var testDescription: String { name }
}

@Suite("Trig")
struct TrigTests {
    // Rule: sinCos agrees with libm within 1e-12 at the reference angles.
    @Test(arguments: [Angle(value: 0, name: "0"), Angle(value: .pi / 6, name: "π/6"), Angle(value: .pi / 4, name: "π/4"),
                      Angle(value: .pi / 2, name: "π/2"), Angle(value: .pi, name: "π"), Angle(value: 3 * .pi / 2, name: "3π/2"),
                      Angle(value: -.pi / 3, name: "−π/3"), Angle(value: 100, name: "100")])
    func knownValues(_ a: Angle) {
        let (s, c) = sinCos(a.value)
        #expect(abs(s - Glibc.sin(a.value)) <= 1e-12, "sin \(a.name): \(s) vs \(Glibc.sin(a.value))")
        #expect(abs(c - Glibc.cos(a.value)) <= 1e-12, "cos \(a.name): \(c) vs \(Glibc.cos(a.value))")
    }

    // Rule: the exact textbook values come out within 1e-13 (sin π/6 = ½, cos π/4 = √2/2, sin 3π/2 = −1, …).
    @Test func textbookValues() {
        #expect(sinCos(0) == (0, 1))
        #expect(abs(sinCos(.pi / 6).sin - 0.5) <= 1e-13)
        #expect(abs(sinCos(.pi / 4).cos - 0.5.squareRoot()) <= 1e-13)
        #expect(abs(sinCos(.pi / 2).sin - 1) <= 1e-13 && abs(sinCos(.pi / 2).cos) <= 1e-13)
        #expect(abs(sinCos(.pi).cos + 1) <= 1e-13)
        #expect(abs(sinCos(3 * .pi / 2).sin + 1) <= 1e-13)
        #expect(abs(sinCos(-.pi / 3).sin + 0.75.squareRoot()) <= 1e-13 && abs(sinCos(-.pi / 3).cos - 0.5) <= 1e-13)
    }

    // Rule: across every quadrant of [−60, 60] sinCos is within 1e-13 of libm and on the unit circle.
    @Test func sweepMatchesLibm() {
        var worst = 0.0, worstCircle = 0.0
        for i in -6000...6000 {
            let x = Double(i) * 0.01 + 0.00123
            let (s, c) = sinCos(x)
            worst = max(worst, abs(s - Glibc.sin(x)), abs(c - Glibc.cos(x)))
            worstCircle = max(worstCircle, abs(s * s + c * c - 1))
        }
        #expect(worst <= 1e-13, "worst error \(worst)")
        #expect(worstCircle <= 1e-13)
    }

    // Rule: Trig.swift promises an error below 1e-15 on the reduced range [−π/4, π/4]. sinPoly stops at
    // x¹³, whose next term x¹⁵/15! is 2e-14 at π/4 (harmless for 0.1 px flattening; the comment overstates).
    @Test func reducedRangeAccuracyAsDocumented() {
        var worst = 0.0
        for i in -400...400 {
            let x = Double(i) / 400 * .pi / 4
            let (s, c) = sinCos(x)
            worst = max(worst, abs(s - Glibc.sin(x)), abs(c - Glibc.cos(x)))
        }
        #expect(worst < 1e-15, "worst \(worst)")
        #expect(worst < 1e-13)
    }

    // Rule: non-finite angles give (0, 1) instead of trapping.
    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFinite(_ x: Double) {
        #expect(sinCos(x) == (0, 1))
    }
}
