import KioskHUD
import KioskRaster
import KioskText
import Testing

/// Bad input gets a clear error or a sane clamp; never a crash.
@Suite struct InvalidInputTests {
    @Test(arguments: [(0, 100), (100, 0), (-5, 10), (20000, 10), (10, 16385)])
    func badSizesThrow(_ w: Int, _ h: Int) throws {
        #expect(throws: RasterError.self) { try HUDRenderer(width: w, height: h, fonts: FontLibrary()) }
        let e = RasterError.invalidSize(width: w, height: h)
        #expect(e.description.contains("\(w)x\(h)"))
    }

    @Test func missingFontIsAClearError() throws {
        var s = HUDStyle()
        s.fontPaths = ["/nonexistent/Font.ttf"]
        do {
            _ = try HUDRenderer(width: 100, height: 100, fonts: FontLibrary(), style: s, content: HUDContent(label: "x"))
            Issue.record("no error")
        } catch {
            #expect("\(error)".contains("/nonexistent/Font.ttf"))
        }
    }

    @Test func nonsenseProgressRendersClamped() throws {
        let fonts = try FontLibrary()
        func frame(_ p: Double) throws -> [UInt8] {
            let r = try HUDRenderer(width: 120, height: 120, fonts: fonts, content: HUDContent(mode: .annular, progress: p))
            r.render(HUDFrameState(progress: p))
            return r.shadow.rgbaBytes()
        }
        #expect(try frame(.nan) == frame(0))
        #expect(try frame(-1) == frame(0))
        #expect(try frame(.infinity) == frame(1))
        #expect(try frame(7) == frame(1))
    }

    @Test func invalidUTF8RendersReplacementCharacter() throws {
        let bytes: [UInt8] = [0x41, 0xFF, 0xC3, 0x28, 0x42]
        let label = String(decoding: bytes, as: UTF8.self)
        #expect(label.unicodeScalars.contains("\u{FFFD}"))
        let r = try HUDRenderer(width: 200, height: 120, fonts: FontLibrary(), content: HUDContent(mode: .text, label: label))
        r.render(HUDFrameState())
        #expect(r.layout.label?.text.lines.first?.glyphs.count == 5)
    }

    @Test func hugeTextIsClippedToTheScreen() throws {
        let long = String(repeating: "All work and no play makes a kiosk dull. ", count: 400)
        let r = try HUDRenderer(width: 320, height: 240, fonts: FontLibrary(),
                                content: HUDContent(mode: .text, label: long, details: long))
        r.render(HUDFrameState())
        #expect(r.layout.bezel.maxY <= 220 && r.layout.bezel.minY >= 20)
        #expect(r.layout.details?.text.truncated == true)
        #expect(r.layout.label?.text.truncated == true)
    }

    @Test func tinyScreenDoesNotCrash() throws {
        let r = try HUDRenderer(width: 1, height: 1, fonts: FontLibrary(),
                                content: HUDContent(mode: .bar, label: "x", details: "y", buttonTitle: "z", buttonHasAction: true))
        r.render(HUDFrameState(progress: 0.5, motionX: 30, motionY: -30))
    }
}
