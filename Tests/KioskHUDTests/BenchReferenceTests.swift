import KioskHUD
import KioskPNG
import KioskRaster
import KioskText
import Testing

/// The canonical benchmark scene against cairo's reference picture (shared/bench, copied to
/// Fixtures/): text, gradient and straight edges within ±1; curved anti-aliased edges may differ
/// by small amounts on at most 0.5 % of pixels (scene.md §5).
@Suite struct BenchReferenceTests {
    @Test func matchesCairoReference() throws {
        let ref = try PNG.read(path: Golden.fixturesDir + "/bench-reference-800x480.png")
        #expect(ref.width == 800 && ref.height == 480)
        let scene = try BenchScene(width: 800, height: 480, fonts: FontLibrary())
        let bm = try Bitmap(width: 800, height: 480, format: .xrgb8888)
        scene.drawFull(Canvas(bm.surface))
        let ours = PNGImage(width: 800, height: 480, rgba: bm.rgbaBytes())

        func diff(_ x: Int, _ y: Int) -> Int {
            let i = (y * 800 + x) * 4
            return (0..<3).map { abs(Int(ours.rgba[i + $0]) - Int(ref.rgba[i + $0])) }.max()!
        }
        let bezel = scene.bezelRect
        // Curved edges: the bezel's corners and the ring, bar and button outlines.
        let ringBox = scene.ringBox
        func onCurvedEdge(_ x: Int, _ y: Int) -> Bool {
            let rx = x - bezel.x, ry = y - bezel.y
            let corner = (rx < 6 || rx >= 194) && (ry < 6 || ry >= 154)
            let ring = ringBox.contains(x: x, y: y)
            let bar = ry >= 99 && ry < 119 && rx >= 40 && rx < 160
            let button = ry >= 123 && ry < 144 && rx >= 67 && rx < 132
            return corner || ring || bar || button
        }
        var large = 0, worst = 0, offEdge = 0
        for y in 0..<480 {
            for x in 0..<800 {
                let d = diff(x, y)
                if d > 1 {
                    large += 1
                    worst = max(worst, d)
                    if !onCurvedEdge(x, y) { offEdge += 1 }
                }
            }
        }
        #expect(offEdge == 0, "pixels off curved edges differ by more than 1 (text, gradient, straight edges)")
        #expect(large <= 1920, "\(large) pixels differ by more than 1 (0.5 % is 1920)")
        #expect(worst <= 24, "largest curved-edge difference \(worst)")
    }

    @Test func layoutMatchesSceneCoordinates() throws {
        let s = try BenchScene(width: 1920, height: 1080, fonts: FontLibrary())
        #expect(s.bezelRect == IntRect(x: 860, y: 460, width: 200, height: 160))
        #expect(s.ringCenter == Point(960, 494.5))
        #expect(s.ringBox == IntRect(x: 941, y: 476, width: 38, height: 37))
    }
}
