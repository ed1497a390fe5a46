// The daemon over months, compressed: `kiosk-hud daemon` (the real binary beside this one, on an
// offscreen display of the size asked) takes mixed requests for MINUTES — labels and details in
// changing scripts (Latin, Cyrillic, Greek, Arabic, CJK) and sizes (12 to 500 px), pictures in
// the bezel and under it, themes and underlay colours, notices, progress — on a connection that
// stays, while other clients connect and leave (some without reading their reply). Its resident
// memory (VmRSS from /proc) is sampled each minute; at the end, after a few idle seconds, the
// final figure. Goal (issue #24): peak ≤ start + 16 MB, final ≤ start + 4 MB, where the start is
// the daemon after its first frames, before any request. Exit status 0 when both hold and every
// request was answered; the goal is checked on anonymous memory, with the total beside it (see
// the end of runDaemonSoak). Figures: docs/measurements.md, "The daemon over months".
import Glibc
import KioskProtocol
import KioskSys

/// Resident kB of `pid` (`field` VmRSS or VmHWM), 0 when unreadable.
// Free KioskSys calls, not a `Kernel`: the bench is a measuring tool, not product code.
func procStatusKB(_ pid: pid_t, _ field: String) -> Int {
    let text = (try? readSmallFile("/proc/\(pid)/status", limit: 1 << 16)) ?? ""
    guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return 0 }
    return line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
}

/// A small deterministic generator (xorshift64*), so two runs send the same requests.
struct SoakRandom {
    var state: UInt64
    mutating func next() -> UInt64 {
        state ^= state >> 12; state ^= state << 25; state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }
    mutating func pick<T>(_ xs: [T]) -> T { xs[below(xs.count)] }
}

/// A line of `count` characters from one script's range (the label limit is 1024 bytes).
func soakText(_ r: inout SoakRandom, count: Int) -> String {
    let scripts: [(UInt32, UInt32)] = [(0x61, 0x7A), (0x430, 0x44F), (0x3B1, 0x3C9), (0x627, 0x64A), (0x4E00, 0x9FA5)]
    let (lo, hi) = r.pick(scripts)
    var s = "", bytes = 0
    for i in 0..<count {
        let c = i % 7 == 6 && lo < 0x4E00 ? Unicode.Scalar(0x20)! : Unicode.Scalar(lo + UInt32(r.below(Int(hi - lo + 1))))!
        bytes += String(c).utf8.count
        if bytes > 1024 { break }
        s.unicodeScalars.append(c)
    }
    return s
}

/// A JSON string literal (the daemon's own writer).
func soakJSON(_ s: String) -> String { JSON.encode(.string(s)) }

/// One request of the mix.
func soakRequest(_ r: inout SoakRandom, dir: String) -> String {
    let sizes = [12, 16, 16, 24, 32, 48, 96, 200, 500]
    switch r.below(20) {
    case 0..<7:
        let label = soakText(&r, count: 1 + r.below(r.below(4) == 0 ? 341 : 40))
        let details = r.below(3) == 0 ? ",\"details\":" + soakJSON(soakText(&r, count: r.below(200))) : ""
        return "{\"v\":1,\"op\":\"update\",\"label\":\(soakJSON(label))\(details),\"progress\":\(Double(r.below(101)) / 100)}"
    case 7..<9:
        return "{\"v\":1,\"op\":\"update\",\"progress\":\(Double(r.below(101)) / 100),\"animated\":true}"
    case 9..<11:
        return "{\"v\":1,\"op\":\"style\",\"label_size\":\(r.pick(sizes)),\"details_size\":\(r.pick(sizes))}"
    case 11, 12:
        return "{\"v\":1,\"op\":\"style\",\"theme\":\"\(r.below(2) == 0 ? "light" : "dark")\"}"
    case 13, 14:
        let hex = String(0x10_0000 + r.below(0xEF_FFFF), radix: 16)
        return "{\"v\":1,\"op\":\"style\",\"underlay_color\":\"#\(hex)\"}"
    case 15:
        return "{\"v\":1,\"op\":\"style\",\"underlay_image\":\(soakJSON(dir + (r.below(2) == 0 ? "/under.png" : "/under-small.png")))}"
    case 16:
        return r.below(2) == 0 ? "{\"v\":1,\"op\":\"update\",\"mode\":\"custom\",\"image\":\(soakJSON(dir + "/image.png"))}"
                               : "{\"v\":1,\"op\":\"update\",\"mode\":\"\(r.pick(["bar", "annular", "determinate", "indeterminate"]))\"}"
    case 17:
        return "{\"v\":1,\"op\":\"\(r.pick(["success", "error", "info"]))\",\"text\":\(soakJSON(soakText(&r, count: 1 + r.below(30)))),\"duration\":0.5}"
    case 18:
        return "{\"v\":1,\"op\":\"style\",\"background\":\"\(r.pick(["none", "dim", "gradient"]))\"}"
    default:
        return "{\"v\":1,\"op\":\"status\"}"
    }
}

/// The look and content the daemon started with, put back at the end.
func soakRestore(dir: String) -> [String] {
    ["{\"v\":1,\"op\":\"style\",\"theme\":\"light\",\"underlay\":\"#000000\",\"underlay_image\":\(soakJSON(dir + "/under.png")),\"background\":\"gradient\",\"label_size\":16,\"details_size\":12}",
     "{\"v\":1,\"op\":\"update\",\"mode\":\"indeterminate\",\"label\":\"Soak\",\"details\":\"\",\"progress\":0.01}",
     "{\"v\":1,\"op\":\"show\"}"]
}

/// The soak's clients reach the daemon through the kernel seam, as the daemon's own code does.
let soakKernel = LinuxKernel()

/// A blocking client: one request, one reply line ("" when the connection failed).
func soakAsk(_ fd: Int32, _ line: String) -> String {
    let bytes = Array((line + "\n").utf8)
    var sent = 0
    while sent < bytes.count {
        guard let n = try? soakKernel.send(fd, bytes[sent...]), n > 0 else { return "" }
        sent += n
    }
    var reply: [UInt8] = [], b = [UInt8](repeating: 0, count: 4096)
    while reply.last != 0x0A {
        guard let n = try? soakKernel.read(fd, into: &b), n > 0 else { return "" }
        reply += b[..<n]
    }
    return String(decoding: reply, as: UTF8.self)
}

func runDaemonSoak(minutes: Double, width: Int, height: Int, requestsPerSecond: Double) -> Bool {
    let kioskHUD = CommandLine.arguments[0].replacing("kiosk-hud-bench", with: "kiosk-hud")
    let dir = "/tmp/kiosk-soak-\(getpid())-\(width)x\(height)"
    do { try makeDirectories(dir) } catch { print("cannot make \(dir): \(error)"); return false }
    defer { _ = timedShell("rm -rf \(dir)") }
    guard timedShell("\(kioskHUD) render --size \(width)x\(height) --background gradient --mode text --label soak --out \(dir)/under.png").status == 0,
          timedShell("\(kioskHUD) render --size \(width / 3)x\(height / 3) --background dim --label small --out \(dir)/under-small.png").status == 0,
          timedShell("\(kioskHUD) render --size 96x96 --mode success --out \(dir)/image.png").status == 0 else {
        print("cannot draw the pictures with \(kioskHUD)"); return false
    }
    var pid: pid_t = 0
    // The daemon starts with what the mix uses (an underlay picture, a gradient behind the bezel),
    // so the start counts the frames those keep, and the end puts the same look back: what stays
    // above the start is what the requests left behind.
    let words = [kioskHUD, "daemon", "--offscreen", dir, "--size", "\(width)x\(height)", "--no-input",
                 "--socket", dir + "/c.sock", "--label", "Soak", "--underlay-image", dir + "/under.png", "--background", "gradient"]
    let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 2, dir + "/daemon.log", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard posix_spawn(&pid, kioskHUD, &actions, nil, argv, environ) == 0 else { print("cannot start \(kioskHUD)"); return false }
    defer { kill(pid, SIGTERM); var st: Int32 = 0; waitpid(pid, &st, 0) }
    var main: Int32 = -1
    for _ in 0..<200 where main < 0 {
        if let c = try? soakKernel.connectUnix(dir + "/c.sock") { main = c } else { usleep(50_000) }
    }
    guard main >= 0, soakAsk(main, "{\"v\":1,\"op\":\"ping\"}").contains("\"ok\":true") else { print("the daemon did not answer"); return false }
    // One progress step before the start is read: the first frame is drawn whole, straight into
    // the frame, and the backdrop (a frame-sized bitmap under the bezel, kept while the look
    // stays) is built by the first partial redraw — part of any daemon's working set from its
    // first progress on, not something the soak's requests left behind.
    _ = soakAsk(main, "{\"v\":1,\"op\":\"update\",\"progress\":0.01}")
    usleep(2_000_000)
    let start = procStatusKB(pid, "VmRSS"), startAnon = procStatusKB(pid, "RssAnon"), startFile = procStatusKB(pid, "RssFile")
    print("daemon soak at \(width)x\(height): \(minutes) min, ~\(Int(requestsPerSecond)) requests/s; start \(start / 1024) MB")
    var r = SoakRandom(state: 0x9E37_79B9_7F4A_7C15 ^ UInt64(width * height))
    var requests = 0, failed = 0, connections = 0, samples: [Int] = []
    let t0 = nowNs(), end = t0 + UInt64(minutes * 60e9)
    var nextSample = t0 + 60_000_000_000, nextAnon = t0
    var peakAnon = startAnon
    let gap = UInt64(1e9 / requestsPerSecond)
    var due = t0
    while nowNs() < end {
        let reply = soakAsk(main, soakRequest(&r, dir: dir))
        requests += 1
        // An error reply is an answer (a label too wide, a size refused): only silence fails.
        if reply.isEmpty { failed += 1; break }
        if requests % 25 == 0 {
            // A client that comes and goes: half read their reply, half hang up at once.
            if let c = try? soakKernel.connectUnix(dir + "/c.sock") {
                connections += 1
                if r.below(2) == 0 { _ = soakAsk(c, "{\"v\":1,\"op\":\"ping\"}") } else {
                    _ = try? soakKernel.send(c, Array("{\"v\":1,\"op\":\"status\"}\n".utf8)[...])
                }
                soakKernel.close(c)
            }
        }
        let now = nowNs()
        if now >= nextAnon {
            // The anonymous peak, looked at each second (VmHWM has the total's).
            peakAnon = max(peakAnon, procStatusKB(pid, "RssAnon"))
            nextAnon = now + 1_000_000_000
        }
        if now >= nextSample {
            let kb = procStatusKB(pid, "VmRSS")
            samples.append(kb)
            print("  minute \(samples.count): \(kb / 1024) MB resident (\(procStatusKB(pid, "RssAnon") / 1024) MB anonymous), \(requests) requests")
            fflush(nil)
            nextSample += 60_000_000_000
        }
        due += gap
        if due > now { usleep(UInt32((due - now) / 1000)) } else { due = now }
    }
    for line in soakRestore(dir: dir) where soakAsk(main, line).isEmpty { failed += 1 }
    usleep(3_000_000)   // idle: the daemon gives back what it freed
    let final = procStatusKB(pid, "VmRSS"), hwm = procStatusKB(pid, "VmHWM")
    let anon = procStatusKB(pid, "RssAnon"), file = procStatusKB(pid, "RssFile")
    let peak = max(samples.max() ?? 0, final)
    soakKernel.close(main)
    // The goal is on what the daemon allocates (anonymous memory); the files' pages (the binary,
    // libraries, the fonts FreeType maps as text in new scripts is drawn) are printed beside it:
    // bounded by the files' sizes, and the kernel's to drop under pressure.
    let peakOK = peakAnon - startAnon <= 16 * 1024, finalOK = anon - startAnon <= 4 * 1024
    print("  requests \(requests) (\(failed) unanswered), connections \(connections)")
    print("  final RSS: \(anon / 1024) MB anonymous, \(file / 1024) MB of files (the binary, libraries, fonts: pages the kernel may drop); at the start \(startAnon / 1024) MB and \(startFile / 1024) MB")
    print("  RSS start \(start / 1024) MB, peak sampled \(peak / 1024) MB, peak (VmHWM) \(hwm / 1024) MB, final \(final / 1024) MB")
    print("  anonymous: start \(startAnon / 1024) MB, peak \(peakAnon / 1024) MB (looked at each second), final \(anon / 1024) MB")
    print("  goal (anonymous): peak ≤ start + 16 MB: \(peakOK ? "yes" : "no") (+\(Double((peakAnon - startAnon) / 102) / 10) MB); final ≤ start + 4 MB: \(finalOK ? "yes" : "no") (+\(Double((anon - startAnon) / 102) / 10) MB)")
    return failed == 0 && peakOK && finalOK
}
