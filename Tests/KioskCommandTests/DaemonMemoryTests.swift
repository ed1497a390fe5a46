// The daemon's memory after many redraws: what a request frees is given back, so a daemon that
// runs for months on a 512 MB board ends near where it started (issue: 6,000 fuzzed requests
// with an underlay picture left 103 MB resident, 36 MB after malloc_trim).
import Glibc
import KioskDaemon
import KioskSys
import KioskTestSupport
import Testing

@Suite(.serialized) struct DaemonMemoryTests {
    /// The process's resident memory (VmRSS) in kB, 0 when it cannot be read.
    static func residentKB(_ pid: pid_t) -> Int {
        let text = (try? readSmallFile("/proc/\(pid)/status", limit: 1 << 16)) ?? ""
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    }

    /// One request and its reply on a blocking connection.
    static func request(_ fd: Int32, _ line: String) -> String {
        let bytes = Array((line + "\n").utf8)
        guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else { return "" }
        var reply: [UInt8] = [], b = [UInt8](repeating: 0, count: 512)
        while reply.last != 0x0A {
            let n = read(fd, &b, b.count)
            if n <= 0 { break }
            reply += b[..<n]
        }
        return String(decoding: reply, as: UTF8.self)
    }

    /// Underlay colours and themes in turn, each redrawing the whole picture under the HUD: 120
    /// of them leave the daemon, once idle, within 4 MB of where it was before them (the
    /// issue's goal for an hour of requests: final ≤ start + 4 MB).
    @Test func redrawsGiveTheirMemoryBack() throws {
        let dir = Proc.makeTempDir("kiosk-daemon-memory")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let made = Proc.run([Proc.kioskHUD, "render", "--size", "1024x768", "--mode", "text", "--label", "under",
                             "--background", "gradient", "--out", dir + "/u.png"])
        #expect(made.status == 0, "\(made.err)")
        guard let pid = Proc.spawn([Proc.kioskHUD, "daemon", "--offscreen", dir, "--no-input", "--socket", dir + "/c.sock",
                                    "--underlay", dir + "/u.png", "--label", "Updating"], stderr: dir + "/d.err") else {
            Issue.record("cannot start the daemon"); return
        }
        defer { kill(pid, SIGTERM); _ = Proc.wait(pid) }
        var fd: Int32 = -1
        _ = waitUntil {
            if let c = try? unixConnection(dir + "/c.sock") { fd = c.rawValue }
            return fd >= 0
        }
        guard fd >= 0 else { Issue.record("no control socket: \(Proc.readFile(dir + "/d.err") ?? "")"); return }
        defer { close(fd) }
        func round(_ i: Int) -> String {
            let colour = "#" + String(i % 200 + 16, radix: 16) + "3040", theme = i % 4 == 0 ? "light" : "dark"
            return i % 2 == 1 ? Self.request(fd, "{\"v\":1,\"op\":\"style\",\"underlay_color\":\"\(colour)\"}")
                              : Self.request(fd, "{\"v\":1,\"op\":\"style\",\"theme\":\"\(theme)\"}")
        }
        #expect(Self.request(fd, #"{"v":1,"op":"ping"}"#).contains(#""ok":true"#))
        // The first frame drawn, and what the daemon does once it is (the glyph cache saved,
        // first.png written, the devices started): first.png is written on the loop's thread when
        // the first frame is on screen, and the reply to a request after it comes once that is done.
        _ = waitUntil { Proc.exists(dir + "/first.png") }
        _ = Self.request(fd, #"{"v":1,"op":"ping"}"#)
        let start = Self.residentKB(pid)
        var failed = 0
        for i in 0..<120 where !round(i).contains(#""ok":true"#) { failed += 1 }
        #expect(failed == 0)
        // The daemon gives memory back once idle: not before `Daemon.idleBeforeGivingBackMemory`
        // after the last request; then as soon as the resident memory is back within the bound
        // (a loaded host's late timer only makes this wait longer).
        let idleAt = Waiting.now() + Daemon.idleBeforeGivingBackMemory
        var end = 0
        _ = waitUntil {
            end = Self.residentKB(pid)
            return Waiting.now() >= idleAt && end - start < 4 * 1024
        }
        print("[daemon-memory] 120 underlay and theme redraws at 800x480: VmRSS \(start / 1024) MB → \(end / 1024) MB")
        #expect(start > 0 && end - start < 4 * 1024, "VmRSS \(start) kB → \(end) kB")
    }
}
