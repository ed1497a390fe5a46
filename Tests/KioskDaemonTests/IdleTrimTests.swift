import KioskBoards
import KioskDaemon
import KioskTestDoubles
import KioskHUD
import KioskProtocol
import KioskSession
import KioskSettings
@testable import KioskText
import Testing

/// The daemon gives memory back once it has been idle for `Daemon.idleBeforeGivingBackMemory`:
/// after a burst of requests, however long, never within it.
@Suite struct IdleTrimTests {
    static func request(_ line: String) throws -> DaemonRequest {
        guard case let .object(o) = try JSON.parse(Array(line.utf8)) else {
            throw RequestError("not an object")
        }
        return try DaemonRequest(o)
    }

    /// A daemon on a manual clock, its labels 200 px (so a few glyphs pass the idle budget), two
    /// seconds after it started.
    static func daemonWithLargeLabels() throws -> (ManualClock, EmbeddedEventLoop, FontLibrary, Daemon) {
        let clock = ManualClock()
        let loop = EmbeddedEventLoop(clock: clock)
        let display = try OffscreenDisplay(width: 240, height: 160)
        let fonts = try FontLibrary()
        let session = HUDSession(loop: loop, screen: OffscreenScreen(display), fonts: fonts, clock: clock,
                                 configuration: SessionConfiguration(content: HUDContent(mode: .annular, label: "Booting")))
        let daemon = Daemon(session: session, settings: HUDSettings.defaults) { _ in throw RequestError("no pictures here") }
        daemon.onQuit = { _ in }
        try session.start()
        _ = try daemon.handle(try Self.request("{\"v\":1,\"op\":\"style\",\"label_size\":200}"))
        loop.advance(to: clock.now + 2)
        return (clock, loop, fonts, daemon)
    }

    @Test func aBurstOfRequestsKeepsOneTimerAndTrimsAfterIt() throws {
        let (clock, loop, fonts, daemon) = try Self.daemonWithLargeLabels()
        // Twenty requests, 0.1 s apart, each a new 200 px ideograph: nothing is let go within
        // the burst (the wait is moved by each request).
        for i in 0..<20 {
            let label = String(Unicode.Scalar(UInt32(0x4E00 + 7 * i))!)
            _ = try daemon.handle(try Self.request("{\"v\":1,\"op\":\"update\",\"label\":\"\(label)\"}"))
            loop.advance(to: clock.now + 0.1)
        }
        let held = fonts.cachedGlyphBytes
        #expect(held > FontLibrary.idleGlyphBytes, "\(held) bytes of glyphs after the burst")
        // 0.9 s after the last request: still within the burst's idle time, nothing let go yet.
        loop.advance(to: clock.now + 0.8)
        #expect(fonts.cachedGlyphBytes == held)
        // Past it: the glyphs beyond the idle budget go.
        loop.advance(to: clock.now + 0.5)
        #expect(fonts.cachedGlyphBytes <= FontLibrary.idleGlyphBytes)
    }

    /// A client that never pauses: the glyphs in use stay through a burst longer than
    /// `longestWithoutGivingBackMemory` (only the heap's free pages go back within it).
    @Test func aLongBurstKeepsItsGlyphs() throws {
        let (clock, loop, fonts, daemon) = try Self.daemonWithLargeLabels()
        let steps = Int(3 * Daemon.longestWithoutGivingBackMemory / 0.25)
        for i in 0..<steps {
            let label = String(Unicode.Scalar(UInt32(0x4E00 + 7 * (i % 20)))!)
            _ = try daemon.handle(try Self.request("{\"v\":1,\"op\":\"update\",\"label\":\"\(label)\"}"))
            loop.advance(to: clock.now + 0.25)
        }
        #expect(fonts.cachedGlyphBytes > FontLibrary.idleGlyphBytes, "glyphs let go within the burst")
        loop.advance(to: clock.now + 1.5)
        #expect(fonts.cachedGlyphBytes <= FontLibrary.idleGlyphBytes)
    }
}
