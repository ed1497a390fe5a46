import CKioskSys
import Glibc
import KioskSeams
@testable import KioskDRM
import KioskFakeKernel
import KioskRaster
import KioskSys
import KioskTestSupport
import Testing

/// The frame cache across a package upgrade (FrameCacheRenewal.swift): a frame another program
/// drew becomes this program's when this program draws the same picture, and goes when it draws
/// another; one whose other files changed is left alone. "Another program" is this one's entry
/// in the file changed as an upgrade changes it (its build ID and time).
@Suite struct FrameCacheRenewalTests {
    static let args = ["show", "--label", "Updating"]

    /// A cache file at `path` with the fake card's first frame of `pic` (rotated by `rotation`),
    /// drawn from `files`; the program's entry (the first) made another program's when `upgraded`.
    func write(_ path: String, _ pic: Picture, rotation: Rotation = .none, files: [String], upgraded: Bool) throws {
        let k = FakeKernel.card()
        let s = try openScreen(k) { $0.rotation = rotation; $0.scale = 1.5 }
        defer { s.close(retain: false) }
        try s.drmDisplays[0].present(pic.surface, damage: .whole)
        let key = ([""] + Self.args).withCArgv { kiosk_frame_cache_key($0, $1) }
        #expect(FrameCache.save(screen: s, at: FrameCache.Location(path: path, arguments: Self.args, key: key), files: files, previousHash: nil) == .written)
        guard upgraded else { return }
        var bytes = try readFileBytes(path, limit: 1 << 24)
        let offset = MemoryLayout<kiosk_frame_cache_header>.offset(of: \.files)! + MemoryLayout<kiosk_file_identity>.offset(of: \.build_id)!
        bytes[offset] ^= 0x5a   // another build
        try replaceFile(path, with: bytes)
    }

    /// The C reader's verdict for `Self.args` (nil: it would be shown).
    func check(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        defer { Glibc.close(fd) }
        var h = kiosk_frame_cache_header()
        var why = [CChar](repeating: 0, count: 200)
        let r = ([""] + Self.args).withCArgv { argc, argv in kiosk_frame_cache_check(fd, argc, argv, &h, &why, why.count) }
        return r == 0 ? nil : String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test(arguments: [Rotation.none, .quarter])
    func theSamePictureMakesTheFrameThisProgramsAnotherRemovesIt(_ rotation: Rotation) throws {
        let dir = Proc.makeTempDir("kiosk-renew")
        let path = dir + "/frame-1.bin"
        let pic = try Picture(width: rotation == .quarter ? 48 : 64, height: rotation == .quarter ? 64 : 48)
        try write(path, pic, rotation: rotation, files: ["/proc/self/exe"], upgraded: true)
        #expect(check(path) == "/proc/self/exe: changed")
        let file = try #require(FrameCacheFile(path: path, kernel: LinuxKernel()))
        #expect(file.arguments == Self.args && file.rotation == rotation && file.scale == 1.5 && file.format == .xrgb8888)
        #expect(file.pictureSize == (pic.surface.width, pic.surface.height))

        var asked: [String] = []
        let same = FrameCache.renew(file, kernel: LinuxKernel()) { f in asked = f.arguments; return pic.bitmap }
        #expect(same == .renewed && asked == Self.args)
        #expect(check(path) == nil, "the renewed file is refused")
        #expect(FrameCache.renew(try #require(FrameCacheFile(path: path, kernel: LinuxKernel())), kernel: LinuxKernel()) { _ in
            Issue.record("drawn for a file that is this program's already"); return pic.bitmap
        } == .current)

        // The next upgrade draws another picture: the file goes.
        try write(path, pic, rotation: rotation, files: ["/proc/self/exe"], upgraded: true)
        let other = try Picture(width: pic.surface.width, height: pic.surface.height)
        _ = other.next()
        guard case .removed = FrameCache.renew(try #require(FrameCacheFile(path: path, kernel: LinuxKernel())), kernel: LinuxKernel(), draw: { _ in other.bitmap }) else {
            Issue.record("another picture kept"); return
        }
        #expect(!LinuxKernel().fileExists(path))
    }

    @Test func aFrameWhoseOtherFilesChangedIsLeftAlone() throws {
        let dir = Proc.makeTempDir("kiosk-renew")
        let path = dir + "/frame-1.bin", logo = dir + "/logo.png"
        try replaceFile(logo, with: [1, 2, 3])
        let pic = try Picture(width: 64, height: 48)
        try write(path, pic, files: ["/proc/self/exe", logo], upgraded: true)
        try replaceFile(logo, with: [1, 2, 3, 4])
        let file = try #require(FrameCacheFile(path: path, kernel: LinuxKernel()))
        #expect(FrameCache.renew(file, kernel: LinuxKernel()) { _ in Issue.record("drawn"); return pic.bitmap } == .left("\(logo) changed"))
        try removeFile(logo)
        #expect(FrameCache.renew(file, kernel: LinuxKernel()) { _ in pic.bitmap } == .left("\(logo) is gone"))
        #expect(LinuxKernel().fileExists(path))
        // A picture that cannot be drawn, or at another size: left.
        try replaceFile(logo, with: [1, 2, 3])
        try write(path, pic, files: ["/proc/self/exe"], upgraded: true)
        struct Refused: Error, CustomStringConvertible { var description: String { "cannot draw" } }
        let again = try #require(FrameCacheFile(path: path, kernel: LinuxKernel()))
        #expect(FrameCache.renew(again, kernel: LinuxKernel()) { _ in throw Refused() } == .left("cannot draw"))
        let small = try Picture(width: 32, height: 24)
        #expect(FrameCache.renew(again, kernel: LinuxKernel()) { _ in small.bitmap } == .left("drawn at 32x24, not 64x48"))
        #expect(check(path) == "/proc/self/exe: changed")
    }

    @Test func whatIsNotAFrameCacheFileIsNotRead() throws {
        let dir = Proc.makeTempDir("kiosk-renew")
        try replaceFile(dir + "/frame-2.bin", with: Array("KHFRAME but not one".utf8))
        #expect(FrameCacheFile(path: dir + "/frame-2.bin", kernel: LinuxKernel()) == nil)
        #expect(FrameCacheFile(path: dir + "/none.bin", kernel: LinuxKernel()) == nil)
    }
}
