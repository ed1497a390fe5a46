import KioskRaster
import KioskText

/// Where every part of the HUD goes, in pixels.
public struct HUDLayout {
    /// The bezel, in whole pixels.
    public var bezel: Rect
    /// The indicator's box (nil in text mode).
    public var indicator: Rect?
    public var label: PlacedText?
    public var details: PlacedText?
    public var button: Rect?
    public var buttonText: PlacedText?
    /// Whole-pixel box of the indicator, for damage when only it changes.
    public var indicatorBox: IntRect { (indicator?.enclosingPixels ?? .zero) }

    /// Text with its top-left and the pen origin of its first line.
    public struct PlacedText {
        public var text: TextLayout
        public var x: Int
        public var top: Int
        /// The pen x of line `i` (each line centred in the element's width).
        public var lineX: [Int]
        public var frame: IntRect { IntRect(x: x, y: top, width: text.width, height: text.height) }
    }
}

/// Computes MBProgressHUD's layout directly (no constraint solver), with its priorities:
/// the edge margin (999) beats the offset (998), which beats minSize and square (997); the bezel
/// grows to fit its content up to the screen less the margins. Elements are stacked top to bottom
/// (indicator, label, details, button), centred, `padding` apart; an empty element takes no space
/// and no padding; the stack is centred vertically with at least `margin` above and below.
public struct HUDLayoutEngine {
    public let fonts: FontLibrary

    public init(fonts: FontLibrary) { self.fonts = fonts }

    func font(_ style: HUDStyle, _ points: Double) throws -> Font {
        let px = max(1, Int((points * style.scale).rounded()))
        return try fonts.font(FontSpec(paths: style.fontPaths, pixelSize: px))
    }

    /// Lays out `content` with `style` on a `width`×`height` screen. The label's, details' and
    /// button's glyphs are kept in memory together while it does (`FontLibrary.keepingGlyphs`).
    public func layout(_ content: HUDContent, style: HUDStyle, width: Int, height: Int) throws -> HUDLayout {
        try fonts.keepingGlyphs { try layoutKeepingGlyphs(content, style: style, width: width, height: height) }
    }

    private func layoutKeepingGlyphs(_ content: HUDContent, style: HUDStyle, width: Int, height: Int) throws -> HUDLayout {
        let s = style.scale.isFinite && style.scale > 0 ? style.scale : 1
        func px(_ v: Double) -> Double { v.isFinite ? max(0, v) * s : 0 }
        let m = px(style.margin), pad = px(style.padding)
        let W = Double(width), H = Double(height)
        let maxBezelW = max(0, W - 2 * m), maxBezelH = max(0, H - 2 * m)
        let contentMaxW = max(0, maxBezelW - 2 * m)
        let contentMaxH = max(0, maxBezelH - 2 * m)
        let limitW = Int(contentMaxW.rounded(.down))

        // Indicator size.
        var indicator: (w: Double, h: Double)?
        switch content.mode {
        case .indeterminate, .determinate, .annular, .success, .error:
            indicator = (px(style.indicatorSize), px(style.indicatorSize))
        case .bar:
            indicator = (min(px(style.barWidth), contentMaxW), px(style.barHeight))
        case .custom:
            if let img = content.image {
                indicator = (Double(img.bitmap.width) / img.scale * s, Double(img.bitmap.height) / img.scale * s)
            }
        case .text:
            indicator = nil
        }
        if let i = indicator, i.w <= 0 || i.h <= 0 { indicator = nil }

        // Texts.
        let labelFont = try font(style, style.labelFontSize)
        let detailsFont = try font(style, style.detailsFontSize)
        let buttonFont = try font(style, style.buttonFontSize)
        let label = content.label.isEmpty ? nil
            : labelFont.layout(content.label, options: .label(maxWidth: limitW))
        let buttonText = content.showsButton
            ? buttonFont.layout(content.buttonTitle, options: .label(maxWidth: max(0, limitW - Int(px(20)))))
            : nil
        let buttonH = Double(buttonFont.lineHeight) + px(6)
        // Height left for the details: it wraps, and is cut with "…" where it cannot fit.
        var used = 0.0, count = 0
        if let i = indicator { used += i.h; count += 1 }
        if let l = label, !l.lines.isEmpty { used += Double(l.height); count += 1 }
        if buttonText != nil { used += buttonH; count += 1 }
        var details: TextLayout?
        if !content.details.isEmpty {
            let avail = contentMaxH - used - Double(count) * pad
            let lines = max(1, Int((avail / Double(detailsFont.lineHeight)).rounded(.down)))
            details = detailsFont.layout(content.details, options: .details(maxWidth: limitW, maxLines: lines))
        }

        // Stack.
        var items: [(w: Double, h: Double)] = []
        if let i = indicator { items.append(i) }
        if let l = label, !l.lines.isEmpty { items.append((Double(l.width), Double(l.height))) }
        if let d = details, !d.lines.isEmpty { items.append((Double(d.width), Double(d.height))) }
        if let b = buttonText { items.append((Double(b.width) + px(20), buttonH)) }
        let contentW = items.map(\.w).max() ?? 0
        let contentH = items.map(\.h).reduce(0, +) + pad * Double(max(0, items.count - 1))

        // Bezel size: content + margins, then minSize and square (997), then the edge margin (999).
        var bw = contentW + 2 * m, bh = contentH + 2 * m
        bw = max(bw, px(style.minWidth)); bh = max(bh, px(style.minHeight))
        if style.square { let side = max(bw, bh); bw = side; bh = side }
        bw = min(bw.rounded(.up), maxBezelW.rounded(.down))
        bh = min(bh.rounded(.up), maxBezelH.rounded(.down))

        // Position: centre + offset (998), kept inside the edge margin (999).
        func place(_ size: Double, _ screen: Double, _ offset: Double) -> Double {
            let o = offset.isFinite ? offset : (offset > 0 ? HUDStyle.maxOffset : -HUDStyle.maxOffset)
            let want = (screen - size) / 2 + o * s
            let lo = m, hi = screen - m - size
            // A screen smaller than the margins: centre the (empty) bezel on it.
            if hi < lo { return max(0, ((screen - size) / 2).rounded(.down)) }
            return min(max(want, lo), hi).rounded(.down)
        }
        let bx = place(bw, W, style.offsetX), by = place(bh, H, style.offsetY)
        var out = HUDLayout(bezel: Rect(x: bx, y: by, width: bw, height: bh))

        var y = (by + ((bh - contentH) / 2).rounded(.down))
        func centred(_ w: Double) -> Double { (bx + (bw - w) / 2).rounded(.down) }
        func placed(_ t: TextLayout, _ top: Double) -> HUDLayout.PlacedText {
            let x0 = Int(centred(Double(t.width)))
            let lineX = t.lines.map { x0 + (t.width - $0.width) / 2 }
            return HUDLayout.PlacedText(text: t, x: x0, top: Int(top), lineX: lineX)
        }
        if let i = indicator {
            let ix = content.mode == .bar || content.mode == .custom ? centred(i.w) : bx + (bw - i.w) / 2
            out.indicator = Rect(x: ix, y: y, width: i.w, height: i.h)
            y += i.h + pad
        }
        if let l = label, !l.lines.isEmpty {
            out.label = placed(l, y)
            y += Double(l.height) + pad
        }
        if let d = details, !d.lines.isEmpty {
            out.details = placed(d, y)
            y += Double(d.height) + pad
        }
        if let b = buttonText {
            let w = Double(b.width) + px(20)
            let r = Rect(x: centred(w), y: y, width: w, height: buttonH)
            out.button = r
            var t = placed(b, y + ((buttonH - Double(b.height)) / 2).rounded(.down))
            t.lineX = [Int(r.x + px(10))]
            t.x = Int(r.x + px(10))
            out.buttonText = t
        }
        return out
    }
}
