// The logo picture is read as the other pictures are: within the canvas's limit, and refused in
// one line naming --logo, the file and why when it is too large to be.
import Glibc
import KioskBoards
import KioskCLI
@testable import KioskCommands
import KioskRaster
import KioskTestSupport
import Testing

@Suite struct ThemePictureTests {
    /// A 30000x30000 header (no pixels behind it): more than any read may do.
    static func hugeLogo(interlaced: Bool) -> [UInt8] {
        PNGForge.file(width: 30000, height: 30000, bitDepth: 1, colorType: 0, interlaced: interlaced,
                      idat: PNGForge.zlibStored([UInt8](repeating: 0, count: 2 * (1 + 30000 / 8))))
    }

    @Test func anOversizedLogoIsRefusedInOneLine() throws {
        let s = Scratch()
        let path = s.write("huge-logo.png", Self.hugeLogo(interlaced: true))
        var settings = HUDSettings.defaults
        settings.profile.logo = path
        let error = caught(PictureError.self) { _ = try loadLogo(settings) }
        let text = try #require(error?.description)
        #expect(text.hasPrefix("--logo "))
        #expect(text.contains("30000x30000"))
        #expect(!text.contains("\n"))
    }

    /// A logo larger than twice the canvas (but not too large to stream) is scaled down while
    /// read, as the underlay is: never more than the canvas's limit in memory.
    @Test func aLargeLogoIsReadWithinTheCanvasLimit() throws {
        let s = Scratch()
        let big = try Bitmap(width: 2400, height: 600, format: .argb8888)
        let path = s.path("big-logo.png")
        try writePNG(big, to: path)
        var settings = HUDSettings.defaults
        settings.profile.width = 320; settings.profile.height = 240
        let read = try loadLogo(settings.with(logo: path))
        let logo = try #require(read)
        #expect(logo.width <= 640 && logo.height <= 480)
    }

    @Test func noLogoIsNone() throws {
        let none = try loadLogo(HUDSettings.defaults)
        #expect(none == nil)
    }
}

private extension HUDSettings {
    func with(logo: String) -> HUDSettings { var s = self; s.profile.logo = logo; return s }
}

/// A temporary directory for this suite's files, removed with it.
private final class Scratch {
    let dir = Proc.makeTempDir("kiosk-theme")
    deinit { _ = Proc.run(["rm", "-rf", dir]) }
    func path(_ name: String) -> String { dir + "/" + name }
    func write(_ name: String, _ bytes: [UInt8]) -> String {
        let p = path(name)
        if let f = fopen(p, "wb") { _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, f) }; fclose(f) }
        return p
    }
}

/// The logo's file counts in the frame cache's key as the underlay's does: from --logo, else the
/// board file's; an empty --logo is none.
@Suite struct ThemeFrameCacheTests {
    static func parsed(_ args: [String]) throws -> ParsedArguments {
        let root = CommandSpec("kiosk-hud", abstract: KioskHUDCommandLine.abstract, subcommands: [ShowCommand.spec])
        guard case let .run(_, values) = try parseCommandLine(args, root: root) else { throw ShowError("not a run: \(args)") }
        return values
    }

    @Test func thePicturesCountInTheFrameCachesKey() throws {
        var board = BoardProfile()
        board.logo = "/boards/logo.png"
        let both = try Self.parsed(["show", "--underlay", "/u.png", "--logo", "/l.png"])
        #expect(ShowCommand.pictureFiles(both, board: board) == ["/u.png", "/l.png"])
        let fromBoard = try Self.parsed(["show", "--underlay", "/u.png"])
        #expect(ShowCommand.pictureFiles(fromBoard, board: board) == ["/u.png", "/boards/logo.png"])
        let cleared = try Self.parsed(["show", "--logo", ""])
        #expect(ShowCommand.pictureFiles(cleared, board: board).isEmpty)
        #expect(ShowCommand.pictureFiles(fromBoard, board: nil) == ["/u.png"])
    }
}
