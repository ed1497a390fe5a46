import Testing
@testable import KioskPresentation

@Suite struct MotionOffsetTests {
    @Test func mapsLinearlyToDepth() {
        #expect(MotionOffset.defaultDepth == 10)
        #expect(MotionOffset.map(x: 0, y: 0) == (0, 0))
        #expect(MotionOffset.map(x: 1, y: -1) == (10, -10))
        #expect(MotionOffset.map(x: 0.5, y: 0.25) == (5, 2.5))
        #expect(MotionOffset.map(x: 0.5, y: -1, depth: 20) == (10, -20))
    }

    @Test func clampsAndSanitises() {
        #expect(MotionOffset.map(x: 3, y: -7) == (10, -10))
        #expect(MotionOffset.map(x: .infinity, y: -.infinity) == (10, -10))
        #expect(MotionOffset.map(x: .nan, y: .nan) == (0, 0))
        #expect(MotionOffset.map(x: 1, y: 1, depth: .nan) == (0, 0))
        #expect(MotionOffset.map(x: 1, y: 1, depth: .infinity) == (0, 0))
    }
}
