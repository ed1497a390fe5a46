import CKioskEarlyFrame
import CKioskSys
import KioskBoards
import KioskDRM
import KioskRaster
import KioskSys
import KioskText

// `show`'s side of the frame cache: taking over the early frame the C constructor showed
// (CKioskEarlyFrame), and writing the cache after the first frame.

/// The early frame, when the constructor put one on screen (then it is ours to take over or
/// release); a log line when a cache file was there but could not be shown.
func takeEarlyFrame() -> EarlyFrame? {
    // Once: a display waited for (--wait-display) is opened again at each attempt.
    guard !EarlyFrameTaken.done else { return nil }
    EarlyFrameTaken.done = true
    let e = kiosk_early_frame()!
    if e.pointee.state == Int32(KIOSK_EARLY_FAILED.rawValue) {
        showLog("frame cache: \(cString(e.pointee.cache_path)) not shown: \(cString(e.pointee.why))")
    }
    return EarlyFrame(taking: e)
}

private enum EarlyFrameTaken { nonisolated(unsafe) static var done = false }

extension ShowCommand {
    /// After the first frame: keep it for the next start with these arguments (unless the file
    /// already holds this picture). Logs what it did.
    func saveFrameCache(_ screen: DRMScreen, fonts: FontLibrary) {
        guard let location = FrameCache.locate(CommandLine.arguments) else { return }
        let path = location.path
        let board = SettingOptions.chosen?.selection.files ?? []
        let files = ["/proc/self/exe"] + board + [arguments.string(.underlay)].compactMap { $0 } + fonts.fontFiles
        let previous = screen.earlyFrameUse == .takenOver ? screen.options.earlyFrame?.frameHash : nil
        switch FrameCache.save(screen: screen, at: location, files: files, previousHash: previous) {
        case .written: showLog("frame cache: written \(path)" + (previous != nil ? " (the picture differed from the cached one)" : ""))
        case .unchanged: break
        case let .skipped(why): showLog("frame cache: not written (\(why))")
        }
    }
}

private func cString<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
}
