import KioskSys

/// What a `Font` learnt from FreeType, kept in a file between runs so that a HUD whose glyphs
/// were all rendered before never loads FreeType (see the design notes in KioskText.swift).
struct GlyphCacheRecord {
    struct ScalarEntry { var scalar: UInt32; var face: Int; var index: UInt32 }
    struct PairEntry { var face: Int; var left: UInt32; var right: UInt32; var pixels: Int }

    var ascender: Int
    var descender: Int
    /// Per face of the chain: 1 has kerning, 0 has none, -1 not opened yet (unknown).
    var faceKerning: [Int]
    var scalars: [ScalarEntry]
    var glyphs: [Glyph]
    var pairs: [PairEntry]
}

/// The cache file of one `FontSpec`: `<directory>/glyphs-<hash of the spec>.bin`.
///
/// Layout (little-endian): "KHGC", format version, pixel size; each font path of the chain with
/// its `FileIdentity` (zeros when the file is missing); the path and identity of the
/// libfreetype that rendered the glyphs; the record; "KHGC" again. A file is used only when all
/// of it reads back and every identity still matches (`FileIdentity.isSame(as:)`: size and time,
/// so the initramfs's copies of the fonts and of libfreetype match too), so a font or FreeType
/// upgrade, a truncated write or any other damage just means rendering again (and rewriting the file).
enum GlyphCacheFile {
    static let magic: UInt32 = 0x4347_484B  // "KHGC"
    static let version: UInt32 = 1
    /// Far more than any HUD needs (a few hundred glyphs take ~100 kB); a larger file is ignored.
    static let sizeLimit = 16 << 20

    static func fileName(for spec: FontSpec) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        func mix(_ byte: UInt8) { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        for path in spec.paths {
            for byte in path.utf8 { mix(byte) }
            mix(0)
        }
        for shift in stride(from: 0, to: 64, by: 8) { mix(UInt8(truncatingIfNeeded: UInt64(spec.pixelSize) >> UInt64(shift))) }
        var digits = String(hash, radix: 16)
        while digits.utf8.count < 16 { digits = "0" + digits }
        return "glyphs-" + digits + ".bin"
    }

    static func encode(_ record: GlyphCacheRecord, spec: FontSpec, freetypePath: String, kernel: any KernelFiles) -> [UInt8] {
        var w = ByteWriter()
        w.u32(magic); w.u32(version); w.u32(UInt32(clamping: spec.pixelSize))
        w.u32(UInt32(spec.paths.count))
        for path in spec.paths { w.string(path); w.identity(kernel.fileIdentity(path)) }
        w.string(freetypePath); w.identity(kernel.fileIdentity(freetypePath))
        w.i32(record.ascender); w.i32(record.descender)
        w.u32(UInt32(record.faceKerning.count))
        for k in record.faceKerning { w.i32(k) }
        w.u32(UInt32(record.scalars.count))
        for s in record.scalars { w.u32(s.scalar); w.u32(UInt32(s.face)); w.u32(s.index) }
        w.u32(UInt32(record.glyphs.count))
        for g in record.glyphs {
            w.u32(UInt32(g.faceIndex)); w.u32(g.glyphIndex)
            w.u32(UInt32(g.width)); w.u32(UInt32(g.height))
            w.i32(g.left); w.i32(g.top); w.i32(g.advance)
            w.bytes.append(contentsOf: g.coverage)
        }
        w.u32(UInt32(record.pairs.count))
        for p in record.pairs { w.u32(UInt32(p.face)); w.u32(p.left); w.u32(p.right); w.i32(p.pixels) }
        w.u32(magic)
        return w.bytes
    }

    /// The record in `bytes` if it is whole and was made for `spec` from the font files (and the
    /// FreeType) that are installed now; nil otherwise.
    static func decode(_ bytes: [UInt8], spec: FontSpec, kernel: any KernelFiles) -> GlyphCacheRecord? {
        var r = ByteReader(bytes: bytes)
        guard r.u32() == magic, r.u32() == version, r.u32() == UInt32(clamping: spec.pixelSize),
              r.u32() == UInt32(spec.paths.count) else { return nil }
        for (n, path) in spec.paths.enumerated() {
            guard r.string() == path, let id = r.identity(), id.isSame(as: kernel.fileIdentity(path) ?? Self.missing),
                  n > 0 || id != Self.missing else { return nil }
        }
        guard let freetype = r.string(), let ftID = r.identity(), let now = kernel.fileIdentity(freetype), ftID.isSame(as: now),
              let ascender = r.i32(), let descender = r.i32(), let faces = r.u32(), Int(faces) == spec.paths.count else { return nil }
        var faceKerning: [Int] = []
        for _ in 0..<faces {
            guard let k = r.i32(), (-1...1).contains(k) else { return nil }
            faceKerning.append(k)
        }
        guard let nScalars = r.u32(), nScalars <= 1 << 20 else { return nil }
        var scalars: [GlyphCacheRecord.ScalarEntry] = []
        for _ in 0..<nScalars {
            guard let s = r.u32(), let f = r.u32(), f < faces, let i = r.u32() else { return nil }
            scalars.append(.init(scalar: s, face: Int(f), index: i))
        }
        guard let nGlyphs = r.u32(), nGlyphs <= 1 << 20 else { return nil }
        var glyphs: [Glyph] = []
        for _ in 0..<nGlyphs {
            guard let f = r.u32(), f < faces, let index = r.u32(), let width = r.u32(), let height = r.u32(),
                  width <= 4096, height <= 4096, let left = r.i32(), let top = r.i32(), let advance = r.i32(),
                  let coverage = r.take(Int(width) * Int(height)) else { return nil }
            glyphs.append(Glyph(width: Int(width), height: Int(height), left: left, top: top, advance: advance,
                                coverage: coverage, glyphIndex: index, faceIndex: Int(f)))
        }
        guard let nPairs = r.u32(), nPairs <= 1 << 20 else { return nil }
        var pairs: [GlyphCacheRecord.PairEntry] = []
        for _ in 0..<nPairs {
            guard let f = r.u32(), f < faces, let left = r.u32(), let right = r.u32(), let px = r.i32() else { return nil }
            pairs.append(.init(face: Int(f), left: left, right: right, pixels: px))
        }
        guard r.u32() == magic, r.atEnd else { return nil }
        return GlyphCacheRecord(ascender: ascender, descender: descender, faceKerning: faceKerning,
                                scalars: scalars, glyphs: glyphs, pairs: pairs)
    }

    static let missing = FileIdentity(device: 0, inode: 0, size: 0, modified: 0)
}

private struct ByteWriter {
    var bytes: [UInt8] = []
    mutating func u32(_ v: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: v)); bytes.append(UInt8(truncatingIfNeeded: v >> 8))
        bytes.append(UInt8(truncatingIfNeeded: v >> 16)); bytes.append(UInt8(truncatingIfNeeded: v >> 24))
    }
    mutating func u64(_ v: UInt64) { u32(UInt32(truncatingIfNeeded: v)); u32(UInt32(truncatingIfNeeded: v >> 32)) }
    mutating func i32(_ v: Int) { u32(UInt32(bitPattern: Int32(clamping: v))) }
    mutating func string(_ s: String) { u32(UInt32(s.utf8.count)); bytes.append(contentsOf: s.utf8) }
    mutating func identity(_ id: FileIdentity?) {
        let id = id ?? GlyphCacheFile.missing
        u64(id.device); u64(id.inode); u64(id.size); u64(id.modified)
    }
}

private struct ByteReader {
    let bytes: [UInt8]
    var at = 0
    var atEnd: Bool { at == bytes.count }
    mutating func take(_ n: Int) -> [UInt8]? {
        guard n >= 0, n <= bytes.count - at else { return nil }
        defer { at += n }
        return Array(bytes[at..<at + n])
    }
    mutating func u32() -> UInt32? {
        guard bytes.count - at >= 4 else { return nil }
        defer { at += 4 }
        return UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
    mutating func u64() -> UInt64? {
        guard let lo = u32(), let hi = u32() else { return nil }
        return UInt64(lo) | UInt64(hi) << 32
    }
    mutating func i32() -> Int? { u32().map { Int(Int32(bitPattern: $0)) } }
    mutating func string() -> String? {
        guard let n = u32(), n <= 4096, let b = take(Int(n)) else { return nil }
        return String(decoding: b, as: UTF8.self)
    }
    mutating func identity() -> FileIdentity? {
        guard let d = u64(), let i = u64(), let s = u64(), let m = u64() else { return nil }
        return FileIdentity(device: d, inode: i, size: s, modified: m)
    }
}
