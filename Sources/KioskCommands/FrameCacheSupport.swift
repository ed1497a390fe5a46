import KioskBoards
import KioskDRM
import KioskRaster
import KioskSys
import KioskText

// `show`'s side of the frame cache: writing the cache after the first frame. (Taking over the
// early frame the C constructor showed is the executable's: `ShowCommand.takeEarlyFrame`.)

extension ShowCommand {
    /// The early frame the executable's C constructor put on screen, if any (nil: none, as in
    /// a process without that constructor). kiosk-hud sets it before running a command.
    nonisolated(unsafe) public static var takeEarlyFrame: () -> EarlyFrame? = { nil }

    /// After the first frame: keep it for the next start with these arguments (unless the file
    /// already holds this picture). Logs what it did.
    func saveFrameCache(_ screen: DRMScreen, fonts: FontLibrary) {
        guard let location = FrameCache.locate(CommandLine.arguments) else { return }
        let path = location.path
        let board = SettingOptions.chosen?.selection.files ?? []
        // The pictures' files too (the underlay, the logo from the command line or the board
        // file): a changed picture is a changed frame.
        let files = ["/proc/self/exe"] + board + [arguments.string(.underlay), arguments.string(.logo) ?? SettingOptions.chosen?.selection.profile.logo].compactMap { $0 } + fonts.fontFiles
        let previous = screen.earlyFrameUse == .takenOver ? screen.options.earlyFrame?.frameHash : nil
        switch FrameCache.save(screen: screen, at: location, files: files, previousHash: previous) {
        case .written: showLog("frame cache: written \(path)" + (previous != nil ? " (the picture differed from the cached one)" : ""))
        case .unchanged: break
        case let .skipped(why): showLog("frame cache: not written (\(why))")
        }
    }
}
