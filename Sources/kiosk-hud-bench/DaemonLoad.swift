// The daemon under load: N clients (threads) each send `update` requests as fast as their replies
// come, for a while, to a daemon on an offscreen 800x480 display in this process. Prints the
// requests answered per second, the frames drawn per second, request → frame presented latency
// (median, p99: from the client's send to the first present after the daemon handled it), RSS at
// the start and the end, and whether every request was answered and the last update of each
// client is what the HUD shows.
import Glibc
import KioskBoards
import KioskDaemon
import KioskSeams
import KioskTestDoubles
import KioskHUD
import KioskProtocol
import KioskRaster
import KioskSession
import KioskSys
import KioskText

/// Send times by request id, written by the client threads.
final class SendTimes: @unchecked Sendable {
    private var m = pthread_mutex_t()
    private var times: [Int: UInt64] = [:]
    init() { pthread_mutex_init(&m, nil) }
    func set(_ id: Int, _ t: UInt64) { pthread_mutex_lock(&m); times[id] = t; pthread_mutex_unlock(&m) }
    func take(_ id: Int) -> UInt64? { pthread_mutex_lock(&m); defer { pthread_mutex_unlock(&m) }; return times.removeValue(forKey: id) }
}

/// What each client thread did.
final class ClientTally: @unchecked Sendable {
    var sent = 0, answered = 0, errors = 0
    var lastLabel = ""
    var done = false
}

// Free KioskSys calls (here and below), not a `Kernel`: the bench is a measuring tool, not product code.
func residentKB() -> Int {
    guard let s = try? readSmallFile("/proc/self/statm"), let pages = s.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return 0 }
    return pages * 4
}

func runDaemonLoad(seconds: Double, clients: Int) -> Bool {
    do {
        let dir = "/tmp/kiosk-load-\(processID())"
        try makeDirectories(dir)
        defer { _ = try? removeFile(dir + "/c.sock"); rmdir(dir) }
        let clock = SystemClock()
        let loop = PollEventLoop(clock: clock)
        let display = try OffscreenDisplay(width: 800, height: 480)
        let content = HUDContent(mode: .annular, progress: 0, label: "Loading")
        var settings = HUDSettings.defaults
        settings.content = content
        let session = HUDSession(loop: loop, screen: OffscreenScreen(display), fonts: try FontLibrary(), clock: clock,
                                 configuration: SessionConfiguration(content: content))
        let daemon = Daemon(session: session, settings: settings) { _ in throw RequestError("no pictures") }
        let socket = try ControlSocket.open(dir + "/c.sock", group: nil)
        defer { socket.close() }
        let server = ControlServer(kernel: loop.kernel, loop: loop, listener: socket.fd, daemon: daemon, access: AccessRule(group: nil), log: { _ in })
        try session.start()
        let sendTimes = SendTimes()
        var handled: [Int] = []
        // A fixed, pre-touched buffer for the samples (a reservoir once full), so the bench's
        // own memory does not grow while the daemon's is measured.
        var latencies = [Double](repeating: 0, count: 1 << 18)
        var samples = 0
        var seed: UInt64 = 1
        server.onAnswered = { o in if let id = o["id"]?.int { handled.append(id) } }
        display.onPresent = {
            let t = nowNs()
            for id in handled {
                guard let s = sendTimes.take(id) else { continue }
                let v = Double(t &- s) / 1e6
                if samples < latencies.count { latencies[samples] = v } else {
                    seed = seed &* 6364136223846793005 &+ 1442695040888963407
                    let j = Int(seed >> 1) % (samples + 1)
                    if j < latencies.count { latencies[j] = v }
                }
                samples += 1
            }
            handled.removeAll(keepingCapacity: true)
        }
        let tallies = (0..<clients).map { _ in ClientTally() }
        let end = nowNs() + UInt64(seconds * 1e9)
        for (k, tally) in tallies.enumerated() {
            try spawnDetachedThread { [path = dir + "/c.sock"] in
                loadClient(path: path, index: k, until: end, times: sendTimes, tally: tally)
            }
        }
        let framesBefore = session.frames
        // RSS once the clients are all connected and running (1 s in), and at the end: a daemon
        // under steady load keeps no growing state.
        // Also every 10 s between, to tell a level from a slope.
        var rss0 = 0, rssSteps: [Int] = []
        let warm = nowNs() + 1_000_000_000
        var nextStep = warm + 10_000_000_000
        while !tallies.allSatisfy({ $0.done }) {
            try loop.runOnce(timeout: 0.05)
            if rss0 == 0 && nowNs() >= warm { rss0 = residentKB() }
            if nowNs() >= nextStep { rssSteps.append(residentKB()); nextStep += 10_000_000_000 }
        }
        try loop.run(for: 0.2)
        let rss1 = residentKB()
        let sent = tallies.reduce(0) { $0 + $1.sent }, answered = tallies.reduce(0) { $0 + $1.answered }
        latencies = Array(latencies.prefix(min(samples, latencies.count))).sorted()
        func pct(_ p: Double) -> Double { latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] }
        let shown = session.configuration.content.label
        let lastWins = tallies.contains { $0.lastLabel == shown }
        print("daemon load: \(clients) clients, \(seconds) s, 800x480 offscreen, annular HUD")
        print("  requests: \(sent) sent, \(answered) answered (\(Int(Double(answered) / seconds))/s), \(tallies.reduce(0) { $0 + $1.errors }) errors")
        print("  frames: \(session.frames - framesBefore) (\(Int(Double(session.frames - framesBefore) / seconds))/s), presents \(display.presentCount)")
        print("  request -> frame presented: median \(fmt2(pct(0.5))) ms, p99 \(fmt2(pct(0.99))) ms, max \(fmt2(latencies.last ?? 0)) ms (\(samples) requests, \(latencies.count) sampled)")
        print("  RSS: \(rss0) kB after 1 s, \(rss1) kB at the end\(rssSteps.isEmpty ? "" : " (every 10 s between: \(rssSteps.map(String.init).joined(separator: ", ")) kB)")")
        print("  every request answered: \(sent == answered ? "yes" : "NO"); the HUD shows a client's last update: \(lastWins ? "yes" : "NO")")
        server.close()
        return sent == answered && lastWins
    } catch {
        print("daemon load: \(error)")
        return false
    }
}

func fmt2(_ v: Double) -> String { String(Double(Int((v * 100).rounded())) / 100) }

/// One client: update, wait for the reply, again, until `end`.
func loadClient(path: String, index: Int, until end: UInt64, times: SendTimes, tally: ClientTally) {
    defer { tally.done = true }
    guard let c = try? DaemonClient(path: path) else { tally.errors += 1; return }
    var n = 0
    while nowNs() < end {
        n += 1
        let id = index * 10_000_000 + n
        let label = "client \(index) update \(n)"
        times.set(id, nowNs())
        tally.sent += 1
        do {
            try c.request(.update, [("id", .number(Double(id))), ("label", .string(label)), ("progress", .number(Double(n % 100) / 100))])
            tally.answered += 1
            tally.lastLabel = label
        } catch {
            tally.errors += 1
        }
    }
}
