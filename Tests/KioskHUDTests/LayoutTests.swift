// HUDLayoutEngine against MBProgressHUD 1.2's layout rules: margin 20, padding 4, indicator 37,
// bar 120×20, label bold 16 (line 19), details bold 12 (line 15), button 12 (height 15 + 6,
// width text + 20); edge margin (999) > offset (998) > minSize/square (997).
import KioskHUD
import KioskRaster
import KioskText
import Testing

// All helpers are private to this file (other files share the test module).

/// A fresh engine: FontLibrary is not thread-safe and tests run in parallel.
private func makeEngine() throws -> HUDLayoutEngine {
    HUDLayoutEngine(fonts: try FontLibrary())
}

/// The font the engine uses for `points` under `style`.
private func hudFont(_ engine: HUDLayoutEngine, _ style: HUDStyle, _ points: Double) throws -> Font {
    try engine.fonts.font(FontSpec(paths: style.fontPaths, pixelSize: Int((points * style.scale).rounded())))
}

private func isWhole(_ v: Double) -> Bool { v.isFinite && v == v.rounded() }

private func isWholePixels(_ r: Rect) -> Bool {
    isWhole(r.x) && isWhole(r.y) && isWhole(r.width) && isWhole(r.height)
}

/// True when `r` lies within a `width`×`height` screen less `inset` on each side.
private func inside(_ r: Rect, _ width: Int, _ height: Int, inset: Double = 0) -> Bool {
    r.minX >= inset && r.minY >= inset && r.maxX <= Double(width) - inset && r.maxY <= Double(height) - inset
        && r.width >= 0 && r.height >= 0
}

/// Horizontal centre of a placed text.
private func midX(_ t: HUDLayout.PlacedText) -> Double { Double(t.x) + Double(t.text.width) / 2 }

/// Top and bottom of every visible element, top to bottom.
private func stack(_ l: HUDLayout) -> [(top: Double, bottom: Double)] {
    var out: [(top: Double, bottom: Double)] = []
    if let i = l.indicator { out.append((i.minY, i.maxY)) }
    if let t = l.label { out.append((Double(t.top), Double(t.top + t.text.height))) }
    if let t = l.details { out.append((Double(t.top), Double(t.top + t.text.height))) }
    if let b = l.button { out.append((b.minY, b.maxY)) }
    return out
}

private let loading = "Loading\u{2026}"
private let sentence = "Please wait while the kiosk downloads and installs the latest software update. "

@Suite struct HUDLayoutTests {
    // MARK: Metrics

    @Test func fontMetricsAreMBProgressHUDs() throws {
        let engine = try makeEngine()
        let style = HUDStyle()
        let label = try hudFont(engine, style, style.labelFontSize)
        let details = try hudFont(engine, style, style.detailsFontSize)
        #expect(label.ascender == 15)
        #expect(label.descender == 4)
        #expect(label.lineHeight == 19)
        #expect(details.lineHeight == 15)
        #expect(label.advance(of: loading, kerning: false) == 86)
        #expect(style.margin == 20 && style.padding == 4 && style.indicatorSize == 37)
        #expect(style.barWidth == 120 && style.barHeight == 20)
        #expect(style.labelFontSize == 16 && style.detailsFontSize == 12 && style.buttonFontSize == 12)
    }

    // MARK: Bezel = content + margins, centred

    @Test func textModeLabelOnly() throws {
        let engine = try makeEngine()
        let style = HUDStyle()
        let w = try hudFont(engine, style, 16).advance(of: loading)
        let l = try engine.layout(HUDContent(mode: .text, label: loading), style: style, width: 800, height: 480)
        #expect(l.indicator == nil)
        #expect(l.details == nil && l.button == nil && l.buttonText == nil)
        let label = try #require(l.label)
        #expect(label.text.lines.map(\.text) == [loading])
        #expect(label.text.width == w)
        #expect(label.text.height == 19)
        #expect(!label.text.truncated)
        let bw = Double(w + 40)
        #expect(l.bezel == Rect(x: ((800 - bw) / 2).rounded(.down), y: ((480 - 59) / 2).rounded(.down), width: bw, height: 59))
        #expect(label.x == Int(l.bezel.x) + 20)
        #expect(label.top == Int(l.bezel.y) + 20)
        #expect(label.lineX == [label.x])
    }

    @Test func indicatorOnlyBezelIs77Square() throws {
        let engine = try makeEngine()
        let l = try engine.layout(HUDContent(), style: HUDStyle(), width: 800, height: 480)
        #expect(l.bezel == Rect(x: 361, y: 201, width: 77, height: 77))
        let i = try #require(l.indicator)
        #expect(i == Rect(x: 381, y: 221, width: 37, height: 37))
        #expect(l.label == nil && l.details == nil && l.button == nil)
    }

    @Test func barAloneIs120x20PlusMargins() throws {
        let engine = try makeEngine()
        let l = try engine.layout(HUDContent(mode: .bar, progress: 0.5), style: HUDStyle(), width: 800, height: 480)
        #expect(l.bezel.width == 160 && l.bezel.height == 60)
        #expect(l.indicator == Rect(x: l.bezel.x + 20, y: l.bezel.y + 20, width: 120, height: 20))
    }

    @Test func fullStackOrderPaddingAndSizes() throws {
        let engine = try makeEngine()
        let style = HUDStyle()
        let labelW = try hudFont(engine, style, 16).advance(of: loading)
        let detailsW = try hudFont(engine, style, 12).advance(of: "3 of 7")
        let buttonW = try hudFont(engine, style, 12).advance(of: "Cancel")
        let content = HUDContent(mode: .indeterminate, label: loading, details: "3 of 7",
                                 buttonTitle: "Cancel", buttonHasAction: true)
        let l = try engine.layout(content, style: style, width: 800, height: 480)
        let i = try #require(l.indicator), label = try #require(l.label), details = try #require(l.details)
        let button = try #require(l.button), buttonText = try #require(l.buttonText)

        // Sizes.
        #expect(i.width == 37 && i.height == 37)
        #expect(label.text.height == 19 && label.text.width == labelW)
        #expect(details.text.height == 15 && details.text.width == detailsW)
        #expect(button.height == 21)
        #expect(button.width == Double(buttonW + 20))
        #expect(buttonText.text.width == buttonW)

        // Bezel: widest element + 2·margin; heights + 3 paddings + 2·margin.
        let contentW = max(37, labelW, detailsW, buttonW + 20)
        #expect(l.bezel.width == Double(contentW + 40))
        #expect(l.bezel.height == Double(37 + 19 + 15 + 21 + 3 * 4 + 40))
        #expect(l.bezel.x == ((800 - l.bezel.width) / 2).rounded(.down))
        #expect(l.bezel.y == ((480 - l.bezel.height) / 2).rounded(.down))

        // Top to bottom, `padding` apart, starting `margin` below the bezel top.
        #expect(i.minY == l.bezel.minY + 20)
        #expect(Double(label.top) == i.maxY + 4)
        #expect(details.top == label.top + 19 + 4)
        #expect(button.minY == Double(details.top + 15 + 4))
        #expect(button.maxY == l.bezel.maxY - 20)

        // Centred horizontally (whole-pixel placement may floor by half a pixel).
        for mid in [i.midX, midX(label), midX(details), button.midX] {
            #expect(abs(mid - l.bezel.midX) <= 0.5)
        }
        // The title sits 10 px in and is centred vertically in the button.
        #expect(Double(buttonText.x) == button.minX + 10)
        #expect(buttonText.top == Int(button.minY) + 3)
    }

    // MARK: Padding only between visible elements

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var content: HUDContent
        /// Element heights top to bottom.
        var heights: [Double]
        var testDescription: String { name }
    }

    static let paddingCases: [Case] = [
        Case(name: "indicator only", content: HUDContent(), heights: [37]),
        Case(name: "indicator, empty label and details",
             content: HUDContent(label: "", details: ""), heights: [37]),
        Case(name: "indicator + details (empty label)",
             content: HUDContent(details: "3 of 7"), heights: [37, 15]),
        Case(name: "text mode details only", content: HUDContent(mode: .text, details: "3 of 7"), heights: [15]),
        Case(name: "text mode label + details", content: HUDContent(mode: .text, label: "Hi", details: "3 of 7"),
             heights: [19, 15]),
        Case(name: "indicator + button", content: HUDContent(buttonTitle: "Cancel", buttonHasAction: true),
             heights: [37, 21]),
        Case(name: "indicator + label + button (empty details)",
             content: HUDContent(label: loading, buttonTitle: "Cancel", buttonHasAction: true), heights: [37, 19, 21]),
        Case(name: "bar + details", content: HUDContent(mode: .bar, details: "3 of 7"), heights: [20, 15]),
        Case(name: "text mode, nothing", content: HUDContent(mode: .text), heights: []),
        Case(name: "title without action", content: HUDContent(label: "Hi", buttonTitle: "Cancel"), heights: [37, 19]),
    ]

    @Test(arguments: paddingCases)
    func paddingOnlyBetweenVisibleElements(_ c: Case) throws {
        let engine = try makeEngine()
        let l = try engine.layout(c.content, style: HUDStyle(), width: 800, height: 480)
        let s = stack(l)
        #expect(s.map { $0.bottom - $0.top } == c.heights)
        for (a, b) in zip(s, s.dropFirst()) { #expect(b.top == a.bottom + 4) }
        let contentH = c.heights.reduce(0, +) + 4 * Double(max(0, c.heights.count - 1))
        #expect(l.bezel.height == contentH + 40)
        if let first = s.first { #expect(first.top == l.bezel.minY + 20) }
        if let last = s.last { #expect(last.bottom == l.bezel.maxY - 20) }
        if c.content.label.isEmpty { #expect(l.label == nil) }
        if c.content.details.isEmpty { #expect(l.details == nil) }
    }

    // MARK: Indicator per mode

    @Test(arguments: HUDMode.allCases)
    func indicatorSizeByMode(_ mode: HUDMode) throws {
        let engine = try makeEngine()
        let l = try engine.layout(HUDContent(mode: mode, label: "Hi"), style: HUDStyle(), width: 800, height: 480)
        switch mode {
        case .text, .custom:  // custom without an image has no indicator
            #expect(l.indicator == nil)
            #expect(l.label.map { Double($0.top) } == l.bezel.minY + 20)
        case .bar:
            #expect(l.indicator?.width == 120 && l.indicator?.height == 20)
        case .indeterminate, .determinate, .annular, .success, .error:
            #expect(l.indicator?.width == 37 && l.indicator?.height == 37)
        }
    }

    @Test func customImageSizeInPoints() throws {
        let engine = try makeEngine()
        let image = HUDImage(bitmap: try Bitmap(width: 48, height: 32), scale: 2)  // 24×16 pt
        let one = try engine.layout(HUDContent(mode: .custom, image: image), style: HUDStyle(), width: 800, height: 480)
        #expect(one.indicator?.width == 24 && one.indicator?.height == 16)
        #expect(one.bezel.width == 64 && one.bezel.height == 56)
        var style = HUDStyle()
        style.scale = 2
        let two = try engine.layout(HUDContent(mode: .custom, image: image), style: style, width: 1600, height: 960)
        #expect(two.indicator?.width == 48 && two.indicator?.height == 32)
    }

    // MARK: minSize, square, edge margin

    @Test func minSizeGrowsBezelContentStaysCentred() throws {
        let engine = try makeEngine()
        var style = HUDStyle()
        style.minWidth = 300
        style.minHeight = 200
        let l = try engine.layout(HUDContent(label: loading), style: style, width: 800, height: 480)
        #expect(l.bezel == Rect(x: 250, y: 140, width: 300, height: 200))
        let i = try #require(l.indicator), label = try #require(l.label)
        #expect(abs(i.midX - l.bezel.midX) <= 0.5)
        #expect(abs(midX(label) - l.bezel.midX) <= 0.5)
        let top = i.minY - l.bezel.minY, bottom = l.bezel.maxY - Double(label.top + label.text.height)
        #expect(abs(top - bottom) <= 1)
        #expect(top >= 20 && bottom >= 20)

        // A minimum smaller than the content changes nothing.
        style.minWidth = 10
        style.minHeight = 10
        let small = try engine.layout(HUDContent(label: loading), style: style, width: 800, height: 480)
        let plain = try engine.layout(HUDContent(label: loading), style: HUDStyle(), width: 800, height: 480)
        #expect(small.bezel == plain.bezel)
    }

    @Test func squareUsesTheLargerSide() throws {
        let engine = try makeEngine()
        var style = HUDStyle()
        style.square = true
        // Wider than tall: height grows to the width.
        let wide = try engine.layout(HUDContent(mode: .text, label: loading), style: style, width: 800, height: 480)
        let labelW = try hudFont(engine, style, 16).advance(of: loading)
        #expect(wide.bezel.width == Double(labelW + 40))
        #expect(wide.bezel.height == wide.bezel.width)
        // Taller than wide: width grows to the height (37+4+19+4+15 + 40 = 119).
        let tall = try engine.layout(HUDContent(label: "Hi", details: "ok"), style: style, width: 800, height: 480)
        #expect(tall.bezel.height == 119)
        #expect(tall.bezel.width == 119)
        let label = try #require(tall.label)
        #expect(abs(midX(label) - tall.bezel.midX) <= 0.5)
    }

    @Test func edgeMarginBeatsMinSizeAndSquare() throws {
        let engine = try makeEngine()
        var style = HUDStyle()
        style.minWidth = 10_000
        style.minHeight = 10_000
        let big = try engine.layout(HUDContent(label: loading), style: style, width: 800, height: 480)
        #expect(big.bezel == Rect(x: 20, y: 20, width: 760, height: 440))

        var sq = HUDStyle()
        sq.square = true
        // A flat screen: the square would be taller than 100 − 2·20.
        let flat = try engine.layout(HUDContent(mode: .text, label: loading), style: sq, width: 800, height: 100)
        #expect(flat.bezel.height == 60)
        #expect(inside(flat.bezel, 800, 100, inset: 20))
    }

    // MARK: Offset

    @Test func offsetMovesTheCentre() throws {
        let engine = try makeEngine()
        var style = HUDStyle()
        style.offsetX = 50
        style.offsetY = -30
        let l = try engine.layout(HUDContent(label: loading), style: style, width: 800, height: 480)
        #expect(abs(l.bezel.midX - 450) <= 0.5)
        #expect(abs(l.bezel.midY - 210) <= 0.5)
        // Offsets are in points.
        style.scale = 2
        let two = try engine.layout(HUDContent(label: loading), style: style, width: 1600, height: 960)
        #expect(abs(two.bezel.midX - 900) <= 0.5)
        #expect(abs(two.bezel.midY - 420) <= 0.5)
    }

    @Test(arguments: [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0), (1.0, 1.0), (-1.0, -1.0)])
    func maxOffsetPinsToTheEdge(_ dx: Double, _ dy: Double) throws {
        let engine = try makeEngine()
        for scale in [1.0, 2.0] {
            var style = HUDStyle()
            style.scale = scale
            style.offsetX = dx * HUDStyle.maxOffset
            style.offsetY = dy * HUDStyle.maxOffset
            let W = 800 * Int(scale), H = 480 * Int(scale)
            let l = try engine.layout(HUDContent(label: loading), style: style, width: W, height: H)
            let m = 20 * scale
            let centreX = ((Double(W) - l.bezel.width) / 2).rounded(.down)
            let centreY = ((Double(H) - l.bezel.height) / 2).rounded(.down)
            switch dx {
            case 1: #expect(l.bezel.maxX == Double(W) - m)
            case -1: #expect(l.bezel.minX == m)
            default: #expect(l.bezel.minX == centreX)
            }
            switch dy {
            case 1: #expect(l.bezel.maxY == Double(H) - m)
            case -1: #expect(l.bezel.minY == m)
            default: #expect(l.bezel.minY == centreY)
            }
        }
    }

    @Test func edgeMarginBeatsOffset() throws {
        let engine = try makeEngine()
        for (ox, oy) in [(5000.0, 5000.0), (-5000.0, -5000.0), (Double.infinity, -Double.infinity)] {
            var style = HUDStyle()
            style.offsetX = ox
            style.offsetY = oy
            let l = try engine.layout(HUDContent(label: loading), style: style, width: 800, height: 480)
            #expect(inside(l.bezel, 800, 480, inset: 20))
            #expect(ox > 0 ? l.bezel.maxX == 780 : l.bezel.minX == 20)
            #expect(oy > 0 ? l.bezel.maxY == 460 : l.bezel.minY == 20)
        }
    }

    // MARK: Scale

    @Test func scaleTwoDoublesEveryMetric() throws {
        let engine = try makeEngine()
        let content = HUDContent(mode: .indeterminate, label: loading, details: "3 of 7",
                                 buttonTitle: "Cancel", buttonHasAction: true)
        var s1 = HUDStyle()
        s1.minWidth = 150
        var s2 = s1
        s2.scale = 2
        let a = try engine.layout(content, style: s1, width: 800, height: 480)
        let b = try engine.layout(content, style: s2, width: 1600, height: 960)
        #expect(abs(b.bezel.width - 2 * a.bezel.width) <= 2)
        #expect(abs(b.bezel.height - 2 * a.bezel.height) <= 2)
        #expect(a.bezel.width == 150 && b.bezel.width == 300)  // minWidth in points

        // Fonts at 32 / 24 / 24 px.
        let label32 = try hudFont(engine, s2, 16), details24 = try hudFont(engine, s2, 12)
        #expect(label32.spec.pixelSize == 32 && details24.spec.pixelSize == 24)
        let label = try #require(b.label), details = try #require(b.details), bt = try #require(b.buttonText)
        #expect(label.text.lineHeight == label32.lineHeight)
        #expect(label.text.width == label32.advance(of: loading))
        #expect(details.text.lineHeight == details24.lineHeight)
        #expect(bt.text.width == details24.advance(of: "Cancel"))

        // Indicator, margin, padding, button.
        let i = try #require(b.indicator), button = try #require(b.button)
        #expect(i.width == 74 && i.height == 74)
        #expect(i.minY == b.bezel.minY + 40)
        #expect(Double(label.top) == i.maxY + 8)
        #expect(details.top == label.top + label32.lineHeight + 8)
        #expect(button.height == Double(details24.lineHeight + 12))
        #expect(button.width == Double(details24.advance(of: "Cancel") + 40))
        #expect(button.maxY == b.bezel.maxY - 40)

        var bar = s2
        bar.minWidth = 0
        let barLayout = try engine.layout(HUDContent(mode: .bar), style: bar, width: 1600, height: 960)
        #expect(barLayout.indicator?.width == 240 && barLayout.indicator?.height == 40)
    }

    // MARK: Long texts

    @Test func longLabelIsOneLineCutWithEllipsis() throws {
        let engine = try makeEngine()
        let text = String(repeating: "Loading firmware ", count: 60)
        let l = try engine.layout(HUDContent(label: text), style: HUDStyle(), width: 800, height: 480)
        let label = try #require(l.label)
        #expect(label.text.lines.count == 1)
        #expect(label.text.truncated)
        #expect(label.text.lines[0].text.hasSuffix("\u{2026}"))
        #expect(label.text.lines[0].text.hasPrefix("Loading firmware Loading"))
        #expect(label.text.width <= 800 - 4 * 20)
        #expect(label.text.width >= 800 - 4 * 20 - 40)  // cut close to the limit
        #expect(label.text.height == 19)
        #expect(l.bezel.width <= 760)
        #expect(l.bezel.width == Double(label.text.width + 40))
    }

    @Test func longButtonTitleIsCut() throws {
        let engine = try makeEngine()
        let title = String(repeating: "Cancel ", count: 100)
        let l = try engine.layout(HUDContent(buttonTitle: title, buttonHasAction: true), style: HUDStyle(),
                                  width: 800, height: 480)
        let b = try #require(l.button), t = try #require(l.buttonText)
        #expect(t.text.lines.count == 1)
        #expect(t.text.truncated)
        #expect(b.width <= 720)
        #expect(inside(b, 800, 480, inset: 40))
    }

    @Test func longDetailsWrapWithinTheScreen() throws {
        let engine = try makeEngine()
        let text = String(repeating: sentence, count: 8)
        let l = try engine.layout(HUDContent(label: loading, details: text), style: HUDStyle(), width: 800, height: 480)
        let d = try #require(l.details)
        #expect(d.text.lines.count > 1)
        #expect(!d.text.truncated)
        #expect(d.text.lines.allSatisfy { $0.width <= 720 })
        #expect(d.text.lines.allSatisfy { !$0.text.hasPrefix(" ") })
        #expect(d.text.height == d.text.lines.count * 15)
        #expect(d.text.width > 600)  // really uses the width
        #expect(l.bezel.width <= 760)
        #expect(l.bezel.height == Double(37 + 4 + 19 + 4 + d.text.height + 40))
        // Each line is centred in the details' box.
        for (line, x) in zip(d.text.lines, d.lineX) {
            #expect(x == d.x + (d.text.width - line.width) / 2)
        }
    }

    @Test(arguments: [(800, 480, 1.0), (320, 240, 1.0), (1600, 960, 2.0)])
    func hugeDetailsAreCutToFitTheScreenHeight(_ W: Int, _ H: Int, _ scale: Double) throws {
        let engine = try makeEngine()
        var style = HUDStyle()
        style.scale = scale
        let text = String(repeating: sentence, count: 60)  // ~4800 characters
        let content = HUDContent(label: loading, details: text, buttonTitle: "Cancel", buttonHasAction: true)
        let l = try engine.layout(content, style: style, width: W, height: H)
        let m = 20 * scale
        let d = try #require(l.details)
        #expect(d.text.truncated)
        #expect(d.text.lines.last?.text.hasSuffix("\u{2026}") == true)
        #expect(l.bezel.height <= Double(H) - 2 * m)
        #expect(inside(l.bezel, W, H, inset: m))
        // Everything stays inside the bezel, margin from its edges.
        let s = stack(l)
        #expect(s.count == 4)
        #expect((s.first?.top ?? 0) >= l.bezel.minY + m)
        #expect((s.last?.bottom ?? .infinity) <= l.bezel.maxY - m)
        #expect(l.button != nil)
    }

    @Test func emptyTextsCollapse() throws {
        let engine = try makeEngine()
        let withEmpty = try engine.layout(HUDContent(label: "", details: "", buttonTitle: "", buttonHasAction: true),
                                          style: HUDStyle(), width: 800, height: 480)
        #expect(withEmpty.label == nil && withEmpty.details == nil && withEmpty.button == nil)
        #expect(withEmpty.bezel.width == 77 && withEmpty.bezel.height == 77)
        let textOnly = try engine.layout(HUDContent(mode: .text), style: HUDStyle(), width: 800, height: 480)
        #expect(textOnly.bezel.width == 40 && textOnly.bezel.height == 40)
    }

    // MARK: Button

    @Test(arguments: [("", false), ("", true), ("Cancel", false), ("Cancel", true)])
    func buttonNeedsTitleAndAction(_ title: String, _ action: Bool) throws {
        let engine = try makeEngine()
        let content = HUDContent(label: "Hi", buttonTitle: title, buttonHasAction: action)
        #expect(content.showsButton == (!title.isEmpty && action))
        let l = try engine.layout(content, style: HUDStyle(), width: 800, height: 480)
        #expect((l.button != nil) == content.showsButton)
        #expect((l.buttonText != nil) == content.showsButton)
        let expected: Double = content.showsButton ? 37 + 19 + 21 + 8 + 40 : 37 + 19 + 4 + 40
        #expect(l.bezel.height == expected)
    }

    // MARK: Extreme screens

    static let tinyScreens: [(Int, Int)] = [(50, 50), (1, 1), (10, 10), (40, 40), (41, 41), (19, 300), (300, 19), (100, 60)]

    @Test(arguments: tinyScreens)
    func tinyScreensDoNotCrashAndKeepTheBezelOnScreen(_ W: Int, _ H: Int) throws {
        let engine = try makeEngine()
        let content = HUDContent(mode: .bar, label: loading, details: String(repeating: sentence, count: 5),
                                 buttonTitle: "Cancel", buttonHasAction: true)
        for scale in [1.0, 2.0] {
            var style = HUDStyle()
            style.scale = scale
            style.square = true
            style.minWidth = 100
            let l = try engine.layout(content, style: style, width: W, height: H)
            #expect(isWholePixels(l.bezel))
            #expect(l.bezel.width >= 0 && l.bezel.height >= 0)
            #expect(l.bezel.width <= max(0, Double(W) - 40 * scale))
            #expect(l.bezel.height <= max(0, Double(H) - 40 * scale))
            // A screen narrower than the margin leaves no room; the (empty) bezel should still be on it.
            let m = 20 * scale
            _ = m
            #expect(inside(l.bezel, W, H), "bezel \(l.bezel) on \(W)×\(H) at scale \(scale)")
        }
    }

    @Test func hugeScreenDoesNotCrash() throws {
        let engine = try makeEngine()
        let content = HUDContent(mode: .annular, progress: 0.3, label: String(repeating: "Loading ", count: 500),
                                 details: String(repeating: sentence, count: 40),
                                 buttonTitle: "Cancel", buttonHasAction: true)
        var style = HUDStyle()
        style.scale = 2
        style.offsetX = HUDStyle.maxOffset
        let l = try engine.layout(content, style: style, width: 16384, height: 16384)
        #expect(isWholePixels(l.bezel))
        #expect(inside(l.bezel, 16384, 16384, inset: 40))
        #expect(l.bezel.maxX == 16384 - 40)
        #expect(l.details?.text.lines.allSatisfy { $0.width <= 16384 - 160 } == true)
    }

    // MARK: Whole pixels

    struct PixelCase: Sendable, CustomTestStringConvertible {
        var margin = 20.0, scale = 1.0, minWidth = 0.0, minHeight = 0.0, offsetX = 0.0, offsetY = 0.0
        var square = false, width = 800, height = 480
        var testDescription: String {
            "m\(margin) s\(scale) min\(minWidth)x\(minHeight) off\(offsetX),\(offsetY) sq\(square) \(width)x\(height)"
        }
    }

    static let pixelCases: [PixelCase] = [
        PixelCase(),
        PixelCase(width: 801, height: 479),
        PixelCase(margin: 20.3),
        PixelCase(scale: 1.5),
        PixelCase(scale: 1.33, width: 1067, height: 641),
        PixelCase(minWidth: 100.25, minHeight: 77.7),
        PixelCase(offsetX: 3.7, offsetY: -12.2),
        PixelCase(margin: 7.5, scale: 1.25, minWidth: 33.3, offsetX: 0.5, square: true, width: 333, height: 211),
    ]

    @Test(arguments: pixelCases)
    func bezelIsWholePixels(_ c: PixelCase) throws {
        let engine = try makeEngine()
        var style = HUDStyle()
        style.margin = c.margin; style.scale = c.scale
        style.minWidth = c.minWidth; style.minHeight = c.minHeight
        style.offsetX = c.offsetX; style.offsetY = c.offsetY
        style.square = c.square
        for content in [HUDContent(label: loading, details: "3 of 7"), HUDContent(mode: .bar),
                        HUDContent(mode: .text, label: "Hi")] {
            let l = try engine.layout(content, style: style, width: c.width, height: c.height)
            #expect(isWholePixels(l.bezel), "\(l.bezel)")
        }
    }
}
