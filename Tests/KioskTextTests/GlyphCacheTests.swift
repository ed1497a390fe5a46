import Glibc
import KioskSys
import KioskTestSupport
import KioskText
import Testing

/// The glyph cache: what one `FontLibrary` rendered, the next one lays out and draws the same
/// without FreeType; anything that no longer matches (font file, damaged file) is rendered
/// again, never shown wrong.
@Suite struct GlyphCacheTests {
    static let text = "Kiosk HUD: AVATAR Wavy 漢字 ÄÖÜ…"
    static let options = TextLayoutOptions(maxWidth: 120, maxLines: 0, kerning: true, wrap: true)

    /// Everything a drawing depends on: per line, each glyph's pen position, bitmap and placement.
    static func fingerprint(_ layout: TextLayout) -> [[String]] {
        layout.lines.map { line in
            line.glyphs.map { p in
                let g = p.glyph
                return "\(p.scalar.value)@\(p.penX) \(g.width)x\(g.height)+\(g.left)+\(g.top) a\(g.advance) f\(g.faceIndex) i\(g.glyphIndex) \(g.coverage.hashValue)"
            } + ["w\(line.width)"]
        } + [["h\(layout.height) a\(layout.ascender) l\(layout.lineHeight) t\(layout.truncated)"]]
    }

    @Test func aSecondLibraryLaysOutTheSameWithoutFreeType() throws {
        let dir = TempDir()
        let first = try FontLibrary(glyphCache: dir.path)
        let reference = Self.fingerprint(try first.font(pixelSize: 16).layout(Self.text, options: Self.options))
        #expect(first.usedFreeType)
        #expect(first.saveGlyphCache().isEmpty)
        #expect(dir.files().count == 1 && dir.files()[0].hasPrefix("glyphs-"), "\(dir.files())")

        let second = try FontLibrary(glyphCache: dir.path)
        let again = Self.fingerprint(try second.font(pixelSize: 16).layout(Self.text, options: Self.options))
        #expect(again == reference)
        #expect(!second.usedFreeType, "every glyph, the metrics and the kerning came from the cache")
        #expect(second.saveGlyphCache().isEmpty)
    }

    @Test func newCharactersLoadFreeTypeAndAreAddedToTheCache() throws {
        let dir = TempDir()
        let first = try FontLibrary(glyphCache: dir.path)
        _ = try first.font(pixelSize: 12).layout("abcabc")  // the glyphs and the pairs ab, bc, ca
        first.saveGlyphCache()

        let second = try FontLibrary(glyphCache: dir.path)
        let font = try second.font(pixelSize: 12)
        _ = font.layout("cab")
        #expect(!second.usedFreeType)
        let withNew = Self.fingerprint(font.layout("xyz abc", options: Self.options))
        #expect(second.usedFreeType)
        #expect(second.saveGlyphCache().isEmpty)

        let third = try FontLibrary(glyphCache: dir.path)
        #expect(Self.fingerprint(try third.font(pixelSize: 12).layout("xyz abc", options: Self.options)) == withNew)
        #expect(!third.usedFreeType)
        // Other sizes are other files.
        _ = try third.font(pixelSize: 13).layout("abc")
        #expect(third.usedFreeType)
    }

    @Test func aChangedFontFileIsRenderedAgain() throws {
        let dir = TempDir()
        let fontPath = dir.path + "/font.ttf"
        try copyFile(Fonts.bold, to: fontPath)
        let spec = FontSpec(paths: [fontPath], pixelSize: 16)
        let first = try FontLibrary(glyphCache: dir.path + "/cache")
        let reference = Self.fingerprint(try first.font(spec).layout("Changed"))
        first.saveGlyphCache()

        // Same bytes, new modification time: the identity differs, so FreeType renders again.
        var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, fontPath, &times, 0) == 0)
        let second = try FontLibrary(glyphCache: dir.path + "/cache")
        #expect(Self.fingerprint(try second.font(spec).layout("Changed")) == reference)
        #expect(second.usedFreeType)
    }

    /// The initramfs's copy of a font (the hook's `cp -p`: another inode, the same time; the
    /// cpio archive keeps whole seconds) is the same font: its glyphs come from the cache.
    @Test func aCopyOfTheFontWithItsTimeUsesTheCache() throws {
        let dir = TempDir()
        let fontPath = dir.path + "/font.ttf"
        try copyFile(Fonts.bold, to: fontPath)
        var times = [timespec(tv_sec: 1_700_000_000, tv_nsec: 250_000_000), timespec(tv_sec: 1_700_000_000, tv_nsec: 250_000_000)]
        #expect(utimensat(AT_FDCWD, fontPath, &times, 0) == 0)
        let spec = FontSpec(paths: [fontPath], pixelSize: 16)
        let first = try FontLibrary(glyphCache: dir.path + "/cache")
        let reference = Self.fingerprint(try first.font(spec).layout("Copied"))
        first.saveGlyphCache()

        #expect(unlink(fontPath) == 0)
        try copyFile(Fonts.bold, to: fontPath)
        times = [timespec(tv_sec: 1_700_000_000, tv_nsec: 0), timespec(tv_sec: 1_700_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, fontPath, &times, 0) == 0)
        let second = try FontLibrary(glyphCache: dir.path + "/cache")
        #expect(Self.fingerprint(try second.font(spec).layout("Copied")) == reference)
        #expect(!second.usedFreeType, "the copy's glyphs were rendered again")
    }

    @Test func aDamagedCacheFileIsIgnoredAndRewritten() throws {
        let dir = TempDir()
        let first = try FontLibrary(glyphCache: dir.path)
        let reference = Self.fingerprint(try first.font(pixelSize: 16).layout(Self.text, options: Self.options))
        first.saveGlyphCache()
        let file = dir.path + "/" + dir.files()[0]
        let whole = try readAll(file)
        for damaged in [Array(whole.prefix(whole.count / 2)), Array(whole.prefix(3)), [UInt8](repeating: 0x5a, count: 300), whole + [1]] {
            try writeAll(file, damaged)
            let library = try FontLibrary(glyphCache: dir.path)
            #expect(Self.fingerprint(try library.font(pixelSize: 16).layout(Self.text, options: Self.options)) == reference)
            #expect(library.usedFreeType, "a damaged file (\(damaged.count) bytes) must not be used")
            #expect(library.saveGlyphCache().isEmpty)
            #expect(try readAll(file) == whole, "rewritten whole")
        }
    }

    @Test func aCacheThatCannotBeWrittenIsReportedNotFatal() throws {
        let library = try FontLibrary(glyphCache: "/proc/kiosk-hud-no-such-dir/glyphs")
        let layout = try library.font(pixelSize: 16).layout("Still drawn")
        #expect(layout.width > 0)
        let problems = library.saveGlyphCache()
        #expect(problems.count == 1 && problems[0].contains("/proc/kiosk-hud-no-such-dir"), "\(problems)")
    }

    @Test func withoutADirectoryNothingIsWritten() throws {
        let library = try FontLibrary()
        _ = try library.font(pixelSize: 16).layout("No cache")
        #expect(library.glyphCacheDirectory == nil)
        #expect(library.saveGlyphCache().isEmpty)
    }
}

/// A fresh directory under /tmp, removed (with its files) when the test ends.
final class TempDir {
    let path = Proc.makeTempDir("kiosk-glyphs")
    deinit { _ = Proc.run(["rm", "-rf", path]) }

    /// The names in it, without replaceFile's temporary files.
    func files() -> [String] { (listDirectory(path) ?? []).filter { !$0.hasSuffix(".tmp") } }
}

func readAll(_ path: String) throws -> [UInt8] { try readFileBytes(path, limit: 64 << 20) }
func writeAll(_ path: String, _ bytes: [UInt8]) throws { try replaceFile(path, with: bytes) }
func copyFile(_ from: String, to: String) throws { try writeAll(to, try readAll(from)) }
