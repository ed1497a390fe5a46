import CKioskSys
import Glibc
import KioskSeams
@testable import KioskDRM
import KioskFakeKernel
import KioskRaster
import KioskSys
import KioskTestSupport
import Testing

/// The files a cached frame was drawn from are matched by size, time and ELF build ID, not by
/// inode: the initramfs's copies of them (the hook's `cp -p`, unpacked from a cpio archive that
/// keeps whole seconds) are the same files; another program of the same size and time is not.
/// And the cached frame is put on a card that appeared after exec (the initramfs's daemon).
@Suite struct FrameCacheIdentityTests {
    static let args = ["show", "--label", "Updating"]

    /// A frame on the fake card written to `path` for `Self.args`, drawn from `files`.
    func write(_ path: String, files: [String]) throws {
        let k = FakeKernel.card()
        let s = try openScreen(k)
        defer { s.close(retain: false) }
        let pic = try Picture(width: 64, height: 48)
        try s.drmDisplays[0].present(pic.surface, damage: .whole)
        let key = ([""] + Self.args).withCArgv { kiosk_frame_cache_key($0, $1) }
        let location = FrameCache.Location(path: path, arguments: Self.args, key: key)
        #expect(FrameCache.save(screen: s, at: location, files: files, previousHash: nil) == .written)
        withExtendedLifetime(pic) {}
    }

    /// The C reader's verdict on `path` for `Self.args`: nil when accepted.
    func check(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return "cannot open" }
        defer { Glibc.close(fd) }
        var h = kiosk_frame_cache_header()
        var why = [CChar](repeating: 0, count: 200)
        let r = ([""] + Self.args).withCArgv { argc, argv in kiosk_frame_cache_check(fd, argc, argv, &h, &why, why.count) }
        return r == 0 ? nil : String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Sets `path`'s modification time (seconds, nanoseconds).
    func setTime(_ path: String, _ seconds: Int, _ nanoseconds: Int) {
        var times = [timespec(tv_sec: seconds, tv_nsec: nanoseconds), timespec(tv_sec: seconds, tv_nsec: nanoseconds)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    }

    /// The file replaced by a copy of it: another inode, the same bytes.
    func replaceWithCopy(_ path: String) throws {
        let bytes = try readFileBytes(path, limit: 1 << 20)
        try removeFile(path)
        try replaceFile(path, with: bytes)
    }

    @Test func aCopyWithItsTimeIsTheSameFileEvenInWholeSeconds() throws {
        let dir = Proc.makeTempDir("kiosk-frame-identity")
        let logo = dir + "/logo.png", frame = dir + "/frame.bin"
        try replaceFile(logo, with: Array(repeating: 7, count: 100))
        setTime(logo, 1_700_000_000, 123_456_789)
        try write(frame, files: [logo])
        #expect(check(frame) == nil)

        // The hook's `cp -p`: another inode, the same time.
        try replaceWithCopy(logo)
        setTime(logo, 1_700_000_000, 123_456_789)
        #expect(check(frame) == nil, "a copy with its time is refused")
        // Unpacked from the initramfs's cpio archive: whole seconds.
        setTime(logo, 1_700_000_000, 0)
        #expect(check(frame) == nil, "the cpio archive's whole seconds are refused")
        // Both sides with nanoseconds that differ: another write.
        setTime(logo, 1_700_000_000, 5)
        #expect(check(frame) == "\(logo): changed")
        // Another second, or another size.
        setTime(logo, 1_700_000_001, 123_456_789)
        #expect(check(frame) == "\(logo): changed")
        try replaceFile(logo, with: Array(repeating: 7, count: 101))
        setTime(logo, 1_700_000_000, 123_456_789)
        #expect(check(frame) == "\(logo): changed")

        // Written where the time has whole seconds (the initramfs), read where it has more.
        try replaceFile(logo, with: Array(repeating: 7, count: 100))
        setTime(logo, 1_700_000_000, 0)
        try write(frame, files: [logo])
        setTime(logo, 1_700_000_000, 999)
        #expect(check(frame) == nil)
    }

    /// An ELF file with a GNU build ID note: 64-bit little-endian or 32-bit big-endian, `id`'s
    /// bytes as the note's, padded to `size` bytes.
    static func elf(id: [UInt8], wide: Bool, size: Int = 400) -> [UInt8] {
        var b = [UInt8](repeating: 0, count: size)
        func put(_ v: Int, at: Int, _ n: Int) {
            for i in 0..<n { b[at + (wide ? i : n - 1 - i)] = UInt8((v >> (8 * i)) & 0xff) }
        }
        b[0] = 0x7f; b[1] = 0x45; b[2] = 0x4c; b[3] = 0x46
        b[4] = wide ? 2 : 1; b[5] = wide ? 1 : 2; b[6] = 1
        let (phoff, phent) = wide ? (64, 56) : (52, 32)
        let note = phoff + phent
        if wide {
            put(phoff, at: 32, 8); put(phent, at: 54, 2); put(1, at: 56, 2)
            put(4, at: phoff, 4); put(note, at: phoff + 8, 8); put(16 + id.count, at: phoff + 32, 8)
        } else {
            put(phoff, at: 28, 4); put(phent, at: 42, 2); put(1, at: 44, 2)
            put(4, at: phoff, 4); put(note, at: phoff + 4, 4); put(16 + id.count, at: phoff + 16, 4)
        }
        put(4, at: note, 4); put(id.count, at: note + 4, 4); put(3, at: note + 8, 4)
        b[note + 12] = 0x47; b[note + 13] = 0x4e; b[note + 14] = 0x55
        for (i, v) in id.enumerated() { b[note + 16 + i] = v }
        return b
    }

    func buildID(_ path: String) -> UInt64 {
        let fd = open(path, O_RDONLY)
        defer { Glibc.close(fd) }
        return kiosk_elf_build_id(fd)
    }

    @Test(arguments: [true, false])
    func programsOfTheSameSizeAndTimeAreToldApartByTheirBuildID(_ wide: Bool) throws {
        let dir = Proc.makeTempDir("kiosk-frame-identity")
        let program = dir + "/kiosk-hud", frame = dir + "/frame.bin"
        try replaceFile(program, with: Self.elf(id: Array(1...20), wide: wide))
        setTime(program, 1_700_000_000, 0)
        #expect(buildID(program) != 0)
        try write(frame, files: [program])
        #expect(check(frame) == nil)
        // A rebuild: the same size and (a reproducible build's) time, other code.
        try replaceFile(program, with: Self.elf(id: Array(2...21), wide: wide))
        setTime(program, 1_700_000_000, 0)
        #expect(check(frame) == "\(program): changed")
    }

    @Test func theBuildIDOfThisProgramAndOfFilesThatAreNotPrograms() throws {
        let dir = Proc.makeTempDir("kiosk-frame-identity")
        #expect(buildID("/proc/self/exe") != 0, "swift build links with --build-id")
        try replaceFile(dir + "/text", with: Array("not a program\n".utf8))
        try replaceFile(dir + "/short", with: [0x7f, 0x45, 0x4c, 0x46])
        try replaceFile(dir + "/noted", with: Self.elf(id: [], wide: true))
        #expect(buildID(dir + "/text") == 0 && buildID(dir + "/short") == 0 && buildID(dir + "/noted") == 0)
    }

    // MARK: The cached frame on a card that appeared after exec

    /// `show` arguments whose cache directory holds the first frame of `pic` on the fake card.
    func cached(_ pic: Picture) throws -> [String] {
        let args = ["kiosk-hud", "show", "--glyph-cache", Proc.makeTempDir("kiosk-appeared"), "--label", "Updating"]
        let k = FakeKernel.card()
        let s = try openScreen(k)
        try s.drmDisplays[0].present(pic.surface, damage: .whole)
        let location = try #require(FrameCache.locate(args))
        #expect(FrameCache.save(screen: s, at: location, files: [], previousHash: nil) == .written)
        s.close(retain: false)
        return args
    }

    @Test func shownOnTheCardItWasDrawnOnThenContinued() throws {
        let pic = try Picture(width: 64, height: 48)
        let args = try cached(pic)
        let k = FakeKernel.card()
        guard case let .shown(e) = EarlyFrame.show(arguments: args, on: "/dev/dri/card0", ops: k.cardOps()) else {
            Issue.record("not shown"); return
        }
        #expect(scanoutShows(k, crtc: 30, pic.surface, rotation: .none) && k.setCRTCs == 1)
        let s = try openScreen(k) { $0.earlyFrame = e }
        #expect(s.earlyFrameUse == .continued)
        s.close(retain: false)
        #expect(k.consoleRestored && k.leaks.isEmpty, "\(k.leaks)")
    }

    @Test func aFrameForAnotherCardIsLeftAloneAndThatCardUntouched() throws {
        let pic = try Picture(width: 64, height: 48)
        let args = try cached(pic)
        let k = FakeKernel.card()
        let result = EarlyFrame.show(arguments: args, on: "/dev/dri/card1", ops: k.cardOps())
        guard case let .failed(file, why) = result else { Issue.record("not refused: \(result)"); return }
        #expect(file.hasSuffix(".bin") && why == "the frame is for /dev/dri/card0, not /dev/dri/card1")
        #expect(k.setCRTCs == 0 && k.count("open /dev/dri/card0") == 0 && k.leaks.isEmpty)
        // No file for other arguments: nothing to say.
        if case .none = EarlyFrame.show(arguments: args + ["--progress", "0.5"], on: "/dev/dri/card0", ops: k.cardOps()) {} else {
            Issue.record("a frame for other arguments")
        }
        withExtendedLifetime(pic) {}
    }
}
