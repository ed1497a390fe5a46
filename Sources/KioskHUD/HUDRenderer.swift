import KioskRaster
import KioskText

/// Everything about one frame that changes over time (the layout changes only with content or
/// style). Produced by `HUD` from its state machines; tests build it by hand.
public struct HUDFrameState: Sendable, Equatable {
    /// Drawn at all (false before the grace time fires and after the hide completes).
    public var visible = true
    /// Opacity of bezel and background (show/hide animation).
    public var opacity = 1.0
    /// Bezel scale about its centre (zoom animations).
    public var scale = 1.0
    /// Displayed progress, 0…1.
    public var progress = 0.0
    /// Spinner phase, 0…11.
    public var spinnerPhase = 0
    /// Bezel offset in pixels from the motion effect (rounded to whole pixels when drawn).
    public var motionX = 0.0, motionY = 0.0
    /// The button is held down.
    public var buttonPressed = false

    public init(visible: Bool = true, opacity: Double = 1, scale: Double = 1, progress: Double = 0,
                spinnerPhase: Int = 0, motionX: Double = 0, motionY: Double = 0, buttonPressed: Bool = false) {
        self.visible = visible; self.opacity = opacity; self.scale = scale; self.progress = progress
        self.spinnerPhase = spinnerPhase; self.motionX = motionX; self.motionY = motionY; self.buttonPressed = buttonPressed
    }
}

/// Draws the HUD into a shadow buffer in ordinary memory and says which rectangles changed.
///
/// What lies under the HUD (`underlay`: black, or a picture) and the background dim/gradient are
/// kept pre-composed in a `backdrop` bitmap, rebuilt only when the background's opacity changes.
/// A frame compares its state and layout with the last one and damages only what moved: the old
/// and new bezel boxes when the bezel moves, fades or zooms; the indicator box when only progress
/// or the spinner changed; the button box when only the pressed state changed; everything when
/// the background changes. Each damaged rectangle is redrawn from the backdrop with the clip set
/// to it, so a frame updated by damage equals a full redraw pixel for pixel.
public final class HUDRenderer {
    public let width: Int, height: Int
    /// The frame, in ordinary memory.
    public let shadow: Bitmap
    public let canvas: Canvas
    public private(set) var style: HUDStyle
    public private(set) var content: HUDContent
    /// Where everything goes, for the current content and style. A change of text alone is laid
    /// out when a frame (or a hit test) first needs it, so a client's many updates between two
    /// frames cost one layout, not one each (issue #24: the work one request causes is bounded).
    public var layout: HUDLayout {
        settleLayout()
        return settledLayout
    }
    private var settledLayout: HUDLayout
    /// True when the text changed since `settledLayout` was made.
    private var layoutStale = false
    let engine: HUDLayoutEngine
    /// A picture under the HUD, if one was set (a plain colour needs no bitmap: 1.5 MB saved
    /// at 800x480).
    private var underlay: Bitmap?
    private var underlayColor = Color.black
    /// The logo as given (`setLogo`), and as drawn: scaled once for the style's `logoSize` and
    /// `scale` (again only when those change), never per frame.
    private var logoSource: Bitmap?
    /// The logo as drawn (nil: none, or `logoPlacement` none).
    public private(set) var logo: Bitmap?
    /// Where the backdrop has the logo (nil: nowhere); a frame whose logo goes elsewhere (the
    /// bezel above it grew, the mode left `alone`'s) rebuilds the backdrop.
    private var drawnLogo: Rect?
    /// Underlay + background at the current opacity, when that is not one plain colour (a
    /// gradient, or a picture underneath); otherwise `backdropColor` and no bitmap at all.
    private var backdrop: Bitmap?
    private var backdropColor: Color?
    private var backdropOpacity = -1.0
    private var blurCache: (box: IntRect, opacity: Double, bitmap: Bitmap)?
    private var last: HUDFrameState?
    /// The pixels the bezel covered in the last frame drawn (its layout may have changed since:
    /// a shorter label leaves the old, larger bezel to be painted over).
    private var lastBezel = IntRect.zero
    private var layoutVersion = 0, lastLayoutVersion = -1
    /// False for a renderer that draws whole frames only (`render`'s one picture): no backdrop
    /// bitmap is kept, the background is painted straight into the shadow and the bezel over
    /// it, so the memory is the frame itself (an 8192x8192 frame: 256 MB, not 512).
    public let keepsBackdrop: Bool

    /// A renderer for a `width`×`height` frame in `format`; `keepsBackdrop: false` for one that
    /// redraws every frame whole (see `keepsBackdrop`).
    public init(width: Int, height: Int, format: PixelFormat = .xrgb8888, fonts: FontLibrary,
                style: HUDStyle = HUDStyle(), content: HUDContent = HUDContent(), keepsBackdrop: Bool = true) throws {
        self.width = width; self.height = height
        self.keepsBackdrop = keepsBackdrop
        shadow = try Bitmap(width: width, height: height, format: format)
        canvas = Canvas(shadow.surface)
        engine = HUDLayoutEngine(fonts: fonts)
        self.style = style.checked; self.content = content
        settledLayout = try engine.layout(content, style: self.style, width: width, height: height)
    }

    /// True for a frame shown over another program's picture (`Display.isOverlay`: a compositor's
    /// overlay layer): the underlay is transparent whatever `setUnderlay` says, so what the HUD
    /// does not cover — and what the dim lets through — is the program's. Needs a format with
    /// alpha (ARGB8888).
    public var transparentUnderlay = false {
        didSet {
            guard transparentUnderlay != oldValue else { return }
            underlayColor = transparentUnderlay ? .clear : .black
            underlay = nil
            backdropOpacity = -1
            last = nil
        }
    }

    /// Sets what lies under the HUD: a colour, or a picture over it, scaled as `fit` says (the
    /// scaled picture is kept: drawn once here, not per frame). Nothing, with a transparent
    /// underlay.
    public func setUnderlay(color: Color = .black, image: Bitmap? = nil, fit: UnderlayFit = .fill) {
        guard !transparentUnderlay else { return }
        underlayColor = Color(r: color.r, g: color.g, b: color.b, a: 1)
        if let image {
            // The frame-sized bitmap is kept from one picture or colour to the next: allocating
            // one per change left a freed frame in the heap each time (see KioskSys/Heap.swift).
            if underlay == nil { underlay = try? Bitmap(width: width, height: height, format: shadow.format) }
            if let u = underlay {
                let c = Canvas(u.surface)
                c.clear(to: underlayColor)
                c.draw(image, in: fit.rect(pictureWidth: image.width, height: image.height, inWidth: width, height: height))
            }
        } else {
            underlay = nil
        }
        backdropOpacity = -1
        last = nil
    }

    /// Sets the logo picture (nil: none), placed and sized as the style's `logoPlacement` and
    /// `logoSize` say. It is scaled here, once; frames copy the scaled bitmap.
    public func setLogo(_ image: Bitmap?) {
        logoSource = image
        scaleLogo()
    }

    /// Scales the logo for the current style (and drops the frame's idea of where it was).
    private func scaleLogo() {
        defer { backdropOpacity = -1; last = nil }
        guard let src = logoSource, style.logoPlacement != .none else { logo = nil; return }
        let sc = style.scale > 0 && style.scale.isFinite ? style.scale : 1
        let size = LogoScaling.size(width: src.width, height: src.height, maxHeight: style.logoSize * sc, maxWidth: Double(width))
        if let l = logo, l.width == size.width, l.height == size.height, l === src || logoScaledFrom === src { return }
        logo = LogoScaling.scaled(src, to: size)
        logoScaledFrom = src
        logoScalings += 1
    }
    private weak var logoScaledFrom: Bitmap?
    /// How many times a logo was scaled (tests: once per picture and size, not per frame).
    public private(set) var logoScalings = 0

    /// The logo shows alone, with the progress under it and no bezel (see `LogoPlacement.alone`);
    /// content with a button keeps the bezel (the button must be seen to be pressed).
    var logoAlone: Bool {
        logo != nil && style.logoPlacement == .alone && !content.showsButton
            && (content.mode.showsProgress || content.mode == .indeterminate)
    }

    /// With the logo alone: the logo, a gap, the indicator, then the label and details as the
    /// bezel would have them (`padding` apart), the group centred on the frame. The logo's top,
    /// the indicator, each text with how far it moves from its place in the bezel, and the box
    /// of all but the logo (what a frame redraws when only they change).
    private func aloneGeometry() -> (logoTop: Double, indicator: Rect, texts: [(HUDLayout.PlacedText, dx: Int, dy: Int)], box: IntRect) {
        let sc = style.scale > 0 && style.scale.isFinite ? style.scale : 1
        let lh = Double(logo?.height ?? 0), lw = Double(logo?.width ?? 0)
        let gap = (style.margin * sc).rounded(), padding = Int((style.padding * sc).rounded())
        let ind: (w: Double, h: Double)
        if content.mode == .indeterminate {
            ind = ((style.indicatorSize * sc).rounded(), (style.indicatorSize * sc).rounded())
        } else {
            let w = min(max(lw, (style.barWidth * sc).rounded()), (Double(width) * 0.8).rounded())
            ind = (w, (style.barHeight * sc * 0.6).rounded())
        }
        let placed = [layout.label, layout.details].compactMap { $0 }
        let textHeight = placed.reduce(0) { $0 + padding + $1.text.height }
        let top = ((Double(height) - lh - gap - ind.h - Double(textHeight)) / 2).rounded(.down)
        let r = Rect(x: ((Double(width) - ind.w) / 2).rounded(.down), y: top + lh + gap, width: ind.w, height: ind.h)
        var box = r.enclosingPixels
        var y = Int(r.maxY)
        let dx = Int((Double(width) / 2 - layout.bezel.midX).rounded())
        var texts: [(HUDLayout.PlacedText, dx: Int, dy: Int)] = []
        for t in placed {
            y += padding
            let moved = (t, dx: dx, dy: y - t.top)
            texts.append(moved)
            box = box.union(IntRect(x: t.frame.x + dx, y: y, width: t.frame.width, height: t.frame.height))
            y += t.text.height
        }
        return (top, r, texts, box)
    }

    /// Where the logo goes for the current content and style (nil: no logo).
    var logoRect: Rect? {
        guard let logo else { return nil }
        let w = Double(logo.width), h = Double(logo.height)
        let x = ((Double(width) - w) / 2).rounded(.down)
        if logoAlone { return Rect(x: x, y: aloneGeometry().logoTop, width: w, height: h) }
        let sc = style.scale > 0 && style.scale.isFinite ? style.scale : 1
        let y = max(0, (layout.bezel.minY - (style.margin * sc).rounded() - h).rounded(.down))
        return Rect(x: x, y: y, width: w, height: h)
    }

    /// Changes content and/or style; the next `render` redraws what that changes. A new style is
    /// laid out at once, so what cannot be (a font that cannot be read) throws and changes
    /// nothing; new text with the same style is laid out when the next frame needs it (its fonts
    /// are the ones already open).
    public func update(content: HUDContent? = nil, style: HUDStyle? = nil) throws {
        let newStyle = style?.checked ?? self.style, newContent = content ?? self.content
        if newStyle != self.style {
            settledLayout = try engine.layout(newContent, style: newStyle, width: width, height: height)
            layoutStale = false
            layoutVersion += 1
        } else if !newContent.laysOutLike(self.content) {
            layoutStale = true
            layoutVersion += 1
        }
        let rescale = newStyle.scale != self.style.scale || newStyle.logoSize != self.style.logoSize
            || newStyle.logoPlacement != self.style.logoPlacement
        if newStyle != self.style { last = nil; backdropOpacity = -1 }
        self.style = newStyle
        self.content = newContent
        if rescale && logoSource != nil { scaleLogo() }
    }

    /// Lays out text changed since the last layout. The style's fonts are open already, so this
    /// does not fail in practice; if it ever does (a font file gone and its face dropped), the
    /// last layout stays, as a failed `update(style:)` leaves it.
    private func settleLayout() {
        guard layoutStale else { return }
        layoutStale = false
        if let l = try? engine.layout(content, style: style, width: width, height: height) { settledLayout = l }
    }

    /// Sets the progress shown (0…1, clamped; NaN ignored): no layout, so it cannot fail.
    public func setProgress(_ p: Double) {
        guard !p.isNaN else { return }
        content.progress = min(max(p, 0), 1)
    }

    /// Draws the frame for `state` and returns what changed (empty if nothing did).
    @discardableResult
    public func render(_ state: HUDFrameState) -> DamageRegion {
        render(state, stoppingWhen: { false })!
    }

    /// Pixels drawn between two looks at `stop` (a band of rows of a large frame): about 20 ms
    /// of the slowest drawing (a gradient), so a quit is answered well within 250 ms on an 8K
    /// canvas, while an 800x480 frame is one band.
    static let pixelsPerBand = 1 << 20

    /// Draws the frame for `state` in bands of rows, asking `stop` between them; returns what
    /// changed, or nil when `stop` said so (the next render draws everything again).
    public func render(_ state: HUDFrameState, stoppingWhen stop: () -> Bool) -> DamageRegion? {
        // The logo moved (or came or went): the background is drawn again, whole.
        let logoAt = logoRect
        if logoAt != drawnLogo { drawnLogo = logoAt; backdropOpacity = -1; last = nil }
        let damage = self.damage(for: state)
        guard !damage.isEmpty else { last = state; lastLayoutVersion = layoutVersion; lastBezel = bezelBox(state); return damage }
        last = nil   // until the whole frame is drawn
        let bgOpacity = state.visible ? clamp01(state.opacity) : 0
        if !keepsBackdrop { return renderWhole(state, opacity: bgOpacity, stoppingWhen: stop) }
        // A new background opacity (each frame of a fade), or the first frame. A frame redrawn
        // whole, with no blur reading the backdrop, gets a picture's or a gradient's background
        // drawn straight into the frame: one pass over the pixels instead of two (into the
        // backdrop, then copied). The backdrop is built when a frame at this opacity needs part of
        // it; one plain colour needs no bitmap and is kept as before.
        var direct: BackgroundPlan?
        if bgOpacity != backdropOpacity {
            let whole = damage.rects.count == 1 && damage.rects[0] == IntRect(x: 0, y: 0, width: width, height: height)
            let plan = whole && !usesBlur ? backgroundPlan(opacity: bgOpacity) : nil
            if case .layered = plan {
                direct = plan
            } else {
                guard rebuildBackdrop(opacity: bgOpacity, stoppingWhen: stop) else { return nil }
            }
        }
        for band in bands(damage.rects) {
            if stop() { return nil }
            canvas.withClip(band) {
                if let direct {
                    drawBackground(direct, into: canvas, band)
                } else if let b = backdrop {
                    canvas.copy(from: b.surface, rect: band)
                } else {
                    canvas.clear(band, to: backdropColor ?? .black)
                }
                drawBezel(state)
            }
        }
        canvas.damage.removeAll()
        last = state
        lastLayoutVersion = layoutVersion
        lastBezel = bezelBox(state)
        return damage
    }

    /// `rects` cut into bands of at most `pixelsPerBand` pixels (whole rows).
    func bands(_ rects: [IntRect]) -> [IntRect] {
        var out: [IntRect] = []
        for r in rects {
            let rows = max(1, HUDRenderer.pixelsPerBand / max(1, r.width))
            var y = r.minY
            while y < r.maxY {
                out.append(IntRect(x: r.x, y: y, width: r.width, height: min(rows, r.maxY - y)))
                y += rows
            }
        }
        return out
    }

    /// Draws the whole frame for `state`, regardless of what changed.
    @discardableResult
    public func renderFull(_ state: HUDFrameState) -> DamageRegion {
        last = nil
        return render(state)
    }

    // MARK: Damage

    func damage(for s: HUDFrameState) -> DamageRegion {
        var d = DamageRegion()
        let full = IntRect(x: 0, y: 0, width: width, height: height)
        guard let p = last else { d.add(full); return d }
        let bgVisible = style.background != .none
        let pOp = p.visible ? p.opacity : 0, sOp = s.visible ? s.opacity : 0
        if bgVisible && pOp != sOp { d.add(full); return d }
        let moved = lastLayoutVersion != layoutVersion || pOp != sOp || p.scale != s.scale
            || motion(p) != motion(s)
        if moved {
            d.add(lastBezel); d.add(bezelBox(s))
            return d
        }
        guard s.visible && sOp > 0 else { return d }
        let (mx, my) = motion(s)
        let usesProgress = content.mode.showsProgress
        if (usesProgress && p.progress != s.progress) || (content.mode == .indeterminate && p.spinnerPhase != s.spinnerPhase) {
            d.add(logoAlone ? grow(aloneGeometry().indicator.enclosingPixels, 0, 0) : grow(layout.indicatorBox, mx, my))
        }
        if p.buttonPressed != s.buttonPressed, let b = layout.button {
            d.add(grow(b.enclosingPixels, mx, my))
        }
        return d.clipped(to: full)
    }

    /// The motion offset in whole pixels; NaN and anything beyond the largest offset a style can
    /// ask for (`HUDStyle.maxOffset`) never reach an integer conversion.
    func motion(_ s: HUDFrameState) -> (Int, Int) {
        func px(_ v: Double) -> Int { v.isFinite ? Int(min(max(v, -HUDStyle.maxOffset), HUDStyle.maxOffset).rounded()) : 0 }
        return (px(s.motionX), px(s.motionY))
    }

    func grow(_ r: IntRect, _ dx: Int, _ dy: Int) -> IntRect {
        r.isEmpty ? r : IntRect(x: r.x + dx - 1, y: r.y + dy - 1, width: r.width + 2, height: r.height + 2)
    }

    /// The pixels the bezel covers in state `s`.
    func bezelBox(_ s: HUDFrameState) -> IntRect {
        guard s.visible, s.opacity > 0 else { return .zero }
        if logoAlone { return grow(aloneGeometry().box, 0, 0).intersection(IntRect(x: 0, y: 0, width: width, height: height)) }
        let (mx, my) = motion(s)
        let b = layout.bezel, k = s.scale.isFinite && s.scale > 0 ? s.scale : 1
        // While zooming the bezel is drawn as a layer with a 1 px margin: cover all of it.
        let w = (k == 1 ? b.width : b.width + 2) * k, h = (k == 1 ? b.height : b.height + 2) * k
        let r = Rect(x: b.midX - w / 2 + Double(mx), y: b.midY - h / 2 + Double(my), width: w, height: h)
        return grow(r.enclosingPixels, 0, 0).intersection(IntRect(x: 0, y: 0, width: width, height: height))
    }

    // MARK: Drawing

    /// How the background is drawn at one opacity: one plain colour (no bitmap at all), or the
    /// underlay picture or colour with the dim or the gradient over it.
    enum BackgroundPlan {
        case plain(Color)
        case layered(opacity: Double)
    }

    /// The bezel reads the backdrop (a blurred bezel).
    private var usesBlur: Bool {
        if case let .blur(radius) = style.bezelStyle, radius > 0 { return true }
        return false
    }

    /// How to draw the background at `opacity`.
    private func backgroundPlan(opacity: Double) -> BackgroundPlan {
        // One plain colour: the underlay's, with a dim over it (blended by the same SrcOver as
        // everything else, on one pixel).
        if !transparentUnderlay, underlay == nil, drawnLogo == nil, style.background != .gradient, let px = try? Bitmap(width: 1, height: 1, format: shadow.format) {
            let c = Canvas(px.surface)
            c.clear(to: underlayColor)
            if case let .dim(color) = style.background { c.fill(px.surface.bounds, .solid(color), opacity: opacity) }
            let p = px.surface.pixel(x: 0, y: 0)
            return .plain(Color(r: Double((p >> 16) & 0xFF) / 255, g: Double((p >> 8) & 0xFF) / 255, b: Double(p & 0xFF) / 255))
        }
        return .layered(opacity: opacity)
    }

    /// Draws the background of `band` into `c` (the frame or the backdrop, same size).
    private func drawBackground(_ plan: BackgroundPlan, into c: Canvas, _ band: IntRect) {
        switch plan {
        case let .plain(color):
            c.clear(band, to: color)
        case let .layered(opacity):
            switch style.background {
            case let .dim(color):
                // The blit and the dim in one pass: the same SrcOver as a copy followed by a fill.
                if drawnLogo != nil && logo != nil {
                    // The logo goes between the picture and the dim.
                    if let underlay { c.copy(from: underlay.surface, rect: band) } else { c.clear(band, to: underlayColor) }
                    drawLogo(into: c, band)
                    c.fill(band, .solid(color), opacity: opacity)
                } else if let underlay {
                    c.copy(from: underlay.surface, rect: band, dim: color.withOpacity(opacity))
                } else {
                    c.clear(band, to: underlayColor)
                    c.fill(band, .solid(color), opacity: opacity)
                }
            case .none:
                if let underlay { c.copy(from: underlay.surface, rect: band) } else { c.clear(band, to: underlayColor) }
                drawLogo(into: c, band)
            case .gradient:
                if let underlay { c.copy(from: underlay.surface, rect: band) } else { c.clear(band, to: underlayColor) }
                drawLogo(into: c, band)
                let g = RadialGradient(center: Point(Double(width) / 2, Double(height) / 2), radius: Double(min(width, height)),
                                       stops: [GradientStop(0, .clear), GradientStop(1, Color(white: 0, a: 0.75))])
                c.fill(band, .radial(g), opacity: opacity)
            }
        }
    }

    /// The scaled logo where `drawnLogo` says, over what `band` of `c` holds (whole pixels at
    /// its own size: a copy, blended).
    private func drawLogo(into c: Canvas, _ band: IntRect) {
        guard let logo, let r = drawnLogo else { return }
        c.withClip(band) { c.draw(logo, in: r) }
    }

    /// Builds what lies under the bezel at `opacity`; false (and not built) when `stop` said so.
    private func rebuildBackdrop(opacity: Double, stoppingWhen stop: () -> Bool) -> Bool {
        backdropOpacity = -1
        blurCache = nil
        let plan = backgroundPlan(opacity: opacity)
        if case let .plain(color) = plan {
            backdropColor = color
            backdrop = nil
            backdropOpacity = opacity
            return true
        }
        backdropColor = nil
        if backdrop == nil { backdrop = try? Bitmap(width: width, height: height, format: shadow.format) }
        guard let backdrop else { backdropOpacity = opacity; return true }
        let c = Canvas(backdrop.surface)
        for band in bands([c.surface.bounds]) {
            if stop() { return false }
            drawBackground(plan, into: c, band)
        }
        backdropOpacity = opacity
        return true
    }


    /// A whole frame without a backdrop bitmap (`keepsBackdrop` false): the background into the
    /// shadow band by band, the blurred bezel's source taken from it, then the bezel.
    private func renderWhole(_ state: HUDFrameState, opacity: Double, stoppingWhen stop: () -> Bool) -> DamageRegion? {
        let full = IntRect(x: 0, y: 0, width: width, height: height)
        backdrop = nil; backdropColor = nil; blurCache = nil
        let plan = backgroundPlan(opacity: opacity)
        for band in bands([full]) {
            if stop() { return nil }
            canvas.withClip(band) { drawBackground(plan, into: canvas, band) }
        }
        backdropOpacity = opacity
        let plain = underlay == nil && drawnLogo == nil && style.background != .gradient  // blurs to itself: no blur (as rebuildBackdrop)
        if case let .blur(radius) = style.bezelStyle, radius > 0, !plain, !logoAlone, state.visible, state.opacity > 0 {
            let sc = style.scale > 0 && style.scale.isFinite ? style.scale : 1
            let box = layout.bezel.offsetBy(dx: Double(motion(state).0), dy: Double(motion(state).1)).enclosingPixels
            _ = blurredBackdrop(box, radius: Int((radius * sc).rounded()), from: shadow)
        }
        for band in bands([full]) {
            if stop() { return nil }
            canvas.withClip(band) { drawBezel(state) }
        }
        canvas.damage.removeAll()
        blurCache = nil
        last = state
        lastLayoutVersion = layoutVersion
        lastBezel = bezelBox(state)
        return DamageRegion([full])
    }

    private func drawBezel(_ s: HUDFrameState) {
        guard s.visible, s.opacity > 0 else { return }
        if logoAlone { drawAlone(s); return }
        let (mx, my) = motion(s)
        let op = clamp01(s.opacity), k = s.scale.isFinite && s.scale > 0 ? s.scale : 1
        if op >= 1 && k == 1 {
            drawContents(canvas, s, dx: mx, dy: my)
            return
        }
        // Fading or zooming: draw the bezel into a layer, then put the layer on scaled and faded.
        let b = layout.bezel
        guard let layer = try? Bitmap(width: max(1, Int(b.width) + 2), height: max(1, Int(b.height) + 2), format: .argb8888)
        else { return }
        let lc = Canvas(layer.surface)
        drawContents(lc, s, dx: 1 - Int(b.x), dy: 1 - Int(b.y), backdropOrigin: (Int(b.x) + mx - 1, Int(b.y) + my - 1))
        let w = Double(layer.width) * k, h = Double(layer.height) * k
        let dest = Rect(x: b.midX + Double(mx) - w / 2, y: b.midY + Double(my) - h / 2, width: w, height: h)
        canvas.draw(layer, in: dest, opacity: op)
    }

    /// The logo alone's indicator under it (the logo is the backdrop's): the bar with the
    /// progress, or the spinner; faded with the HUD, never moved or zoomed.
    private func drawAlone(_ s: HUDFrameState) {
        let g = aloneGeometry(), r = g.indicator
        let sc = style.scale > 0 && style.scale.isFinite ? style.scale : 1
        let color = style.contentColor.withOpacity(clamp01(s.opacity))
        if content.mode == .indeterminate {
            HUDDraw.spinner(canvas, center: Point(r.midX, r.midY), size: min(r.width, r.height), phase: s.spinnerPhase, color: color)
        } else {
            HUDDraw.bar(canvas, r, progress: clamp01(s.progress), color: color, lineWidth: 2 * sc)
        }
        for (t, dx, dy) in g.texts {
            for (i, line) in t.text.lines.enumerated() {
                HUDDraw.text(canvas, line, x: t.lineX[i] + dx, baseline: t.top + dy + t.text.baseline(ofLine: i), color: color)
            }
        }
    }

    /// The bezel and everything on it, moved by (dx, dy).
    private func drawContents(_ c: Canvas, _ s: HUDFrameState, dx: Int, dy: Int, backdropOrigin: (Int, Int)? = nil) {
        let fx = Double(dx), fy = Double(dy)
        let bezel = layout.bezel.offsetBy(dx: fx, dy: fy)
        let sc = style.scale > 0 && style.scale.isFinite ? style.scale : 1
        let bezelPath = Path.roundedRect(bezel, radius: style.cornerRadius * sc)
        if case let .blur(radius) = style.bezelStyle, radius > 0 {
            // The backdrop under the (unmoved-by-layer) bezel, blurred.
            let box = layout.bezel.offsetBy(dx: Double(motion(s).0), dy: Double(motion(s).1)).enclosingPixels
            if let blurred = blurredBackdrop(box, radius: Int((radius * sc).rounded())) {
                let o = backdropOrigin.map { (box.x - $0.0, box.y - $0.1) } ?? (box.x, box.y)
                c.fill(bezelPath, .image(blurred, originX: o.0, originY: o.1))
            }
        }
        c.fill(bezelPath, .solid(style.bezelColor))
        let color = style.contentColor
        if let ind = layout.indicator?.offsetBy(dx: fx, dy: fy) {
            let center = Point(ind.midX, ind.midY)
            let size = min(ind.width, ind.height)
            let p = clamp01(s.progress)
            switch content.mode {
            case .indeterminate:
                HUDDraw.spinner(c, center: center, size: size, phase: s.spinnerPhase, color: color)
            case .determinate:
                HUDDraw.pie(c, center: center, size: size, progress: p, lineWidth: style.ringLineWidth * sc, color: color)
            case .annular:
                HUDDraw.annular(c, center: center, size: size, progress: p, lineWidth: style.ringLineWidth * sc,
                                color: color, track: Color(r: color.r, g: color.g, b: color.b, a: 0.1), cap: .square)
            case .bar:
                HUDDraw.bar(c, ind, progress: p, color: color, lineWidth: 2 * sc)
            case .custom:
                if let img = content.image { c.draw(img.bitmap, in: ind) }
            case .success:
                HUDDraw.checkmark(c, ind, color: color)
            case .error:
                HUDDraw.cross(c, ind, color: color)
            case .text:
                break
            }
        }
        for t in [layout.label, layout.details] {
            guard let t else { continue }
            for (i, line) in t.text.lines.enumerated() {
                HUDDraw.text(c, line, x: t.lineX[i] + dx, baseline: t.top + dy + t.text.baseline(ofLine: i), color: color)
            }
        }
        if let b = layout.button?.offsetBy(dx: fx, dy: fy) {
            HUDDraw.buttonFrame(c, b, color: color, pressed: s.buttonPressed, lineWidth: max(1, sc))
            if let t = layout.buttonText, let line = t.text.lines.first {
                HUDDraw.text(c, line, x: t.x + dx, baseline: t.top + dy + t.text.ascender, color: color)
            }
        }
    }

    private func blurredBackdrop(_ box: IntRect, radius: Int, from source: Bitmap? = nil) -> Bitmap? {
        // A plain-colour backdrop blurs to itself, and it is already under the bezel.
        let clipped = box.intersection(IntRect(x: 0, y: 0, width: width, height: height))
        guard !clipped.isEmpty else { return nil }
        if let c = blurCache, c.box == clipped, c.opacity == backdropOpacity { return c.bitmap }
        guard let backdrop = source ?? backdrop else { return nil }
        guard let bm = try? Bitmap(width: clipped.width, height: clipped.height, format: .argb8888) else { return nil }
        for y in 0..<clipped.height {
            for x in 0..<clipped.width {
                bm.surface.row32(y)[x] = backdrop.surface.pixel(x: clipped.x + x, y: clipped.y + y)
            }
        }
        Canvas(bm.surface).blur(bm.surface.bounds, radius: max(1, radius))
        blurCache = (clipped, backdropOpacity, bm)
        return bm
    }
}
