// The Plymouth front end's boot progress: Plymouth's estimate from the last boot, never
// backwards, lifted by systemd's Progress, 100 % only at the end; the estimate file in
// Plymouth's format, read strictly.
import KioskDaemon
import Testing

@Suite struct BootEstimateTests {
    @Test func withoutALastBootItExpectsSixtySeconds() {
        var e = BootEstimate()
        #expect(e.expectedDuration == 60)
        #expect(abs(e.value(at: 30) - 0.5) < 1e-9)
        #expect(abs(e.value(at: 54) - 0.9) < 1e-9)
        // Past the expected end it slows down and never reaches 99 %.
        let a = e.value(at: 60), b = e.value(at: 120), c = e.value(at: 3600)
        #expect(a > 0.9 && b > a && c > b && c < BootEstimate.cap)
        #expect(!e.finished)
    }

    @Test func neverBackwardsAndOnlyTheEndIsFull() {
        var e = BootEstimate()
        e.measure(0.7)
        #expect(e.value(at: 1) == 0.7)       // systemd is further along than the clock
        e.measure(0.3)                        // jobs added: Progress fell, the bar does not
        #expect(e.value(at: 2) == 0.7)
        e.measure(.nan)
        #expect(e.value(at: 3) == 0.7)
        e.measure(0.999)
        #expect(e.value(at: 4) == BootEstimate.cap)
        e.measure(1)
        #expect(e.finished && e.value(at: 5) == 1)
        var f = BootEstimate()
        _ = f.value(at: 10_000)
        f.finish()
        #expect(f.value(at: 10_001) == 1)
    }

    /// A message seen last boot at half the boot, seen now at 10 s: the boot is expected to
    /// take about 20 s — Plymouth averages the rates, (1/60 + 0.5/10) / 2.
    @Test func aKnownMessageCorrectsTheExpectedLength() {
        var e = BootEstimate(previous: ["a.service": 0.5, "b.service": 0.75])
        e.status("a.service", at: 10)
        #expect(abs(e.rate - (1.0 / 60 + 0.05) / 2) < 1e-12)
        e.status("new.service", at: 11)      // unknown last boot: nothing changes
        #expect(abs(e.rate - (1.0 / 60 + 0.05) / 2) < 1e-12)
        let before = e.rate
        e.status("b.service", at: 15)
        #expect(abs(e.rate - (before + 0.05) / 2) < 1e-12)
        #expect(e.value(at: 15) > 0.5)
    }

    @Test func pausesDoNotCount() {
        var e = BootEstimate()
        _ = e.value(at: 6)
        e.pause(at: 6)
        #expect(e.isPaused)
        #expect(abs(e.value(at: 30) - 0.1) < 1e-9)   // frozen while a question is asked
        e.unpause(at: 30)
        #expect(abs(e.runningTime(at: 36) - 12) < 1e-9)
        #expect(abs(e.value(at: 36) - 0.2) < 1e-9)
        e.status("x.service", at: 36)
        #expect(e.messages.first?.time == 12)
    }

    @Test func theCacheIsPlymouthsFormat() throws {
        var e = BootEstimate()
        e.status("systemd-journald.service", at: 1)
        e.status("NetworkManager.service", at: 5)
        e.status("twice.service", at: 6)
        e.status("twice.service", at: 7)   // repeated: says nothing, left out (Plymouth's rule)
        e.status("kiosk.service", at: 10)
        #expect(e.cache(at: 10) == "0.100:systemd-journald.service\n0.500:NetworkManager.service\n1.000:kiosk.service\n")
        let back = try BootEstimate.parse(Array(e.cache(at: 10).utf8))
        #expect(back == ["systemd-journald.service": 0.1, "NetworkManager.service": 0.5, "kiosk.service": 1])
        // Plymouth's own file (three places, a trailing newline, unit names and texts).
        let plymouths = "0.003:systemd-journald.service\n0.412:Starting Network Manager\n0.950:getty@tty1.service\n"
        #expect(try BootEstimate.parse(Array(plymouths.utf8)).count == 3)
        #expect(BootEstimate().cache(at: 0) == "")
    }

    static let badFiles: [(String, String)] = [
        ("0.5 a.service\n", "line 1: no ':' between the fraction and the text"),
        ("1.5:a.service\n", "line 1: \"1.5\" is not a fraction from 0 to 1"),
        ("-0.1:a.service\n", "line 1: \"-0.1\" is not a fraction from 0 to 1"),
        ("nan:a.service\n", "line 1: \"nan\" is not a fraction from 0 to 1"),
        ("0.1:ok\n0.2:\n", "line 2: the text is empty or longer than 254 bytes"),
        ("0.1:" + String(repeating: "x", count: 255) + "\n", "line 1: the text is empty or longer than 254 bytes"),
    ]

    @Test(arguments: badFiles)
    func badFilesAreRefused(_ text: String, _ why: String) {
        #expect(throws: BootEstimate.CacheError(why)) { _ = try BootEstimate.parse(Array(text.utf8)) }
    }

    @Test func notTextOrTooLongIsRefused() {
        #expect(throws: BootEstimate.CacheError("not UTF-8 text")) { _ = try BootEstimate.parse([0x30, 0x3A, 0xFF, 0x0A]) }
        #expect(throws: BootEstimate.CacheError("not UTF-8 text")) { _ = try BootEstimate.parse([0x30, 0x3A, 0x61, 0x00]) }
        let long = [UInt8](repeating: 0x0A, count: BootEstimate.maxCacheBytes + 1)
        #expect(throws: BootEstimate.CacheError("longer than \(BootEstimate.maxCacheBytes) bytes")) { _ = try BootEstimate.parse(long) }
        let many = String(repeating: "0.1:a\n", count: BootEstimate.maxMessages + 1)
        #expect(throws: BootEstimate.CacheError("more than \(BootEstimate.maxMessages) lines")) { _ = try BootEstimate.parse(Array(many.utf8)) }
    }
}
