import CKioskSys
import Glibc
import KioskSeams
@testable import KioskDRM
import KioskFakeKernel
import KioskRaster
import KioskSys
import KioskTestSupport
import Foundation
import Testing

/// The frame cache: the file the Swift side writes after the first frame is what the C reader
/// (the early frame's constructor) accepts for exactly the same arguments and files, and only
/// then; the early frame on screen is continued (the next frame flips from it, quitting
/// restores what was there before it) or released without leaks.
@Suite struct FrameCacheTests {
    static let args = ["show", "--label", "Updating", "--mode", "annular"]

    /// A screen over the fake card showing one frame of `pic`.
    func shown(_ k: FakeKernel, rotation: Rotation = .none) throws -> (DRMScreen, DRMDisplay, Picture) {
        let s = try openScreen(k) { $0.rotation = rotation }
        let o = try #require(s.drmDisplays.first)
        let pic = try Picture(width: o.width, height: o.height)
        try o.present(pic.surface, damage: .whole)
        return (s, o, pic)
    }

    /// Checks `path` with the C reader for `args`: nil when accepted, else its reason.
    func check(_ path: String, _ args: [String], header: UnsafeMutablePointer<kiosk_frame_cache_header>? = nil) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return "cannot open" }
        defer { Glibc.close(fd) }
        var h = kiosk_frame_cache_header()
        var why = [CChar](repeating: 0, count: 200)
        let r = ([""] + args).withCArgv { argc, argv in kiosk_frame_cache_check(fd, argc, argv, &h, &why, why.count) }
        header?.pointee = h
        return r == 0 ? nil : String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A cache file's location for `args` (argv[1...]) at `path`.
    func at(_ path: String, _ args: [String]) -> FrameCache.Location {
        FrameCache.Location(path: path, arguments: args, key: ([""] + args).withCArgv { kiosk_frame_cache_key($0, $1) })
    }

    @Test(arguments: [Rotation.none, .quarter])
    func writtenFileIsAcceptedForTheSameArgumentsOnly(_ rotation: Rotation) throws {
        let dir = Proc.makeTempDir("kiosk-frame-cache")
        let font = dir + "/font.ttf"
        try replaceFile(font, with: [1, 2, 3])
        let k = FakeKernel.card()
        let (s, _, pic) = try shown(k, rotation: rotation)
        defer { withExtendedLifetime(pic) {} }   // the output keeps only a view of its picture
        let path = dir + "/frame.bin"
        #expect(FrameCache.save(screen: s, at: at(path, Self.args), files: ["/proc/self/exe", font], previousHash: nil) == .written)

        var h = kiosk_frame_cache_header()
        #expect(check(path, ["show", "--label", "Updating", "--mode", "annular"], header: &h) == nil)
        #expect(h.connector_id == 50 && h.crtc_id == 30 && h.width == 64 && h.height == 48 && h.bpp == 32)
        #expect(h.fourcc == KIOSK_DRM_FORMAT_XRGB8888 && ModeInfo(h.mode) == s.drmDisplays[0].mode)
        #expect(withUnsafeBytes(of: h.card) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) } == "/dev/dri/card0")
        // The frame is the scanout buffer's bytes (rotated as on the panel), row for row.
        let bytes = try readFileBytes(path, limit: 1 << 24)
        let frame = Array(bytes[(Int(h.header_size) + Int(h.args_size))...])
        #expect(frame.count == Int(h.frame_size))
        let d = try #require(k.scanout(30))
        for y in 0..<48 {
            let row = UnsafeRawBufferPointer(start: d.memory + y * d.pitch, count: 64 * 4)
            #expect(Array(frame[(y * Int(h.pitch))..<(y * Int(h.pitch) + 256)]) == Array(row), "row \(y)")
        }
        #expect(frame.withUnsafeBytes { kiosk_frame_hash($0.baseAddress, $0.count) } == h.frame_hash)

        // Anything else is refused, with the reason.
        #expect(check(path, ["show", "--label", "Updating", "--mode", "determinate"]) == "other arguments")
        #expect(check(path, ["show", "--label", "Updating"]) == "other arguments")
        #expect(check(path, ["show", "--label", "Updating", "--mode", "annular", "--retain"]) == "other arguments")
        // The same picture again: not rewritten.
        #expect(FrameCache.save(screen: s, at: at(path, Self.args), files: [font], previousHash: h.frame_hash) == .unchanged)
        s.close(retain: false)
        #expect(k.leaks.isEmpty)
    }

    @Test func changedGoneOrDamagedFilesAreRefused() throws {
        let dir = Proc.makeTempDir("kiosk-frame-cache")
        let font = dir + "/font.ttf"
        try replaceFile(font, with: [1, 2, 3])
        let k = FakeKernel.card()
        let (s, _, pic) = try shown(k)
        defer { s.close(retain: false); withExtendedLifetime(pic) {} }
        let path = dir + "/frame.bin"
        #expect(FrameCache.save(screen: s, at: at(path, Self.args), files: [font], previousHash: nil) == .written)
        #expect(check(path, Self.args) == nil)
        let good = try readFileBytes(path, limit: 1 << 24)

        try replaceFile(font, with: [1, 2, 3, 4])   // a font upgrade: another inode and size
        #expect(check(path, Self.args) == "\(font): changed")
        try removeFile(font)
        #expect(check(path, Self.args) == "\(font): gone")
        try replaceFile(font, with: [1, 2, 3])
        #expect(FrameCache.save(screen: s, at: at(path, Self.args), files: [font], previousHash: nil) == .written)
        #expect(check(path, Self.args) == nil)

        let now = try readFileBytes(path, limit: 1 << 24)
        try replaceFile(path, with: Array(now.dropLast(1)))
        #expect(check(path, Self.args) == "truncated")
        try replaceFile(path, with: Array(now.prefix(100)))
        #expect(check(path, Self.args) == "short file")
        var other = now
        other[8] &+= 1   // the version
        try replaceFile(path, with: other)
        #expect(check(path, Self.args) == "not a frame cache file of this version")
        // The card path is the only path the reader opens read/write: a DRM card only.
        var card = now
        let at = MemoryLayout<kiosk_frame_cache_header>.offset(of: \.card)!
        for (i, c) in "/etc/passwd\0".utf8.enumerated() { card[at + i] = c }
        try replaceFile(path, with: card)
        #expect(check(path, Self.args) == "bad card path")
        try replaceFile(path, with: [])
        #expect(check(path, Self.args) == "short file")
        _ = good
    }

    @Test func oldFramesArePruned() throws {
        let dir = Proc.makeTempDir("kiosk-frame-cache")
        let k = FakeKernel.card()
        let (s, _, pic) = try shown(k)
        defer { s.close(retain: false); withExtendedLifetime(pic) {} }
        for i in 0..<7 {
            #expect(FrameCache.save(screen: s, at: at(dir + "/frame-\(i).bin", ["show", "--label", "step \(i)"]),
                                    files: [], previousHash: nil) == .written)
        }
        let left = (listDirectory(dir) ?? []).filter { $0.hasPrefix("frame-") }.sorted()
        #expect(left.count == FrameCache.filesKept)
        #expect(left.contains("frame-6.bin"))
    }

    /// The file is written, and the old ones pruned, through the kernel `save` is given.
    @Test func writtenAndPrunedThroughTheGivenKernel() throws {
        let dir = Proc.makeTempDir("kiosk-frame-cache")
        let k = FakeKernel.card(), files = FakeKernel()
        let (s, _, pic) = try shown(k)
        defer { s.close(retain: false); withExtendedLifetime(pic) {} }
        for i in 0...FrameCache.filesKept {
            #expect(FrameCache.save(screen: s, at: at(dir + "/frame-\(i).bin", ["show", "--label", "step \(i)"]),
                                    files: [], previousHash: nil, kernel: files) == .written)
        }
        let last = dir + "/frame-\(FrameCache.filesKept).bin"
        #expect(files.calls.contains("mkdir -p \(dir)"), "\(files.calls)")
        #expect(files.calls.contains { $0.hasPrefix("rename \(last).") && $0.hasSuffix(" \(last)") }, "\(files.calls)")
        #expect(files.calls.contains("write"))
        let removed = files.calls.filter { $0.hasPrefix("unlink \(dir)/frame-") && $0.hasSuffix(".bin") }
        #expect(removed.count == 1, "\(files.calls)")
        #expect((listDirectory(dir) ?? []).filter { $0.hasPrefix("frame-") }.count == FrameCache.filesKept)
        #expect(!k.calls.contains("mkdir -p \(dir)"), "the card's kernel is not the files'")
    }

    @Test func cacheDirectoryFollowsTheOptions() {
        func dir(_ args: [String]) -> String? { FrameCache.cacheDirectory(["kiosk-hud"] + args) }
        #expect(dir(["show", "--glyph-cache", "/x/y"]) == "/x/y")
        #expect(dir(["show", "--glyph-cache=/x/z", "--label", "a"]) == "/x/z")
        #expect(dir(["show", "--glyph-cache", "none"]) == nil)
        #expect(dir(["run", "--", "cmd", "--glyph-cache", "/other"]) != "/other", "a child's arguments are not ours")
        var def = [CChar](repeating: 0, count: 256)
        if kiosk_default_cache_directory(&def, def.count) == 0 {
            #expect(dir(["show"]) == String(decoding: def.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }

    /// One rule, in C, says which command lines keep a first frame and which arguments count:
    /// show, daemon and run (on DRM, frame cache on); for run, the arguments before "--" only.
    @Test func everyCommandThatOwnsTheDisplayHasAFrame() throws {
        func where_(_ args: [String]) -> FrameCache.Location? { FrameCache.locate(["kiosk-hud"] + args) }
        let g = ["--glyph-cache", "/c"]
        for command in ["show", "daemon", "run"] {
            let l = try #require(where_([command] + g + ["--label", "x"]))
            #expect(l.arguments == [command] + g + ["--label", "x"])
            #expect(l.path == String(format: "/c/frame-%016llx.bin", l.key))
        }
        #expect(where_(["show"] + g)?.key != where_(["daemon"] + g)?.key)
        let a = try #require(where_(["run"] + g + ["--", "sh", "-c", "step 1"]))
        let b = try #require(where_(["run"] + g + ["--", "sh", "-c", "step 2"]))
        #expect(a == b && a.arguments == ["run"] + g, "one frame whatever the child is")
        let uncached: [[String]] = [["render"], ["show", "--offscreen", "-"], ["show", "--fbdev", "/dev/fb0"], ["show", "--help"],
                                    ["show", "--no-frame-cache"], ["touch"]].map { $0 + g }
        for none in uncached + [["show", "--glyph-cache", "none"], []] {
            #expect(where_(none) == nil, "\(none)")
        }
        // Run through a link named plymouth it is a client (`kiosk-hud plymouth`), whatever follows.
        #expect(FrameCache.locate(["/usr/bin/plymouth", "daemon"] + g) == nil)
        #expect(FrameCache.locate(["plymouth", "show"] + g) == nil)
    }

    // MARK: Taking over the early frame

    /// What the C constructor does, played on the fake card: a buffer with `pic`, lit on CRTC 30.
    /// The card is returned only to be kept alive (its deinit would close the descriptor that
    /// the screen takes over).
    func earlyFrame(_ k: FakeKernel, pic: Picture? = nil, width: Int = 64, height: Int = 48,
                    card: String = "/dev/dri/card0") throws -> (EarlyFrame, DRMCard) {
        let c = DRMCard(adopting: try k.open(card, flags: O_RDWR), path: card, kernel: k)
        try c.setMaster()
        let saved = try c.crtc(30)
        let info = try c.createDumb(width: width, height: height, bpp: 32)
        let memory = try c.map(offset: try c.mapDumbOffset(info.handle), length: info.size)
        if let pic {
            for y in 0..<height { (memory + y * info.pitch).copyMemory(from: pic.surface.row32(y), byteCount: width * 4) }
        }
        let fb = try c.addFramebuffer(width: width, height: height, fourcc: KIOSK_DRM_FORMAT_XRGB8888, handle: info.handle, pitch: info.pitch)
        let mode = ModeInfo(FakeKernel.mode(width, height, preferred: width == 64))
        try c.setCRTC(30, fb: fb, connectors: [50], mode: mode)
        let e = EarlyFrame(fd: c.fd, card: card, connectorID: 50, crtcID: 30, mode: mode, format: .xrgb8888, buffer: info,
                           fbID: fb, memory: memory, saved: saved, frameHash: 7, shownAt: 1.5)
        return (e, c)
    }

    @Test func continuedTheNextFrameFlipsAndQuittingRestoresTheConsole() throws {
        let k = FakeKernel.card()
        let pic = try Picture(width: 64, height: 48)
        let (e, c) = try earlyFrame(k, pic: pic)
        defer { withExtendedLifetime(c) {} }
        let setCRTCs = k.setCRTCs
        let s = try openScreen(k) { $0.earlyFrame = e; $0.checkScanout = true }
        #expect(s.earlyFrameUse == .continued)
        let o = try #require(s.drmDisplays.first)
        #expect(o.firstFrameTime == 1.5)
        #expect(s.card.fd == e.fd)
        // The first frame drawn goes into a new buffer by a flip: no SETCRTC, no black, nothing
        // written into the early frame's buffer while it is on screen.
        _ = pic.next()
        try o.present(pic.surface, damage: .whole)
        try settle(s)
        #expect(k.count("ioctl(DRM_IOCTL_MODE_PAGE_FLIP)") == 1 && k.setCRTCs == setCRTCs)
        #expect(scanoutShows(k, crtc: 30, pic.surface, rotation: .none))
        // The early buffer owes the whole picture: the next frame into it is exact.
        for _ in 0..<3 {
            try o.present(pic.surface, damage: .region(pic.next()))
            try settle(s)
            #expect(scanoutShows(k, crtc: 30, pic.surface, rotation: .none))
        }
        #expect(k.scanoutWrites == 0 && s.scanoutViolations == 0)
        s.close(retain: false)
        #expect(k.consoleRestored, "the CRTC did not get back what it showed before the early frame")
        #expect(k.leaks.isEmpty, "\(k.leaks)")
    }

    @Test func notInThePlanItIsReleasedAndTheConsoleComesBack() throws {
        let k = FakeKernel.card()
        let (e, c) = try earlyFrame(k, width: 32, height: 24)
        defer { withExtendedLifetime(c) {} }   // the screen will choose 64x48 (preferred)
        let s = try openScreen(k) { $0.earlyFrame = e }
        #expect(s.earlyFrameUse?.description.hasPrefix("released") == true)
        #expect(k.consoleRestored)
        #expect(k.dumbs.isEmpty)
        let o = try #require(s.drmDisplays.first)
        let pic = try Picture(width: o.width, height: o.height)
        try o.present(pic.surface, damage: .whole)
        #expect(scanoutShows(k, crtc: 30, pic.surface, rotation: .none))
        s.close(retain: false)
        #expect(k.leaks.isEmpty, "\(k.leaks)")
    }

    @Test func onAnotherCardThanAskedItIsReleased() throws {
        let k = FakeKernel.card()
        k.cardPaths = ["card0", "card1"]
        let (e, c) = try earlyFrame(k)
        defer { withExtendedLifetime(c) {} }
        let s = try openScreen(k) { $0.earlyFrame = e; $0.card = "/dev/dri/card1" }
        #expect(s.earlyFrameUse?.description.hasSuffix("not /dev/dri/card1") == true)
        #expect(k.consoleRestored)
        s.close(retain: false)
        #expect(k.leaks.isEmpty, "\(k.leaks)")
    }

    @Test func aFailingOpenReleasesTheEarlyFrame() throws {
        let k = FakeKernel.card()
        let (e, c) = try earlyFrame(k)
        defer { withExtendedLifetime(c) {} }
        k.failAt = (k.calls.count + 3, EIO)   // a call while planning
        #expect(throws: (any Error).self) { _ = try openScreen(k) { $0.earlyFrame = e } }
        #expect(k.consoleRestored)
        #expect(k.leaks.isEmpty, "\(k.leaks)")
    }

    // MARK: The C side (kiosk_early_frame_show) against the fake kernel

    // The card ops answered by the fake kernel: `FakeKernel.cardOps(reads:)` (KioskFakeKernel).

    /// `show` arguments with a new cache directory that holds the first frame of a picture (also
    /// returned) on the fake card, for those arguments.
    func cachedFrame() throws -> ([String], Picture) {
        let args = ["show", "--glyph-cache", Proc.makeTempDir("kiosk-early"), "--label", "Updating"]
        let pic = try Picture(width: 64, height: 48)
        try cacheWithFrame(args, pic: pic)
        return (args, pic)
    }

    func cacheWithFrame(_ args: [String], pic: Picture) throws {
        let k = FakeKernel.card()
        let s = try openScreen(k)
        try s.drmDisplays[0].present(pic.surface, damage: .whole)
        let location = try #require(FrameCache.locate(["kiosk-hud"] + args))
        #expect(FrameCache.save(screen: s, at: location, files: [], previousHash: nil) == .written)
        s.close(retain: false)
    }

    func runEarly(_ k: FakeKernel, _ args: [String], reads: CardMappingReads = .allowed) -> kiosk_early_frame {
        var early = kiosk_early_frame()
        var ops = k.cardOps(reads: reads)
        _ = ([""] + args).withCArgv { argc, argv in kiosk_early_frame_show(argc, argv, &ops, &early) }
        return early
    }

    func why(_ e: kiosk_early_frame) -> String { withUnsafeBytes(of: e.why) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) } }

    @Test func theCFrameIsShownThenTakenOver() throws {
        let (args, pic) = try cachedFrame()
        let k = FakeKernel.card()
        var early = runEarly(k, args)
        #expect(early.state == Int32(KIOSK_EARLY_SHOWN.rawValue), "\(why(early))")
        #expect(scanoutShows(k, crtc: 30, pic.surface, rotation: .none), "the cached frame is not on screen")
        #expect(k.setCRTCs == 1 && k.masterFD == early.fd)
        let e = try #require(EarlyFrame(taking: &early))
        #expect(EarlyFrame(taking: &early) == nil, "handed out twice")
        let s = try openScreen(k) { $0.earlyFrame = e }
        #expect(s.earlyFrameUse == .continued)
        let o = s.drmDisplays[0]
        try o.present(pic.surface, damage: .region(pic.next()))
        try settle(s)
        #expect(scanoutShows(k, crtc: 30, pic.surface, rotation: .none))
        #expect(k.count("ioctl(DRM_IOCTL_MODE_PAGE_FLIP)") == 1 && k.setCRTCs == 1)
        s.close(retain: false)
        #expect(k.consoleRestored && k.leaks.isEmpty, "\(k.leaks)")
    }

    /// A cache on 9p, NFS or FUSE cannot be read straight into the dumb buffer's mapping
    /// (EFAULT): the frame comes through an ordinary buffer instead, byte for byte, and is taken
    /// over as usual.
    @Test func aFilesystemThatRefusesTheMappingStillGivesTheFrame() throws {
        let (args, pic) = try cachedFrame()
        let k = FakeKernel.card()
        var early = runEarly(k, args, reads: .refused)
        #expect(early.state == Int32(KIOSK_EARLY_SHOWN.rawValue), "\(why(early))")
        var h = kiosk_frame_cache_header()
        let path = withUnsafeBytes(of: early.cache_path) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        #expect(check(path, args, header: &h) == nil)
        let file = try #require(Proc.readBytes(path))
        let at = Int(h.header_size) + Int(h.args_size), size = Int(h.frame_size)
        try #require(file.count == at + size && early.pitch == h.pitch && early.map != nil)
        let shown = Array(UnsafeRawBufferPointer(start: early.map, count: size))
        #expect(shown == Array(file[at...]), "the frame on screen is not the cached one")
        #expect(scanoutShows(k, crtc: 30, pic.surface, rotation: .none), "the cached frame is not on screen")
        let e = try #require(EarlyFrame(taking: &early))
        let s = try openScreen(k) { $0.earlyFrame = e }
        #expect(s.earlyFrameUse == .continued)
        s.close(retain: false)
        #expect(k.consoleRestored && k.leaks.isEmpty, "\(k.leaks)")
    }

    /// Each call the C side makes on the card fails once in turn: nothing is left (descriptor,
    /// master, buffer, mapping, framebuffer), the console stays, and the reason names the call.
    /// Only DIRTYFB may fail (drivers that do not need it say ENOSYS).
    @Test func everyFailingCallIsUndone() throws {
        let (args, _) = try cachedFrame()
        let clean = FakeKernel.card()
        var ok = runEarly(clean, args)
        #expect(ok.state == Int32(KIOSK_EARLY_SHOWN.rawValue))
        let calls = clean.calls
        #expect(calls.count >= 10, "\(calls)")
        if let e = EarlyFrame(taking: &ok) { let s = try openScreen(clean) { $0.earlyFrame = e }; s.close(retain: false) }
        for (i, call) in calls.enumerated() {
            let k = FakeKernel.card()
            k.failAt = (i, EIO)
            var early = runEarly(k, args)
            if call == "ioctl(DRM_IOCTL_MODE_DIRTYFB)" {
                #expect(early.state == Int32(KIOSK_EARLY_SHOWN.rawValue), "a failed DIRTYFB stopped it")
                if let e = EarlyFrame(taking: &early) { let s = try openScreen(k) { $0.earlyFrame = e }; s.close(retain: false) }
            } else {
                #expect(early.state == Int32(KIOSK_EARLY_FAILED.rawValue), "\(call) failed, yet: \(why(early))")
                #expect(why(early).contains(strerror(EIO).map { String(cString: $0) } ?? "?"), "\(call): \(why(early))")
                // "ioctl(DRM_IOCTL_MODE_ADDFB2)" → "ADDFB2", "open /dev/dri/card0" → "open".
                var short = call.hasPrefix("open ") ? "open" : call
                for p in ["ioctl(DRM_IOCTL_MODE_", "ioctl(DRM_IOCTL_"] where short.hasPrefix(p) { short = String(short.dropFirst(p.count).dropLast()); break }
                #expect(why(early).hasPrefix(short), "\(call): \(why(early))")
            }
            #expect(k.leaks.isEmpty, "\(call) failed: \(k.leaks)")
            #expect(k.consoleRestored, "\(call) failed: the console is not on screen")
        }
    }

    @Test func eintrIsRetried() throws {
        let (args, _) = try cachedFrame()
        let k = FakeKernel.card()
        k.eintrOnce = ["ioctl(DRM_IOCTL_SET_MASTER)", "ioctl(DRM_IOCTL_MODE_GETCONNECTOR)", "ioctl(DRM_IOCTL_MODE_CREATE_DUMB)",
                       "ioctl(DRM_IOCTL_MODE_ADDFB2)", "ioctl(DRM_IOCTL_MODE_SETCRTC)"]
        var early = runEarly(k, args)
        #expect(early.state == Int32(KIOSK_EARLY_SHOWN.rawValue), "\(why(early))")
        #expect(k.eintrOnce.isEmpty && k.count("ioctl(DRM_IOCTL_MODE_SETCRTC)") == 2)
        let e = try #require(EarlyFrame(taking: &early))
        let s = try openScreen(k) { $0.earlyFrame = e }
        s.close(retain: false)
        #expect(k.leaks.isEmpty, "\(k.leaks)")
    }

    @Test func aChangedDisplayIsNotShown() throws {
        let (args, _) = try cachedFrame()
        let gone = FakeKernel.card()
        gone.connectors[0].connected = false
        var e = runEarly(gone, args)
        #expect(e.state == Int32(KIOSK_EARLY_FAILED.rawValue) && why(e) == "connector 50 not connected")
        #expect(gone.leaks.isEmpty && gone.consoleRestored)
        let other = FakeKernel.card(modes: [(32, 24, true)])
        e = runEarly(other, args)
        #expect(e.state == Int32(KIOSK_EARLY_FAILED.rawValue) && why(e) == "connector 50: mode 64x48 gone")
        #expect(other.leaks.isEmpty && other.consoleRestored)
        // Other arguments: no file for them, nothing tried.
        let k = FakeKernel.card()
        e = runEarly(k, args + ["--retain"])
        #expect(e.state == Int32(KIOSK_EARLY_NONE.rawValue) && k.calls.isEmpty)
        e = runEarly(k, ["render"] + args.dropFirst())
        #expect(e.state == Int32(KIOSK_EARLY_NONE.rawValue) && k.calls.isEmpty)
    }
}
