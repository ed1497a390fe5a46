import KioskRaster
import KioskText

/// The HUD's parts drawn as vectors, each from an explicit rectangle; the layout decides where.
/// Shapes follow MBProgressHUD's drawRect code (MBRoundProgressView, MBBarProgressView,
/// MBProgressHUDRoundedButton) and SVProgressHUD's success/error marks.
public enum HUDDraw {
    /// The bezel: a rounded rectangle.
    public static func bezel(_ c: Canvas, _ r: Rect, radius: Double, color: Color) {
        c.fillRoundedRect(RoundedRectShape(r, radius: radius), color: color)
    }

    /// MBRoundProgressView, annular: a full track ring in `track` colour, then the progress arc
    /// from 12 o'clock clockwise. Both `lineWidth` wide, centred on radius (size − lineWidth)/2.
    public static func annular(_ c: Canvas, center: Point, size: Double, progress: Double, lineWidth: Double,
                               color: Color, track: Color, cap: LineCap = .butt) {
        let r = (size - lineWidth) / 2
        c.fillArcBand(center: center, inner: r - lineWidth / 2, outer: r + lineWidth / 2, color: track)
        let p = clamp01(progress)
        if p > 0 {
            if cap == .butt {
                c.fillArcBand(center: center, inner: r - lineWidth / 2, outer: r + lineWidth / 2,
                              start: -.pi / 2, sweep: p * 2 * .pi, color: color)
            } else {
                c.fill(Path.arc(center: center, radius: r, lineWidth: lineWidth, start: -.pi / 2, sweep: p * 2 * .pi, cap: cap),
                       .solid(color))
            }
        }
    }

    /// MBRoundProgressView, determinate: a circle outline `lineWidth` wide and a pie of the
    /// progress inside it, filled as one shape so the colour is not applied twice.
    public static func pie(_ c: Canvas, center: Point, size: Double, progress: Double, lineWidth: Double, color: Color) {
        let outer = size / 2, inner = outer - lineWidth
        var path = Path.annulus(center: center, inner: inner, outer: outer)
        let p = clamp01(progress)
        if p > 0 { path.append(Path.pie(center: center, radius: inner, start: -.pi / 2, sweep: p * 2 * .pi)) }
        c.fill(path, .solid(color))
    }

    /// MBBarProgressView: a pill outline 2 px wide along the rectangle inset by 2, and the inner
    /// pill (inset 4) filled up to `progress` of the width.
    public static func bar(_ c: Canvas, _ r: Rect, progress: Double, color: Color, lineWidth: Double = 2) {
        let lw = lineWidth
        let outer = r.insetBy(lw / 2), inner = r.insetBy(lw * 1.5)
        c.fillRoundedRect(RoundedRectShape(outer, radius: outer.height / 2),
                          minus: RoundedRectShape(inner, radius: inner.height / 2), color: color)
        let p = clamp01(progress)
        if p > 0 {
            let f = r.insetBy(lw * 2)
            c.fillRoundedRect(RoundedRectShape(f, radius: f.height / 2), maxX: r.x + p * r.width, color: color)
        }
    }

    /// MBProgressHUDRoundedButton: a pill border `lineWidth` wide inside `r`; when pressed, the
    /// pill is tinted with the colour at alpha 0.1 first.
    public static func buttonFrame(_ c: Canvas, _ r: Rect, color: Color, pressed: Bool, lineWidth: Double = 1) {
        let radius = (r.height / 2).rounded(.up)
        if pressed {
            c.fillRoundedRect(RoundedRectShape(r, radius: radius), color: Color(r: color.r, g: color.g, b: color.b, a: 0.1))
        }
        c.fillRoundedRect(RoundedRectShape(r, radius: radius),
                          minus: RoundedRectShape(r.insetBy(lineWidth), radius: max(0, radius - lineWidth)), color: color)
    }

    /// One line of text with its pen at (`x`, `baseline`).
    public static func text(_ c: Canvas, _ line: TextLine, x: Int, baseline: Int, color: Color) {
        let s = color.premultiplied.argb
        var box = IntRect.zero
        for g in line.glyphs {
            let gl = g.glyph
            if gl.width == 0 || gl.height == 0 { continue }
            let r = IntRect(x: x + g.penX + gl.left, y: baseline - gl.top, width: gl.width, height: gl.height)
            box = box.union(r)
            gl.coverage.withUnsafeBufferPointer { m in
                c.drawMask(m.baseAddress!, width: gl.width, height: gl.height, pitch: gl.width,
                           x: r.x, y: r.y, premultiplied: s, reportDamage: false)
            }
        }
        c.damage.add(box.intersection(c.clip))
    }

    /// UIActivityIndicatorView-style spinner: `spokes` rounded bars; the one at `phase` is fully
    /// opaque and the ones behind it fade out.
    public static func spinner(_ c: Canvas, center: Point, size: Double, phase: Int, color: Color, spokes: Int = 12) {
        let n = max(3, spokes)
        let outer = size / 2, width = size * 0.09, inner = size * 0.24
        for i in 0..<n {
            let age = ((phase - i) % n + n) % n
            let alpha = 1 - Double(age) / Double(n) * 0.85
            let (s, co) = sinCos(-.pi / 2 + 2 * .pi * Double(i) / Double(n))
            let a = Point(center.x + co * (inner + width / 2), center.y + s * (inner + width / 2))
            let b = Point(center.x + co * (outer - width / 2), center.y + s * (outer - width / 2))
            c.fill(Path.polyline([a, b], width: width, cap: .round), .solid(color.withOpacity(alpha)))
        }
    }

    /// SVProgressHUD's success mark: a check, stroked with round ends in a `size` square.
    public static func checkmark(_ c: Canvas, _ r: Rect, color: Color) {
        let s = min(r.width, r.height), x = r.midX - s / 2, y = r.midY - s / 2
        let pts = [Point(x + 0.2 * s, y + 0.52 * s), Point(x + 0.42 * s, y + 0.72 * s), Point(x + 0.8 * s, y + 0.3 * s)]
        c.fill(Path.polyline(pts, width: max(1, s * 0.09), cap: .round), .solid(color))
    }

    /// SVProgressHUD's error mark: a cross.
    public static func cross(_ c: Canvas, _ r: Rect, color: Color) {
        let s = min(r.width, r.height), x = r.midX - s / 2, y = r.midY - s / 2, w = max(1, s * 0.09)
        var p = Path.polyline([Point(x + 0.25 * s, y + 0.25 * s), Point(x + 0.75 * s, y + 0.75 * s)], width: w)
        p.append(Path.polyline([Point(x + 0.75 * s, y + 0.25 * s), Point(x + 0.25 * s, y + 0.75 * s)], width: w))
        c.fill(p, .solid(color))
    }
}
