import CKioskEarlyFrame
import KioskCommands
import KioskDRM

// The early frame the C constructor showed (CKioskEarlyFrame, linked into kiosk-hud only), handed
// to the display commands (KioskCommands' `ShowCommand.takeEarlyFrame`) to continue.

/// The early frame, when the constructor put one on screen (then it is ours to continue or
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

/// Whether the constructor's frame is on screen (not yet continued or released).
func earlyFrameShown() -> Bool {
    !EarlyFrameTaken.done && kiosk_early_frame()!.pointee.state == Int32(KIOSK_EARLY_SHOWN.rawValue)
}

/// The frame cache's picture on `card`, which appeared after exec (the constructor found no card:
/// the initramfs's daemon): `EarlyFrame.show` with this process's arguments, a line when a
/// cache file was there but is not shown.
func showCachedFrame(on card: String) -> EarlyFrame? {
    switch EarlyFrame.show(arguments: CommandLine.arguments, on: card) {
    case let .shown(e):
        showLog("frame cache: shown on \(card) as it appeared")
        return e
    case .none: return nil
    case let .failed(file, why):
        showLog("frame cache: \(file) not shown on \(card): \(why)")
        return nil
    }
}

private enum EarlyFrameTaken { nonisolated(unsafe) static var done = false }

private func cString<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
}
