import CKioskEarlyFrame
import CKioskSys
import KioskDRM
import KioskRaster
import KioskSys
import KioskText

// `show`'s side of the frame cache: taking over the early frame the C constructor showed
// (CKioskEarlyFrame), and writing the cache after the first frame.

/// The cache directory when --glyph-cache is not given (the rule is the C reader's, so both
/// look in the same place): /var/cache/kiosk-hud when writable, else the user's cache directory.
func defaultCacheDirectory() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(KIOSK_FRAME_CACHE_PATH_MAX))
    guard kiosk_default_cache_directory(&buffer, buffer.count) == 0 else { return nil }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// The early frame, when the constructor put one on screen (then it is ours to take over or
/// release); a log line when a cache file was there but could not be shown.
func takeEarlyFrame() -> EarlyFrame? {
    let e = kiosk_early_frame()!
    if e.pointee.state == Int32(KIOSK_EARLY_FAILED.rawValue) {
        showLog("frame cache: \(cString(e.pointee.cache_path)) not shown: \(cString(e.pointee.why))")
    }
    return EarlyFrame(taking: e)
}

extension ShowCommand {
    /// After the first frame: keep it for the next start with these arguments (unless the file
    /// already holds this picture). Logs what it did.
    func saveFrameCache(_ screen: DRMScreen, fonts: FontLibrary) {
        guard !arguments.flag("no-frame-cache"), let dir = glyphCacheDirectory() else { return }
        let argv = Array(CommandLine.arguments.dropFirst())
        let path = dir + "/" + FrameCache.fileName(arguments: argv)
        let files = ["/proc/self/exe"] + [arguments.string("board"), arguments.string("underlay")].compactMap { $0 } + fonts.fontFiles
        let previous = screen.earlyFrameUse == .takenOver ? screen.options.earlyFrame?.frameHash : nil
        switch FrameCache.save(screen: screen, to: path, arguments: argv, files: files, previousHash: previous) {
        case .written: showLog("frame cache: written \(path)" + (previous != nil ? " (the picture differed from the cached one)" : ""))
        case .unchanged: break
        case let .skipped(why): showLog("frame cache: not written (\(why))")
        }
    }
}

private func cString<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
}
