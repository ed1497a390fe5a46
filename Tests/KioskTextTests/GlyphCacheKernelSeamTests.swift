// The glyph cache file is written, and the font files looked at, through the `Kernel` the
// library was given: a fake kernel sees (and can fail) each call.
import Glibc
import KioskFakeKernel
import KioskSys
import KioskText
import Testing

@Suite struct GlyphCacheKernelSeamTests {
    @Test func theCacheFileIsWrittenThroughTheGivenKernel() throws {
        let dir = TempDir()
        let k = FakeKernel()
        let library = try FontLibrary(glyphCache: dir.path, kernel: k)
        _ = try library.font(pixelSize: 12).layout("abc")
        let opened = library.fontFiles.filter { k.calls.contains("stat \($0)") }
        #expect(!opened.isEmpty, "the font file FreeType opened was looked at through the kernel: \(k.calls)")
        let before = k.calls.count
        #expect(library.saveGlyphCache().isEmpty)
        let name = try #require(dir.files().first)
        let saved = Array(k.calls[before...])
        #expect(saved.first == "mkdir -p \(dir.path)", "\(saved)")
        #expect(saved.contains("write"), "\(saved)")
        #expect(saved.contains { $0.hasPrefix("rename ") && $0.hasSuffix(" \(dir.path)/\(name)") }, "\(saved)")
    }

    @Test func aFailureOfTheKernelIsReportedAndNothingIsWritten() throws {
        let dir = TempDir()
        let k = FakeKernel()
        let library = try FontLibrary(glyphCache: dir.path, kernel: k)
        _ = try library.font(pixelSize: 12).layout("abc")
        k.failAt = (k.calls.count, EACCES)   // the mkdir -p
        let problems = library.saveGlyphCache()
        #expect(problems.count == 1 && problems.first?.hasPrefix("glyph cache \(dir.path)") == true, "\(problems)")
        #expect(dir.files().isEmpty)
    }
}
