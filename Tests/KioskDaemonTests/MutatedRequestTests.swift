// The control protocol under generated input: valid request lines of every op, broken in
// seeded ways, go the whole way a client's line goes (JSON.parse → DaemonRequest → Daemon.handle
// on a live session that draws its frames). Pass: no crash, no input over 2 s, peak RSS bounded.
// CI runs 5,000 inputs; the long run is one command:
//
//     KIOSK_FUZZ_INPUTS=1000000 swift test -c release --filter MutatedRequestTests
import Glibc
import KioskBoards
import KioskDaemon
import KioskSeams
import KioskTestDoubles
import KioskHUD
import KioskProtocol
import KioskSession
import KioskSys
import KioskTestSupport
import KioskText
import Testing


@Suite struct MutatedRequestTests {
    static let seeds: [String] = [
        #"{"v":1,"op":"ping","id":1}"#,
        #"{"v":1,"op":"show","animated":false}"#,
        #"{"v":1,"op":"hide","animated":true,"delay":0.5}"#,
        #"{"v":1,"op":"update","mode":"bar","progress":0.4,"label":"Installing","details":"Step 2 of 5","button":"Cancel","animated":true}"#,
        #"{"v":1,"op":"update","mode":"custom","image":"/nonexistent.png"}"#,
        ##"{"v":1,"op":"style","theme":"dark","background":"dim","margin":14,"offset":"3,-4","min_size":"100x80","bezel_color":"#11223344"}"##,
        #"{"v":1,"op":"style","grace_time":0.2,"min_show_time":1,"animation":"zoom","animation_duration":0.25,"square":true}"#,
        #"{"v":1,"op":"success","text":"Done","duration":0.5}"#,
        #"{"v":1,"op":"error","text":"Failed"}"#,
        #"{"v":1,"op":"info","text":"Hello","duration":0}"#,
        #"{"v":1,"op":"push"}"#, #"{"v":1,"op":"pop"}"#, #"{"v":1,"op":"press"}"#,
        #"{"v":1,"op":"status"}"#,
        #"{"v":1,"op":"subscribe","events":["button","hidden","tap_outside"]}"#,
    ]
    static let tokens: [[UInt8]] = ["{", "}", "[", "]", "\"", ",", ":", "\\", "\\u0000", "-1", "1e308", "0.5", "NaN", "null",
                                    "true", "\"op\"", "\"v\"", "\"mode\"", "\"progress\"", "\"label\"", "\"quit\"", "\"style\"",
                                    "99999999999", "-0", "\"##\"", "\"x\"", String(repeating: "é", count: 40)].map { Array($0.utf8) }
        + [[0xFF], [0x00], [0xC0, 0x80], [0xED, 0xA0, 0x80]]

    static var inputs: Int {
        getenv("KIOSK_FUZZ_INPUTS").flatMap { Int(String(cString: $0)) } ?? 5_000
    }

    @Test func everyLineIsAnsweredAndNothingDies() throws {
        let clock = ManualClock()
        let loop = EmbeddedEventLoop(clock: clock)
        let display = try OffscreenDisplay(width: 240, height: 160)
        let session = HUDSession(loop: loop, screen: OffscreenScreen(display), fonts: try FontLibrary(), clock: clock,
                                 configuration: SessionConfiguration(content: HUDContent(mode: .annular, label: "Booting")))
        let daemon = Daemon(session: session, settings: HUDSettings.defaults) { _ in throw RequestError("no pictures here") }
        daemon.onQuit = { _ in }
        try session.start()
        var rng = SeededGenerator(seed: 0x6B_696F_736B)
        var handled = 0, refused = 0, slowest = 0.0
        let seeds = Self.seeds.map { Array($0.utf8) }
        let start = monotonicSeconds()
        for n in 0..<Self.inputs {
            var line = seeds.randomElement(using: &rng)!
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                let at = Int.random(in: 0...line.count, using: &rng)
                switch Int.random(in: 0..<6, using: &rng) {
                case 0 where at < line.count: line[at] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &rng)
                case 1: line.insert(contentsOf: Self.tokens.randomElement(using: &rng)!, at: at)
                case 2 where at < line.count: line.removeSubrange(at..<min(line.count, at + Int.random(in: 1...6, using: &rng)))
                case 3: line.removeSubrange(at...)
                case 4: let from = Int.random(in: 0...at, using: &rng); line.insert(contentsOf: line[from..<at], at: at)
                default: if at < line.count { line[at] = UInt8.random(in: 0x20...0x7E, using: &rng) }
                }
            }
            let t = monotonicSeconds()
            do {
                guard case let .object(o) = try JSON.parse(line) else { throw RequestError("not an object") }
                _ = try daemon.handle(try DaemonRequest(o))
                handled += 1
            } catch {
                refused += 1
                #expect(!"\(error)".isEmpty, "input \(n)")
            }
            // The session draws what the requests changed, as the loop does between turns (a
            // turn reads several lines when a client sends them together).
            if n % 8 == 7 {
                clock.advance(by: 0.02)
                loop.advance(to: clock.now)
            }
            slowest = max(slowest, monotonicSeconds() - t)
        }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let seconds = monotonicSeconds() - start
        print("KioskDaemon: \(Self.inputs) mutated request lines: \(handled) handled, \(refused) refused, in \(Int(seconds)) s; " +
              "slowest \(Int(slowest * 1000)) ms; peak RSS of the test process \(usage.ru_maxrss / 1024) MB")
        #expect(handled > Self.inputs / 20 && refused > Self.inputs / 20)
        #expect(slowest < 2)
        #expect(usage.ru_maxrss < 512 * 1024, "peak RSS \(usage.ru_maxrss) kB")
    }
}
