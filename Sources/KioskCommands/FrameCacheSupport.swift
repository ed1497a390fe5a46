import KioskBoards
import KioskCLI
import KioskSeams
import KioskDRM
import KioskRaster
import KioskSys
import KioskText

// `show`'s side of the frame cache: writing the cache after the first frame. (Taking the
// early frame the C constructor showed, to continue it, is the executable's: `ShowCommand.takeEarlyFrame`.)

extension ShowCommand {
    /// The early frame the executable's C constructor put on screen, if any (nil: none, as in
    /// a process without that constructor). kiosk-hud sets it before running a command.
    nonisolated(unsafe) public static var takeEarlyFrame: () -> EarlyFrame? = { nil }

    /// Whether the executable's C constructor put the frame cache's picture on screen (before
    /// `takeEarlyFrame` takes it to continue it). kiosk-hud sets it; false in a process without it.
    nonisolated(unsafe) public static var earlyFrameShown: () -> Bool = { false }

    /// The pictures' files, which count in the frame cache's key as the board file and the fonts
    /// do (a changed picture is a changed frame): the underlay picture (`--underlay-image`) and the logo
    /// (`--logo`, else the board file's `[style] logo`; an empty `--logo` is none).
    static func pictureFiles(_ a: ParsedArguments, board: BoardProfile?) -> [String] {
        let logo = a.given(.logo) ? a.string(.logo) : board?.logo
        let underlay = a.given(.underlayImage) ? a.string(.underlayImage) : board?.underlayImage
        return [underlay, logo].compactMap { $0 }.filter { !$0.isEmpty }
    }

    /// After the first frame: keep it for the next start with these arguments (unless the file
    /// already holds this picture). Logs what it did.
    func saveFrameCache(_ cache: FrameCacheSource, fonts: FontLibrary) {
        guard let location = FrameCache.locate(CommandLine.arguments) else { return }
        let path = location.path
        let board = SettingOptions.chosen?.selection.files ?? []
        // /etc/default/locale when it decides the words' language (no locale in the environment,
        // which the key holds) and is there: a changed file, a new first frame.
        let locale = Language.localeName(environment: environmentValue, localeFile: nil) == nil ? ["/etc/default/locale"] : []
        let files = ["/proc/self/exe"] + board + ShowCommand.pictureFiles(arguments, board: SettingOptions.chosen?.selection.profile)
            + fonts.fontFiles
        let previous = cache.earlyFrameHash
        switch cache.saveFrame(at: location, files: files, filesIfPresent: locale) {
        case .written: showLog("frame cache: written \(path)" + (previous != nil ? " (the picture differed from the cached one)" : ""))
        case .unchanged: break
        case let .skipped(why): showLog("frame cache: not written (\(why))")
        }
    }
}
