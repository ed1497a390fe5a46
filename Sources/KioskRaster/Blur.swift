/// Box blur in place, three passes horizontally then three vertically, on 8-bit channels.
func boxBlur(_ s: Surface, _ r: IntRect, radius: Int) {
    let w = r.width, h = r.height
    var buf = [UInt32](repeating: 0, count: w * h)
    // Read (as premultiplied ARGB) into the work buffer.
    for y in 0..<h { for x in 0..<w { buf[y * w + x] = s.pixel(x: r.minX + x, y: r.minY + y) } }
    var line = [UInt32](repeating: 0, count: max(w, h))
    buf.withUnsafeMutableBufferPointer { b in
        line.withUnsafeMutableBufferPointer { l in
            for _ in 0..<3 {
                for y in 0..<h { blurLine(b.baseAddress! + y * w, step: 1, n: w, radius: radius, tmp: l.baseAddress!) }
            }
            for _ in 0..<3 {
                for x in 0..<w { blurLine(b.baseAddress! + x, step: w, n: h, radius: radius, tmp: l.baseAddress!) }
            }
        }
    }
    for y in 0..<h {
        for x in 0..<w {
            let p = buf[y * w + x]
            switch s.format {
            case .xrgb8888: s.row32(r.minY + y)[r.minX + x] = p | 0xFF00_0000
            case .argb8888: s.row32(r.minY + y)[r.minX + x] = p
            case .rgb565: s.row16(r.minY + y)[r.minX + x] = Blend.pack565(p)
            }
        }
    }
}

/// One box pass over `n` pixels `step` apart, with clamped edges; running sums per channel.
private func blurLine(_ p: UnsafeMutablePointer<UInt32>, step: Int, n: Int, radius: Int, tmp: UnsafeMutablePointer<UInt32>) {
    for i in 0..<n { tmp[i] = p[i * step] }
    let win = UInt32(2 * radius + 1)
    var sums: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
    @inline(__always) func add(_ v: UInt32, _ sign: Bool) {
        if sign {
            sums.0 &+= v & 0xFF; sums.1 &+= (v >> 8) & 0xFF; sums.2 &+= (v >> 16) & 0xFF; sums.3 &+= v >> 24
        } else {
            sums.0 &-= v & 0xFF; sums.1 &-= (v >> 8) & 0xFF; sums.2 &-= (v >> 16) & 0xFF; sums.3 &-= v >> 24
        }
    }
    @inline(__always) func at(_ i: Int) -> UInt32 { tmp[min(max(i, 0), n - 1)] }
    for i in -radius...radius { add(at(i), true) }
    for i in 0..<n {
        let half = win / 2
        p[i * step] = ((sums.0 + half) / win) | ((sums.1 + half) / win) << 8 | ((sums.2 + half) / win) << 16
            | ((sums.3 + half) / win) << 24
        add(at(i + radius + 1), true)
        add(at(i - radius), false)
    }
}
