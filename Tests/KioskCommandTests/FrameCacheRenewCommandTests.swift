import CKioskSys
@testable import KioskCommands
import KioskBoards
import KioskCLI
import KioskDRM
import KioskFakeKernel
import KioskPNG
import KioskRaster
import KioskSeams
import KioskSys
import KioskTestSupport
import Testing

/// `kiosk-hud frame-cache renew` on a frame a display command drew: the command's own first
/// frame (`firstFramePicture`, offscreen) put on a fake card and kept with the program's entry
/// changed as an upgrade changes it, then renewed by the real program; a kept frame that is not
/// that picture is removed.
@Suite struct FrameCacheRenewCommandTests {
    static let args = ["daemon", "--mode", "bar", "--label", "Starting up", "--scale", "1", "--board", "generic"]

    /// The frame `args` draw at 64x48, kept in `dir` as the card shows it, as another program's.
    func keep(_ args: [String], in dir: String, changed: Bool = false) throws -> String {
        let k = FakeKernel.card(modes: [(64, 48, true)])
        var o = DRMOptions()
        o.vt = false
        o.scale = 1
        let s = try DRMScreen(options: o, kernel: k)
        defer { s.close(retain: false) }
        guard case let .run(_, values) = try parseCommandLine(args, root: CommandSpec("kiosk-hud", abstract: "", subcommands: [DaemonCommand.spec])) else {
            throw ShowError("help")
        }
        let picture = try ShowCommand(values, extras: nil).firstFramePicture(width: 64, height: 48, format: .xrgb8888, rotation: .none, scale: 1, cacheDirectory: dir,
                                                                           startMode: try DaemonParts.startMode(values))
        let copy = try Bitmap(width: 64, height: 48, format: .xrgb8888)
        Canvas(copy.surface).copy(from: picture.surface)
        if changed { Canvas(copy.surface).fill(IntRect(x: 0, y: 0, width: 8, height: 8), .solid(.white)) }
        try s.drmDisplays[0].present(copy.surface, damage: .whole)
        let location = try #require(FrameCache.locate(["kiosk-hud"] + args + ["--glyph-cache", dir]))
        #expect(FrameCache.save(screen: s, at: location, files: ["/proc/self/exe"], previousHash: nil) == .written)
        var bytes = try readFileBytes(location.path, limit: 1 << 24)
        bytes[MemoryLayout<kiosk_frame_cache_header>.offset(of: \.files)! + MemoryLayout<kiosk_file_identity>.offset(of: \.build_id)!] ^= 0x5a
        try replaceFile(location.path, with: bytes)
        return location.path
    }

    /// Drawn twice, the same picture (the picture is the session's first frame, copied out before
    /// the display goes).
    @Test func theFirstFrameIsDrawnTheSameEachTime() throws {
        let dir = Proc.makeTempDir("kiosk-renew-twice")
        guard case let .run(_, values) = try parseCommandLine(Self.args, root: CommandSpec("kiosk-hud", abstract: "", subcommands: [DaemonCommand.spec])) else { return }
        let a = try ShowCommand(values, extras: nil).firstFramePicture(width: 64, height: 48, format: .xrgb8888, rotation: .none, scale: 1, cacheDirectory: dir)
        let b = try ShowCommand(values, extras: nil).firstFramePicture(width: 64, height: 48, format: .xrgb8888, rotation: .none, scale: 1, cacheDirectory: dir)
        var diff = 0
        for y in 0..<48 { for x in 0..<64 where a.surface.pixel(x: x, y: y) != b.surface.pixel(x: x, y: y) { diff += 1 } }
        #expect(diff == 0)
    }

    @Test func theProgramRenewsWhatItDrawsTheSameAndRemovesTheRest() throws {
        let dir = Proc.makeTempDir("kiosk-renew-command")
        let same = try keep(Self.args, in: dir)
        let other = try keep(Self.args + ["--progress", "0.5"], in: dir, changed: true)
        let r = Proc.run([Proc.kioskHUD, "frame-cache", "renew", "--glyph-cache", dir])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("\(same): renewed (the same picture)"), "\(r.out)\(r.err)")
        #expect(r.out.contains("\(other): removed (this program draws another picture)"), "\(r.out)\(r.err)")
        #expect(Proc.exists(same) && !Proc.exists(other))
    }

    /// A shutdown screen's daemon (`--plymouth-mode reboot`) starts with its mode's words: the
    /// picture renewal draws for it is the daemon's own first frame (`--offscreen`'s first.png),
    /// not the options' alone — without the mode, every upgrade removed the shutdown screens'
    /// kept frames and their next start drew.
    @Test func aDaemonStartedInAModeIsRenewedAsItDrawsItself() throws {
        let dir = Proc.makeTempDir("kiosk-renew-mode")
        let args = ["daemon", "--plymouth-mode", "reboot", "--scale", "1", "--board", "generic"]
        let r = Proc.run([Proc.kioskHUD] + args + ["--offscreen", dir, "--size", "160x120", "--socket", dir + "/c.sock", "--duration", "0.5",
                                                   "--glyph-cache", dir, "--no-input"])
        #expect(r.status == 0, "\(r.err)")
        let first = try PNG.read(path: dir + "/first.png")
        guard case let .run(_, values) = try parseCommandLine(args, root: CommandSpec("kiosk-hud", abstract: "", subcommands: [DaemonCommand.spec])) else { return }
        func drawn(_ mode: PlymouthMode?) throws -> [UInt8] {
            try ShowCommand(values, extras: nil).firstFramePicture(width: 160, height: 120, format: .xrgb8888, rotation: .none, scale: 1, cacheDirectory: dir,
                                                                   startMode: mode).rgbaBytes()
        }
        #expect(try drawn(.reboot) == first.rgba, "renewal's picture of a reboot screen is not the daemon's first frame")
        #expect(try drawn(nil) != first.rgba, "the mode changes nothing here: the test proves nothing")
        // And through the program: kept, renewed.
        let kept = try keep(args, in: dir)
        let renew = Proc.run([Proc.kioskHUD, "frame-cache", "renew", "--glyph-cache", dir])
        #expect(renew.out.contains("\(kept): renewed (the same picture)"), "\(renew.out)\(renew.err)")
    }
}
