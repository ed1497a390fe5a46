// What the README's LongTask example takes from the one before it (the loop and the session)
// and from its reader (the worker doing the long operation).
import KioskTestDoubles
import KioskHUD
import KioskSession
import KioskSys
import KioskText

/// The reader's long operation: reports progress, stops when asked, says how it ended.
final class Worker {
    var onProgress: (Double) -> Void = { _ in }
    var onFinish: (Bool) -> Void = { _ in }
    func stop() {}
}

@MainActor let clock = SystemClock()
@MainActor let loop = PollEventLoop(clock: clock)
@MainActor let session = makeSession()
@MainActor let worker = Worker()

@MainActor func makeSession() -> HUDSession {
    do {
        let screen = OffscreenScreen(try OffscreenDisplay(width: 800, height: 480))
        return try HUDSession(loop: loop, screen: screen, fonts: FontLibrary(), clock: clock,
                              configuration: SessionConfiguration(content: HUDContent(mode: .indeterminate, label: "Working…")))
    } catch {
        fatalError("\(error)")
    }
}
