import KioskBoards
import KioskCLI
import KioskDaemon
import KioskDRM
import KioskOffscreen
import KioskRaster
import KioskSeams
import KioskSession
import KioskSys
import KioskText

/// `kiosk-hud frame-cache renew`: the kept first frames made this program's where it draws the
/// same picture (KioskDRM's FrameCacheRenewal.swift), so that the first boot after a package
/// upgrade that keeps the picture starts from the frame cache. The .deb's postinst runs it.
public enum FrameCacheCommand {
    static let cache = OptionSpec(.glyphCache, value: "DIR", rule: .path,
                                  help: "The cache directory (default: the one the display commands use, /var/cache/kiosk-hud when writable).")

    /// `kiosk-hud frame-cache`'s verbs, options, help and manual page.
    public static let spec = CommandSpec("frame-cache", abstract: "The first frames kept for the next start: renew them for this program.", subcommands: [
        CommandSpec("renew", abstract: "Make each kept first frame this program's where it draws the same picture (a package's postinst).",
                    discussion: """
                    A kept frame names the program that drew it, so a new kiosk-hud would draw its first frame \
                    again at the next start. This draws each kept frame's picture again, offscreen, from what the \
                    file records (the options, the mode, the format, the rotation, the scale) and compares it with \
                    the kept one: the same picture, and the file is this program's; another, and the file is \
                    removed (the next start draws and keeps the new one). A frame whose other files (board profile, \
                    pictures, fonts) changed is left alone, as is one of `run` (its first frame is its command's). \
                    One line a file. Exit 0 unless the cache directory cannot be read.
                    """, groups: [OptionGroup([cache])]),
    ])

    /// Runs `verb` (renew).
    public static func run(_ verb: String, _ a: ParsedArguments) throws {
        let argv = ["kiosk-hud", "show"] + (a.string(.glyphCache).map { ["--glyph-cache", $0] } ?? [])
        guard let directory = FrameCache.cacheDirectory(argv) else {
            writeLine("kiosk-hud: frame cache: turned off (--glyph-cache none)", to: 1)
            return
        }
        let kernel = LinuxKernel()
        guard let names = kernel.listDirectory(directory) else {
            if !kernel.fileExists(directory) { writeLine("kiosk-hud: frame cache: \(directory): none kept", to: 1); return }
            throw ShowError("\(directory): cannot be read")
        }
        for name in names.sorted() where FrameCache.isFrameFile(name) || FrameCache.isFrameFile(name, prefix: InitramfsFrame.prefix) {
            let path = directory + "/" + name
            guard let file = FrameCacheFile(path: path, kernel: kernel) else {
                writeLine("\(path): left (not a frame cache file of this version)", to: 1)
                continue
            }
            let outcome = FrameCache.renew(file, kernel: kernel) { file in try drawFirstFrame(file, cacheDirectory: directory) }
            writeLine("\(path): \(describe(outcome))", to: 1)
        }
    }

    static func describe(_ r: FrameCacheRenewal) -> String {
        switch r {
        case .current: "this program's already"
        case .renewed: "renewed (the same picture)"
        case let .removed(why): "removed (\(why))"
        case let .left(why): "left (\(why))"
        }
    }

    /// The first frame `file`'s arguments draw, at its size, format, rotation and scale: `show`'s
    /// and `daemon`'s, through the same settings and session configuration as their runs, on an
    /// offscreen display. Throws for other commands.
    static func drawFirstFrame(_ file: FrameCacheFile, cacheDirectory: String) throws -> Bitmap {
        guard let command = file.arguments.first, command == "show" || command == "daemon" else {
            throw ShowError("the first frame of `\(file.arguments.first ?? "?")` is not drawn here")
        }
        let spec = command == "show" ? ShowCommand.spec : DaemonCommand.spec
        guard case let .run(_, values) = try parseCommandLine(file.arguments, root: CommandSpec("kiosk-hud", abstract: "", subcommands: [spec])) else {
            throw ShowError("its options ask for help")
        }
        let size = file.pictureSize
        // A daemon started in a mode (the shutdown screens' units) shows that mode's content
        // from its first frame on, as its start puts it there (DaemonParts' startIn).
        let mode = command == "daemon" ? try DaemonParts.startMode(values) : nil
        return try ShowCommand(values, extras: nil).firstFramePicture(
            width: size.width, height: size.height, format: file.format, rotation: file.rotation, scale: file.scale, cacheDirectory: cacheDirectory,
            startMode: mode)
    }
}

extension OptionKey {
    /// The cache directory (`--glyph-cache`), as `frame-cache` reads it.
    static let glyphCache = OptionKey("glyph-cache")
}

extension ShowCommand {
    /// The first frame these options draw on a display of this size, format, rotation and
    /// scale — the settings, pictures and session configuration as `run` makes them, the session
    /// started on an offscreen display (`FrameCacheCommand`'s renewal).
    func firstFramePicture(width: Int, height: Int, format: PixelFormat, rotation: Rotation, scale: Double, cacheDirectory: String,
                           startMode: PlymouthMode? = nil) throws -> Bitmap {
        let a = arguments
        var settings = try SettingOptions.resolve(a)
        if let m = startMode {
            // As the daemon starts in it: the front end's fields with --plymouth, else the daemon's.
            for (key, value) in PlymouthSplash.startFields(m, plymouth: settings.profile.plymouth, quiet: a.flag(.plymouth)) {
                HUDSettings.table.setting(key: key)?.set(&settings, value)
            }
        }
        let (content, underlay) = try loadPictures(settings, underlayOption: a.written(.underlayImage))
        let logo = try loadLogo(settings)
        let fonts: FontLibrary
        do { fonts = try FontLibrary(glyphCache: cacheDirectory) } catch { throw ShowError("\(error)") }
        let display = try OffscreenDisplay(width: width, height: height, format: format, rotation: rotation, scale: scale)
        let screen = OffscreenScreen(display)
        // A loop the session can schedule on, never turned: the first frame is drawn by `start`.
        let runner = ScreenLoop.system()
        let configuration = sessionConfiguration(profile: settings.profile, content: content, underlay: underlay, logo: logo, scale: settings.profile.scale)
        let session = HUDSession(loop: runner.loop, screen: screen, fonts: fonts, clock: runner.clock, configuration: configuration, log: { _ in })
        try session.start()
        guard display.presentCount > 0 else { throw ShowError("nothing drawn") }
        // A copy: the display's picture goes with the display (and the session, left as it is,
        // draws nothing more on a loop never turned).
        let picture = try Bitmap(width: width, height: height, format: format)
        Canvas(picture.surface).copy(from: display.screen.surface)
        return picture
    }
}
