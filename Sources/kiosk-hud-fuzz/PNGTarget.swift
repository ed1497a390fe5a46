import KioskTestSupport
import KioskPNG

/// `png`: KioskPNG's `PNG.decode(_:limit:)` with the limit kiosk-hud uses for an 800x480 canvas
/// (Sources/KioskCommands/Pictures.swift's `pictureLimit`: 4 canvases of pixels as is, larger
/// non-interlaced pictures scaled to fit 1600x960), on generated PNGs: valid small images of
/// every colour type, bit depth and interlacing; the same with bytes mutated (CRCs fixed so the
/// decoder sees the change, or not); IHDR fields set to boundary values; chunk lengths and CRCs
/// broken; zlib bombs in IDAT (huge headers with tiny data, over and under the data the header
/// asks for, wrong Adler-32) and in iCCP/zTXt/iTXt; chunks reordered, repeated, split, unknown,
/// after IEND. A result must fit the limit; an error must be one line of at most 200 characters.
final class PNGTarget: InProcessTarget {
    let name = "png"
    let fileExtension = "png"
    let canvasWidth = 800, canvasHeight = 480
    var canvasBytes: Int { canvasWidth * canvasHeight * 4 }
    let limit: PNGReadLimit
    /// Bombs already made in this process (they take a while to write bit by bit), at most
    /// `bombCacheBytes` of them: the harness must stay small (a child's peak RSS starts from it).
    private var bombs: [String: [UInt8]] = [:]
    private var bombBytes = 0
    static let bombCacheBytes = 4 << 20

    init() {
        limit = PNGReadLimit(maxPixels: 4 * canvasWidth * canvasHeight, maxWidth: 2 * canvasWidth, maxHeight: 2 * canvasHeight)
    }

    var warmUp: [UInt8] {
        var rng = Rng(seed: 1, index: 1)
        return validImage(&rng, width: 32, height: 32, colorType: 6, bitDepth: 8, interlace: 0)
    }

    func check(_ input: [UInt8], index: Int) -> Violation? {
        do {
            let img = try PNG.decode(input, limit: limit)
            let fits = img.width * img.height <= limit.maxPixels || (img.width <= limit.maxWidth && img.height <= limit.maxHeight)
            if !fits || img.width < 1 || img.height < 1 {
                return Violation(kind: "limit", detail: "decoded \(img.width)x\(img.height), outside the limit (\(limit.maxPixels) pixels or \(limit.maxWidth)x\(limit.maxHeight))",
                                 key: "decoded past the limit")
            }
            if img.rgba.count != img.width * img.height * 4 {
                return Violation(kind: "size", detail: "decoded \(img.width)x\(img.height) with \(img.rgba.count) bytes of RGBA", key: "rgba size")
            }
        } catch {
            let d = error.description
            if d.contains("\n") { return Violation(kind: "error-line", detail: "error of several lines: \(cut(d, 160))", key: "multi-line error") }
            if d.count > Criteria.errorLineLimit {
                return Violation(kind: "error-line", detail: "error is \(d.count) characters: \(cut(d, 160))", key: "long error " + gist(d))
            }
        }
        return nil
    }

    // MARK: Inputs

    /// Colour types and their bit depths.
    static let formats: [(colorType: UInt8, depths: [UInt8], channels: Int)] = [
        (0, [1, 2, 4, 8, 16], 1), (2, [8, 16], 3), (3, [1, 2, 4, 8], 1), (4, [8, 16], 2), (6, [8, 16], 4),
    ]

    func input(_ rng: inout Rng, index: Int) -> [UInt8] {
        switch rng.weighted([14, 24, 8, 12, 8, 5, 12, 5, 8, 4]) {
        case 0: return randomValid(&rng)
        case 1:  // mutated, CRCs fixed: the decoder sees the change
            var p = Mutate.havoc(randomValid(&rng), &rng, count: 1 + rng.length(16), tokens: Self.tokens)
            PNGForge.fixAllCRCs(&p)
            return p
        case 2: return Mutate.havoc(randomValid(&rng), &rng, count: 1 + rng.length(16), tokens: Self.tokens)
        case 3: return headerMutation(&rng)
        case 4: return lengthMutation(&rng)
        case 5: return crcMutation(&rng)
        case 6: return idatBomb(&rng)
        case 7: return ancillaryBomb(&rng)
        case 8: return structureMutation(&rng)
        default: return hugeHeader(&rng)
        }
    }

    /// Chunk types and fragments worth inserting.
    static let tokens: [[UInt8]] = ["IHDR", "IDAT", "IEND", "PLTE", "tRNS", "iCCP", "zTXt", "iTXt", "gAMA", "sBIT", "acTL", "fcTL",
                                    "ABCD", "\u{7F}\u{7F}\u{7F}\u{7F}"].map { Array($0.utf8) }
        + [PNGForge.be32(0x7FFF_FFFF), PNGForge.be32(0xFFFF_FFFF), PNGForge.be32(0), PNGForge.be32(0x8000_0000), PNGForge.signature]

    func randomValid(_ rng: inout Rng) -> [UInt8] {
        let f = rng.pick(Self.formats)
        let big = rng.chance(0.1)
        let w = big ? rng.int(1...900) : rng.int(1...48), h = big ? rng.int(1...200) : rng.int(1...48)
        return validImage(&rng, width: w, height: h, colorType: f.colorType, bitDepth: rng.pick(f.depths), interlace: rng.chance(0.3) ? 1 : 0)
    }

    /// A valid PNG of random pixels (random valid filter bytes), with a palette for colour type 3
    /// and sometimes tRNS, gAMA and text.
    func validImage(_ rng: inout Rng, width w: Int, height h: Int, colorType: UInt8, bitDepth: UInt8, interlace: UInt8) -> [UInt8] {
        let channels = Self.formats.first { $0.colorType == colorType }!.channels
        let bitsPerPixel = channels * Int(bitDepth)
        var raw: [UInt8] = []
        func rows(_ pw: Int, _ ph: Int) {
            guard pw > 0, ph > 0 else { return }
            let rowBytes = (pw * bitsPerPixel + 7) / 8
            for _ in 0..<ph {
                raw.append(UInt8(rng.below(5)))
                raw += rng.bytes(rowBytes)
            }
        }
        if interlace == 1 {
            let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            for (x0, y0, dx, dy) in passes { rows((w - x0 + dx - 1) / dx, (h - y0 + dy - 1) / dy) }
        } else {
            rows(w, h)
        }
        if colorType == 3 {
            // Palette indices within the palette: keep them in range most of the time.
            let entries = rng.chance(0.8) ? 1 << Int(bitDepth) : rng.int(1...(1 << Int(bitDepth)))
            if rng.chance(0.8) {
                for i in raw.indices { raw[i] = bitDepth == 8 ? raw[i] % UInt8(min(255, entries)) : raw[i] }
            }
            var extra: [(String, [UInt8])] = [("PLTE", rng.bytes(3 * entries))]
            if rng.chance(0.3) { extra.append(("tRNS", rng.bytes(rng.int(1...entries)))) }
            return file(ihdr: PNGForge.ihdr(width: w, height: h, bitDepth: bitDepth, colorType: colorType, interlace: interlace),
                        before: extra, idat: PNGForge.zlibStored(raw))
        }
        var extra: [(String, [UInt8])] = []
        if rng.chance(0.2) { extra.append(("gAMA", PNGForge.be32(45455))) }
        if rng.chance(0.1) { extra.append(("tEXt", Array("Comment\u{0}fuzz".utf8))) }
        if rng.chance(0.1), colorType == 0 || colorType == 2 { extra.append(("tRNS", rng.bytes(colorType == 0 ? 2 : 6))) }
        return file(ihdr: PNGForge.ihdr(width: w, height: h, bitDepth: bitDepth, colorType: colorType, interlace: interlace),
                    before: extra, idat: PNGForge.zlibStored(raw))
    }

    /// Signature, IHDR, `before`, IDAT (split into `parts` chunks), IEND.
    func file(ihdr: [UInt8], before: [(String, [UInt8])] = [], idat: [UInt8], parts: Int = 1, iend: Bool = true) -> [UInt8] {
        var png = PNGForge.signature + PNGForge.chunk("IHDR", ihdr)
        for (t, d) in before { png += PNGForge.chunk(t, d) }
        let n = max(1, min(parts, max(1, idat.count)))
        let size = (idat.count + n - 1) / n
        var i = 0
        repeat {
            png += PNGForge.chunk("IDAT", Array(idat[i..<min(idat.count, i + size)]))
            i += size
        } while i < idat.count
        if iend { png += PNGForge.chunk("IEND", []) }
        return png
    }

    static let sides = [0, 1, 2, 7, 8, 9, 255, 256, 479, 480, 481, 799, 800, 801, 959, 960, 961, 1599, 1600, 1601, 2048, 4096,
                        8192, 16384, 16385, 30000, 46340, 46341, 65535, 65536, 1 << 20, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF]

    func headerMutation(_ rng: inout Rng) -> [UInt8] {
        var p = randomValid(&rng)
        // IHDR data starts at 16: width 16..<20, height 20..<24, depth 24, colour 25, compression 26, filter 27, interlace 28.
        for _ in 0..<rng.int(1...3) {
            switch rng.below(6) {
            case 0: p.replaceSubrange(16..<20, with: PNGForge.be32(rng.pick(Self.sides)))
            case 1: p.replaceSubrange(20..<24, with: PNGForge.be32(rng.pick(Self.sides)))
            case 2: p[24] = rng.pick([0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 32, 255])
            case 3: p[25] = rng.pick([0, 1, 2, 3, 4, 5, 6, 7, 8, 255])
            case 4: p[26 + rng.below(2)] = rng.pick([1, 2, 64, 255])
            default: p[28] = rng.pick([0, 1, 2, 255])
            }
        }
        if rng.chance(0.85) { PNGForge.fixCRC(&p, chunkAt: 8) }
        return p
    }

    func lengthMutation(_ rng: inout Rng) -> [UInt8] {
        var p = rng.chance(0.7) ? randomValid(&rng) : structureMutation(&rng)
        let cs = PNGForge.chunks(p)
        guard !cs.isEmpty else { return p }
        let c = rng.pick(cs)
        let v = rng.pick([0, 1, c.length - 1, c.length + 1, c.length + 12, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 1 << 20, 13, 14, 12])
        p.replaceSubrange(c.offset..<c.offset + 4, with: PNGForge.be32(max(0, v) & 0xFFFF_FFFF))
        return p
    }

    func crcMutation(_ rng: inout Rng) -> [UInt8] {
        var p = randomValid(&rng)
        let cs = PNGForge.chunks(p)
        let c = rng.pick(cs)
        let at = c.offset + 8 + c.length + rng.below(4)
        if at < p.count { p[at] ^= UInt8(1 << rng.below(8)) }
        return p
    }

    /// A bomb of `count` bytes `byte`, made once per process.
    func bomb(count: Int, byte: UInt8, lie: Bool) -> [UInt8] {
        let key = "\(count)/\(byte)/\(lie)"
        if let b = bombs[key] { return b }
        let b = PNGForge.bomb(count: count, byte: byte, lie: lie)
        if bombBytes + b.count > Self.bombCacheBytes { bombs.removeAll(); bombBytes = 0 }
        bombs[key] = b
        bombBytes += b.count
        return b
    }

    func idatBomb(_ rng: inout Rng) -> [UInt8] {
        // (width, height, depth, colour type): in the limit, scaled down, refused, at the hard caps.
        let shapes: [(Int, Int, UInt8, UInt8)] = [
            (1600, 960, 8, 6), (1600, 961, 8, 6), (4000, 3000, 8, 2), (8192, 8192, 8, 6), (16384, 16384, 1, 0),
            (16384, 16384, 8, 0), (46340, 46340, 1, 0), (65535, 32768, 1, 0), (65535, 1, 16, 6), (1, 65535, 16, 6),
            (2, 1 << 20, 1, 0), (30000, 30000, 1, 0), (100, 100, 8, 6), (1, 1, 8, 0), (20000, 1000, 16, 6),
        ]
        var (w, h, depth, colorType) = rng.pick(shapes)
        let interlace: UInt8 = rng.chance(0.15) ? 1 : 0
        let channels = Self.formats.first { $0.colorType == colorType }!.channels
        if KnownFailures.skips("slow-png") {
            // Decoding takes about 3 ns per pixel or inflated byte here: keep both under 2^25 (a tenth of a second, leaving room for a loaded machine).
            while w * h > 1 << 25 || h * (1 + (w * channels * Int(depth) + 7) / 8) > 1 << 25 { if w > h { w /= 2 } else { h /= 2 } }
        }
        let needed = h * (1 + (w * channels * Int(depth) + 7) / 8)
        var count: Int
        switch rng.below(7) {
        case 0: count = max(1, needed / 2)                          // too little
        case 1: count = needed + 1 + rng.below(1 << 20)             // too much
        case 2: count = min(needed * 4, 1 << 31)                    // far too much
        case 3: count = needed + rng.pick([1 << 24, 1 << 28, 1 << 30])  // the image, then a bomb
        default: count = needed
        }
        if KnownFailures.skips("slow-png") { count = min(count, max(needed, 1 << 25)) }
        let byte: UInt8 = rng.pick([0, 0, 0, 0, 255, 128])  // all zeros (filter 0, black) mostly; 128 and 255 are invalid filters
        var data = bomb(count: max(1, min(count, 1 << 31)), byte: byte, lie: rng.chance(0.1))
        if rng.chance(0.1) { data.removeSubrange((data.count / 2)...) }
        let ihdr = PNGForge.ihdr(width: w, height: h, bitDepth: depth, colorType: colorType, interlace: interlace)
        let palette: [(String, [UInt8])] = colorType == 3 ? [("PLTE", [UInt8](repeating: 7, count: 3 * (1 << Int(depth))))] : []
        return file(ihdr: ihdr, before: palette, idat: data, parts: rng.chance(0.2) ? rng.int(2...4096) : 1)
    }

    func ancillaryBomb(_ rng: inout Rng) -> [UInt8] {
        let count = rng.pick([1 << 16, 1 << 20, 1 << 24, 1 << 28])
        let z = bomb(count: count, byte: 0x41, lie: rng.chance(0.2))
        let chunk: (String, [UInt8])
        switch rng.below(3) {
        case 0: chunk = ("iCCP", Array("icc\u{0}".utf8) + [0] + z)
        case 1: chunk = ("zTXt", Array("Comment\u{0}".utf8) + [0] + z)
        default: chunk = ("iTXt", Array("Comment\u{0}".utf8) + [1, 0] + Array("en\u{0}\u{0}".utf8) + z)
        }
        let before = rng.chance(0.5)
        var p = randomValid(&rng)
        let at = before ? 33 : PNGForge.chunks(p).last.map { $0.offset } ?? p.count
        p.insert(contentsOf: PNGForge.chunk(chunk.0, chunk.1), at: min(at, p.count))
        return p
    }

    func structureMutation(_ rng: inout Rng) -> [UInt8] {
        let p = randomValid(&rng)
        var cs = PNGForge.chunks(p).map { c in Array(p[c.offset..<min(p.count, c.offset + 12 + c.length)]) }
        guard cs.count >= 2 else { return p }
        func type(_ c: [UInt8]) -> String { c.count >= 8 ? String(decoding: c[4..<8], as: UTF8.self) : "" }
        for _ in 0..<rng.int(1...3) {
            switch rng.below(8) {
            case 0: cs.swapAt(rng.below(cs.count), rng.below(cs.count))
            case 1: cs.insert(cs[rng.below(cs.count)], at: rng.below(cs.count + 1))
            case 2: if cs.count > 1 { cs.remove(at: rng.below(cs.count)) }
            case 3: cs.insert(PNGForge.chunk(rng.pick(["ABCD", "abcd", "aBCD", "IDAT", "PLTE", "IHDR", "tRNS", "sBIT", "bKGD", "hIST", "sPLT", "pHYs", "acTL"]),
                                             rng.bytes(rng.length(300))), at: rng.below(cs.count + 1))
            case 4: cs.append(rng.bytes(rng.length(100)))                 // bytes after IEND
            case 5: cs.removeAll { type($0) == "IEND" }
            case 6:  // split IDAT into many one-byte chunks
                if let i = cs.firstIndex(where: { type($0) == "IDAT" && $0.count >= 12 }) {
                    let data = Array(cs[i][8..<cs[i].count - 4])
                    cs.replaceSubrange(i...i, with: data.map { PNGForge.chunk("IDAT", [$0]) })
                }
            default:  // many empty IDATs
                cs.insert(contentsOf: [[UInt8]](repeating: PNGForge.chunk("IDAT", []), count: rng.length(20000)), at: 1)
            }
        }
        return PNGForge.signature + Array(cs.joined())
    }

    func hugeHeader(_ rng: inout Rng) -> [UInt8] {
        let w = rng.pick(Self.sides.filter { $0 > 0 }), h = rng.pick(Self.sides.filter { $0 > 0 })
        let f = rng.pick(Self.formats)
        let ihdr = PNGForge.ihdr(width: w, height: h, bitDepth: rng.pick(f.depths), colorType: f.colorType, interlace: rng.chance(0.3) ? 1 : 0)
        let palette: [(String, [UInt8])] = f.colorType == 3 ? [("PLTE", [0, 0, 0])] : []
        return file(ihdr: ihdr, before: palette, idat: PNGForge.zlibStored([UInt8](repeating: 0, count: rng.length(70000))))
    }
}
