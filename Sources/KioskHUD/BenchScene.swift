import KioskRaster
import KioskText

/// The canonical benchmark scene (shared/bench/scene.md): a fixed 200×160 bezel with ring, two
/// labels, bar and button over a diagonal gradient and a 50 % dim. Drawn with the same parts as
/// the HUD (`HUDDraw`) but with the scene's own fixed layout, so that its times compare with the
/// C/cairo and C/pixman versions of the same scene.
public final class BenchScene {
    public static let label = "Loading\u{2026}"
    public static let details = "Updating firmware 3 of 7"
    public static let button = "Cancel"

    public let width: Int, height: Int
    public let bx: Int, by: Int
    let labelLine: TextLine, detailsLine: TextLine, buttonLine: TextLine
    let labelX: Int, labelBase: Int, detailsX: Int, detailsBase: Int
    let barRect: Rect, buttonRect: Rect, buttonTextX: Int, buttonTextBase: Int
    /// Ring centre and its whole-pixel box.
    public let ringCenter: Point
    public let ringBox: IntRect
    public var bezelRect: IntRect { IntRect(x: bx, y: by, width: 200, height: 160) }

    static let gradient0 = Color(rgb: 0x1A4D99), gradient1 = Color(rgb: 0xF2A633)
    static let dim = Color(white: 0, a: 0.5)
    static let bezelColor = Color(white: 0.9, a: 0.8)
    static let content = Color(white: 0, a: 0.7)
    static let track = Color(white: 0, a: 0.1)

    /// Lays the scene out for a `width`×`height` frame with fonts from `fonts`.
    public init(width: Int, height: Int, fonts: FontLibrary,
                fontPath: String = FontSpec.defaultPrimary) throws {
        self.width = width; self.height = height
        let f16 = try fonts.font(FontSpec(paths: [fontPath], pixelSize: 16))
        let f12 = try fonts.font(FontSpec(paths: [fontPath], pixelSize: 12))
        let noKern = TextLayoutOptions(maxWidth: nil, maxLines: 1, kerning: false, wrap: false)
        labelLine = f16.layout(BenchScene.label, options: noKern).lines[0]
        detailsLine = f12.layout(BenchScene.details, options: noKern).lines[0]
        buttonLine = f12.layout(BenchScene.button, options: noKern).lines[0]
        bx = (width - 200) / 2; by = (height - 160) / 2
        // Stack: ring 37, label 19, details 15, bar 20, button 21, four gaps of 4 → 128; 16 above.
        var y = 16
        ringCenter = Point(Double(bx) + 100, Double(by + y) + 18.5)
        ringBox = Rect(x: ringCenter.x - 18.5, y: ringCenter.y - 18.5, width: 37, height: 37).enclosingPixels
        y += 37 + 4
        labelX = bx + (200 - labelLine.width) / 2; labelBase = by + y + f16.ascender
        y += f16.lineHeight + 4
        detailsX = bx + (200 - detailsLine.width) / 2; detailsBase = by + y + f12.ascender
        y += f12.lineHeight + 4
        barRect = Rect(x: Double(bx + 40), y: Double(by + y), width: 120, height: 20)
        y += 20 + 4
        let bw = buttonLine.width + 20
        let bxx = bx + (200 - bw) / 2
        buttonRect = Rect(x: Double(bxx), y: Double(by + y), width: Double(bw), height: 21)
        buttonTextX = bxx + 10
        buttonTextBase = by + y + (21 - f12.lineHeight) / 2 + f12.ascender
    }

    /// Layer (a): the opaque diagonal gradient, operator SOURCE.
    public func drawGradient(_ c: Canvas) {
        let g = LinearGradient(start: Point(0, 0), end: Point(Double(width), Double(height)),
                               stops: [GradientStop(0, BenchScene.gradient0), GradientStop(1, BenchScene.gradient1)])
        c.fill(IntRect(x: 0, y: 0, width: width, height: height), .linear(g))
    }

    /// Layer (b): 50 % black over everything.
    public func drawDim(_ c: Canvas) {
        c.fill(IntRect(x: 0, y: 0, width: width, height: height), .solid(BenchScene.dim))
    }

    /// Layer (d): ring track and progress arc (butt ends).
    public func drawRing(_ c: Canvas, progress: Double) {
        HUDDraw.annular(c, center: ringCenter, size: 37, progress: progress, lineWidth: 2,
                        color: BenchScene.content, track: BenchScene.track, cap: .butt)
    }

    /// Layer (e): label and details.
    public func drawLabels(_ c: Canvas) {
        HUDDraw.text(c, labelLine, x: labelX, baseline: labelBase, color: BenchScene.content)
        HUDDraw.text(c, detailsLine, x: detailsX, baseline: detailsBase, color: BenchScene.content)
    }

    /// Layers (c)–(g): the HUD over whatever the frame holds.
    public func drawHUD(_ c: Canvas, ringProgress: Double, ring: Bool = true, text: Bool = true) {
        HUDDraw.bezel(c, bezelRect.rect, radius: 5, color: BenchScene.bezelColor)
        if ring { drawRing(c, progress: ringProgress) }
        if text { drawLabels(c) }
        HUDDraw.bar(c, barRect, progress: 0.6, color: BenchScene.content)
        HUDDraw.buttonFrame(c, buttonRect, color: BenchScene.content, pressed: false)
        if text { HUDDraw.text(c, buttonLine, x: buttonTextX, baseline: buttonTextBase, color: BenchScene.content) }
    }

    /// The whole scene from scratch: (a)–(g).
    public func drawFull(_ c: Canvas, ringProgress: Double = 0.6) {
        drawGradient(c)
        drawDim(c)
        drawHUD(c, ringProgress: ringProgress)
    }
}
