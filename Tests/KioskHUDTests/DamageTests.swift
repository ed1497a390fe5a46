import KioskSeams
import KioskTestDoubles
import KioskHUD
import KioskRaster
import KioskText
import Testing

/// A frame updated by damage only must equal a full redraw, pixel for pixel: the offscreen
/// display copies only the damaged rectangles, like the DRM backend does.
@Suite struct DamageTests {
    static let content = HUDContent(mode: .indeterminate, progress: 0.2, label: "Loading…", details: "Step 1 of 3",
                                    buttonTitle: "Cancel", buttonHasAction: true)

    func replay(style: HUDStyle, steps: [(HUDContent?, HUDFrameState)]) throws -> [(DamageRegion, Int)] {
        let fonts = try FontLibrary()
        let display = try OffscreenDisplay(width: 320, height: 240)
        let r = try HUDRenderer(width: 320, height: 240, fonts: fonts, style: style, content: Self.content)
        var log: [(DamageRegion, Int)] = []
        for (i, (content, state)) in steps.enumerated() {
            if let content { try r.update(content: content) }
            let damage = r.render(state)
            try display.present(r.shadow.surface, damage: .region(damage))
            // Reference: a fresh renderer drawing the whole frame.
            let ref = try HUDRenderer(width: 320, height: 240, fonts: fonts, style: style, content: r.content)
            ref.renderFull(state)
            var differ = 0
            for y in 0..<240 {
                for x in 0..<320 where display.screen.surface.pixel(x: x, y: y) != ref.shadow.surface.pixel(x: x, y: y) {
                    differ += 1
                }
            }
            #expect(differ == 0, "step \(i): \(differ) pixels differ from a full redraw")
            log.append((damage, damage.area))
        }
        return log
    }

    @Test func everyKindOfChange() throws {
        var c2 = Self.content
        c2.mode = .annular
        var c3 = c2
        c3.label = "Almost done, please wait"
        var steps: [(HUDContent?, HUDFrameState)] = []
        steps.append((nil, HUDFrameState(opacity: 0, scale: 0.5)))
        steps.append((nil, HUDFrameState(opacity: 0.4, scale: 0.8)))            // show animation
        steps.append((nil, HUDFrameState(opacity: 1, scale: 1)))
        steps.append((nil, HUDFrameState(spinnerPhase: 1)))                      // spinner tick
        steps.append((nil, HUDFrameState(spinnerPhase: 2, motionX: 4.4, motionY: -3)))  // motion
        steps.append((nil, HUDFrameState(spinnerPhase: 2, motionX: 4.4, motionY: -3, buttonPressed: true)))
        steps.append((c2, HUDFrameState(progress: 0.3, motionX: 4.4, motionY: -3)))  // mode change
        steps.append((nil, HUDFrameState(progress: 0.55, motionX: 4.4, motionY: -3)))  // progress
        steps.append((c3, HUDFrameState(progress: 0.55)))                       // relayout
        steps.append((nil, HUDFrameState(opacity: 0.5, scale: 1.4, progress: 0.55)))  // hide animation
        steps.append((nil, HUDFrameState(visible: false, opacity: 0, progress: 0.55)))
        let log = try replay(style: HUDStyle(), steps: steps)
        // The spinner tick damages only the indicator, not the bezel.
        #expect(log[3].1 > 0 && log[3].1 < 45 * 45)
        // The button press damages only the button.
        #expect(log[5].1 > 0 && log[5].1 < 100 * 40)
        // The progress change damages only the indicator.
        #expect(log[7].1 > 0 && log[7].1 < 45 * 45)
    }

    /// A shorter label, no details, no button: the old, larger bezel is painted over (it was
    /// left on screen when the damage took the new layout's box for both frames).
    @Test func aSmallerBezelPaintsOverTheOldOne() throws {
        var long = Self.content
        long.label = "Verifying the downloaded image"
        long.details = "Step 3 of 3: checking the image"
        var short = long
        short.label = "Done"
        short.details = ""
        var noButton = short
        noButton.buttonTitle = ""
        var text = noButton
        text.mode = .text
        _ = try replay(style: HUDStyle(), steps: [
            (long, HUDFrameState()), (short, HUDFrameState()), (noButton, HUDFrameState()), (text, HUDFrameState()),
            (long, HUDFrameState(motionX: 3)), (short, HUDFrameState(motionX: -2)),
        ])
    }

    @Test func dimBackgroundFadesWholeScreen() throws {
        var style = HUDStyle()
        style.background = .dim(Color(white: 0, a: 0.5))
        let log = try replay(style: style, steps: [
            (nil, HUDFrameState(opacity: 0.2)), (nil, HUDFrameState(opacity: 0.7)), (nil, HUDFrameState(opacity: 1)),
            (nil, HUDFrameState(spinnerPhase: 5)),
        ])
        #expect(log[1].1 == 320 * 240)
        #expect(log[3].1 < 45 * 45)
    }

    // Rule: a fade over a picture draws each frame's background straight into the frame (one pass),
    // and that frame equals the same state drawn from the backdrop the old way (built at that
    // opacity, then copied): for the dim, the gradient and no background, on XRGB8888 and RGB565;
    // frames after the fade (partial damage) come from the backdrop and equal full redraws.
    @Test(arguments: [HUDBackground.dim(Color(rgb: 0x102040, a: 0.55)), .gradient, .none], [PixelFormat.xrgb8888, .rgb565])
    func fadeOverPictureEqualsBackdropPath(_ background: HUDBackground, _ format: PixelFormat) throws {
        let fonts = try FontLibrary()
        var style = HUDStyle()
        style.background = background
        let picture = try Bitmap(width: 37, height: 23, format: .argb8888)
        for y in 0..<23 { for x in 0..<37 { picture.surface.row32(y)[x] = 0xFF00_0000 | UInt32(x * 7) << 16 | UInt32(y * 11) << 8 | 0x5A } }
        func renderer() throws -> HUDRenderer {
            let r = try HUDRenderer(width: 203, height: 151, format: format, fonts: fonts, style: style, content: Self.content)
            r.setUnderlay(color: Color(rgb: 0x336699), image: picture)
            return r
        }
        let fading = try renderer(), viaBackdrop = try renderer()
        for (i, opacity) in [0.0, 0.13, 0.5, 0.87, 1].enumerated() {
            let state = HUDFrameState(opacity: opacity, scale: 1, spinnerPhase: i)
            fading.render(state)   // whole frame, background drawn directly
            // The same state from a backdrop built at this opacity: a partial frame at the
            // opacity builds it, then a full redraw copies it.
            viaBackdrop.render(state)
            viaBackdrop.render(HUDFrameState(opacity: opacity, scale: 1, spinnerPhase: i + 1))
            viaBackdrop.renderFull(state)
            #expect(pixels(fading.shadow.surface) == pixels(viaBackdrop.shadow.surface), "opacity \(opacity)")
        }
        // After the fade: partial frames from the backdrop equal full redraws.
        let damage = fading.render(HUDFrameState(spinnerPhase: 7))
        #expect(!damage.isEmpty && damage.area < 203 * 151)
        let full = try renderer()
        full.renderFull(HUDFrameState(spinnerPhase: 7))
        #expect(pixels(fading.shadow.surface) == pixels(full.shadow.surface))
    }

    private func pixels(_ s: Surface) -> [UInt32] {
        var out: [UInt32] = []
        for y in 0..<s.height { for x in 0..<s.width { out.append(s.pixel(x: x, y: y)) } }
        return out
    }

    @Test func blurredBezelMoves() throws {
        var style = HUDStyle()
        style.bezelStyle = .blur(radius: 6)
        style.background = .gradient
        _ = try replay(style: style, steps: [
            (nil, HUDFrameState()), (nil, HUDFrameState(motionX: 7, motionY: 2)), (nil, HUDFrameState(motionX: -9, motionY: 9)),
            (nil, HUDFrameState(opacity: 0.6, scale: 0.7, motionX: -9, motionY: 9)),
        ])
    }

    /// A renderer without a backdrop bitmap (render's one frame) draws the same pixels as one
    /// with it, for every background, a blurred bezel, an underlay picture, a fade and a zoom.
    @Test func withoutBackdropSamePixels() throws {
        let fonts = try FontLibrary()
        let picture = try Bitmap(width: 64, height: 48, format: .argb8888)
        for y in 0..<48 { for x in 0..<64 { picture.surface.row32(y)[x] = 0xFF00_0000 | UInt32(x * 4) << 16 | UInt32(y * 5) << 8 | 0x40 } }
        let backgrounds: [HUDBackground] = [.none, .dim(Color(white: 0, a: 0.5)), .gradient]
        for background in backgrounds {
            for blur in [false, true] {
                for image in [nil, picture] {
                    for state in [HUDFrameState(), HUDFrameState(opacity: 0.6, scale: 0.7, motionX: -9, motionY: 9)] {
                        var style = HUDStyle()
                        style.background = background
                        if blur { style.bezelStyle = .blur(radius: 6) }
                        let with = try HUDRenderer(width: 320, height: 240, fonts: fonts, style: style, content: Self.content)
                        let without = try HUDRenderer(width: 320, height: 240, fonts: fonts, style: style, content: Self.content,
                                                      keepsBackdrop: false)
                        for r in [with, without] {
                            r.setUnderlay(color: Color(r: 0.2, g: 0.3, b: 0.4), image: image)
                            r.render(state)
                        }
                        #expect(with.shadow.rgbaBytes() == without.shadow.rgbaBytes(),
                                "\(background) blur \(blur) picture \(image != nil) opacity \(state.opacity)")
                    }
                }
            }
        }
    }

    @Test func nothingChangedNothingDamaged() throws {
        let r = try HUDRenderer(width: 200, height: 150, fonts: FontLibrary(), content: Self.content)
        #expect(!r.render(HUDFrameState()).isEmpty)
        #expect(r.render(HUDFrameState()).isEmpty)
    }

    @Test func motionDamagesOldAndNewBezelOnly() throws {
        let r = try HUDRenderer(width: 400, height: 300, fonts: FontLibrary(), content: Self.content)
        r.render(HUDFrameState())
        let bezel = r.layout.bezel.enclosingPixels
        let d = r.render(HUDFrameState(motionX: 10, motionY: 0))
        let bound = IntRect(x: bezel.x - 1, y: bezel.y - 1, width: bezel.width + 12, height: bezel.height + 2)
        #expect(bound.contains(d.bounds), "damage \(d.bounds) outside old ∪ new bezel \(bound)")
        #expect(d.area <= bound.area)
    }
}
