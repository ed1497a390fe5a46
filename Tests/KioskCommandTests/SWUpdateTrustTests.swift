// `kiosk-hud daemon --swupdate` against what an ordinary user can do to SWUpdate's sockets in a
// world-writable directory (SWUpdate's default is /tmp): bind the progress socket first, bind
// the control socket first, or leave a symbolic link to a root-owned socket at the path. The
// stranger is `nobody` (setpriv) running perl's listener; the directory is sticky and
// world-writable as /tmp is. Each time: the stranger's words never reach the HUD (nor does it
// take the display with --show-when-updating), the log has one refusal line however often the
// daemon tries again, the daemon still answers, and a root SWUpdate stand-in is followed.
import Glibc
import KioskDaemon
import KioskTestSupport
import Testing

@Suite(.serialized, .enabled(if: getuid() == 0 && Proc.executable("setpriv") && Proc.executable("perl"),
                             "needs root (to be someone else than the stranger), util-linux's setpriv and perl"))
struct SWUpdateTrustTests {
    /// A test's directory: sticky and world-writable, as /tmp is.
    final class Place {
        let dir = Proc.makeTempDir("kiosk-swu-trust")
        var daemon: pid_t?
        var stranger: pid_t?
        var progress: String { dir + "/swupdateprog" }
        var control: String { dir + "/sockinstctrl" }

        init() { chmod(dir, 0o1777) }

        deinit {
            stopStranger()
            if let d = daemon { kill(d, SIGTERM); _ = Proc.wait(d) }
            _ = Proc.run(["rm", "-rf", dir])
        }

        var log: String { Proc.readFile(dir + "/d.err") ?? "" }
        var status: String { Proc.run([Proc.kioskHUD, "ctl", "status", "--socket", dir + "/c.sock"]).out }

        /// The daemon (root) following SWUpdate at `progress`.
        func startDaemon(_ options: [String] = []) -> Bool {
            daemon = Proc.spawn([Proc.kioskHUD, "daemon", "--offscreen", "-", "--no-input", "--socket", dir + "/c.sock", "--animation-duration", "0",
                                 "--mode", "text", "--label", "Idle", "--swupdate=" + progress] + options, stderr: dir + "/d.err")
            return daemon != nil && wait("the daemon to answer") { daemonAnswers(socket: self.dir + "/c.sock") }
        }

        /// Perl, as nobody, listening at `path` and writing `bytes` to each connection.
        func startStranger(at path: String, writing bytes: [UInt8]) -> Bool {
            let data = dir + "/stranger.bin"
            guard SWUpdateTrustTests.write(data, bytes) else { return false }
            let script = """
                use IO::Socket::UNIX; my ($path, $data) = @ARGV; $SIG{PIPE} = 'IGNORE';  # the daemon hangs up unread
                open(my $f, '<:raw', $data) or die "$data: $!"; local $/; my $bytes = <$f>; close $f;
                my $s = IO::Socket::UNIX->new(Type => SOCK_STREAM(), Local => $path, Listen => 16) or die "$path: $!";
                while (my $c = $s->accept) { print $c $bytes; close $c; }
                """
            stranger = Proc.spawn(Stranger.command + ["perl", "-e", script, path, data], stderr: dir + "/stranger.err")
            return stranger != nil && wait("the stranger's socket") { SWUpdateTrustTests.owner(path) == Stranger.uid }
        }

        func stopStranger() {
            guard let s = stranger else { return }
            kill(s, SIGKILL)
            _ = Proc.wait(s)
            stranger = nil
        }

        /// The number of log lines with `text`.
        func lines(_ text: String) -> Int { log.split(separator: "\n").filter { $0.contains(text) }.count }

        /// Polls `condition` (`waitUntil`, up to 30 s); an issue with the status and the log if it never holds.
        func wait(_ what: String, _ condition: () -> Bool) -> Bool {
            if waitUntil(Waiting.defaultTimeout, condition) { return true }
            Issue.record("timed out waiting for \(what): \(status)\n\(log)\n\(Proc.readFile(dir + "/stranger.err") ?? "")")
            return false
        }

        /// `ctl status`'s swupdate refusals, waited for until at least `n`.
        func waitForRefusals(_ n: Int) -> Bool {
            wait("\(n) refusals") { (SWUpdateTrustTests.number("refusals", status) ?? 0) >= n }
        }
    }

    /// The owner of the file at `path` (not followed), nil when there is none.
    static func owner(_ path: String) -> uid_t? {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_uid : nil
    }

    /// A number field of the status JSON: `"name":123`.
    static func number(_ name: String, _ status: String) -> Int? {
        let parts = status.split(separator: "\"\(name)\":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        return Int(parts[1].prefix { $0.isNumber })
    }

    static func write(_ path: String, _ bytes: [UInt8]) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count
    }

    /// A 2022.12 `progress_msg` (Debian 12's SWUpdate: no version word, naturally aligned).
    static func message(_ status: SWUpdateMessage.Status, image: String = "", steps: UInt32 = 0, step: UInt32 = 0, percent: UInt32 = 0,
                        info: String = "") -> [UInt8] {
        var b = [UInt8](repeating: 0, count: SWUpdateLayout.aligned.size)
        func put(_ v: UInt32, _ at: Int) { for i in 0..<4 { b[at + i] = UInt8((v >> (8 * UInt32(i))) & 0xFF) } }
        put(status.rawValue, 4); put(steps, 24); put(step, 28); put(percent, 32)
        for (i, c) in image.utf8.prefix(255).enumerated() { b[36 + i] = c }
        put(UInt32(info.utf8.count), 360)
        for (i, c) in info.utf8.prefix(2047).enumerated() { b[364 + i] = c }
        return b
    }

    /// One of SWUpdate's notification records (its control socket's `ipc_message`).
    static func record(type: UInt32, status: UInt32 = 0, level: UInt32 = 0, text: String = "") -> [UInt8] {
        var b = [UInt8](repeating: 0, count: SWUpdateNotification.recordSize)
        func put(_ v: UInt32, _ at: Int) { for i in 0..<4 { b[at + i] = UInt8((v >> (8 * UInt32(i))) & 0xFF) } }
        put(0x1405_2001, 0); put(type, 4); put(status, 8); put(level, 16)
        for (i, c) in text.utf8.prefix(2047).enumerated() { b[20 + i] = c }
        return b
    }

    /// What the stranger says on a progress socket: an update of its own, to its end.
    static let strangersUpdate = message(.start, steps: 1) + message(.run, image: "stranger.img", steps: 1, step: 1, percent: 50)
        + message(.success)

    /// The messages are what the daemon reads (the test's encoder agrees with its decoder).
    @Test func theStrangersBytesAreAnUpdate() {
        var d = SWUpdateDecoder()
        let out = d.feed(Self.strangersUpdate)
        #expect(out.count == 3)
        if out.count == 3, case let .message(m) = out[1] { #expect(m.image == "stranger.img" && m.stepPercent == 50) } else { Issue.record("\(out)") }
    }

    /// The attack of the issue: nobody binds the progress socket before SWUpdate. With
    /// --show-when-updating, so that believing it would also take the display.
    @Test func aStrangersProgressSocketIsRefused() {
        let place = Place()
        guard place.startStranger(at: place.progress, writing: Self.strangersUpdate), place.startDaemon(["--show-when-updating"]) else { return }
        // Several attempts (one a second): refused each time, logged once.
        guard place.waitForRefusals(3) else { return }
        let s = place.status
        #expect(!s.contains("stranger.img") && s.contains("\"state\":\"disconnected\"") && s.contains("\"connected\":false"), "\(s)")
        #expect(s.contains("\"visible\":false") && s.contains("\"active\":false"), "the display was taken: \(s)")
        #expect(place.lines("swupdate: refused SWUpdate's progress socket \(place.progress): its listener is uid 65534") == 1, "\(place.log)")
        #expect(!place.log.contains("swupdate: following"), "\(place.log)")

        // The stranger gone, root's SWUpdate (a stand-in) takes the path: followed.
        place.stopStranger()
        unlink(place.progress)
        guard let server = StandInServer(place.progress) else { Issue.record("no stand-in"); return }
        let c = server.accept()
        defer { close(c) }
        StandInServer.send(c, Self.message(.start, steps: 2) + Self.message(.run, image: "rootfs.img", steps: 2, step: 1, percent: 50))
        _ = place.wait("the root stand-in's update") { place.status.contains("\"label\":\"rootfs.img\"") }
        let after = place.status
        #expect(after.contains("\"state\":\"updating\"") && after.contains("\"active\":true"), "\(after)")
        #expect(place.lines("swupdate: refused") == 1, "\(place.log)")
    }

    /// A symbolic link at the path, made by nobody, to a root-owned socket that listens (the
    /// daemon's own control socket): connect would reach a root listener, lstat refuses the link.
    @Test func aStrangersLinkToARootSocketIsRefused() {
        let place = Place()
        guard place.startDaemon() else { return }
        let made = Proc.run(Stranger.command + ["ln", "-s", place.dir + "/c.sock", place.progress])
        #expect(made.status == 0 && Self.owner(place.progress) == Stranger.uid, "\(made.err)")
        guard place.waitForRefusals(2) else { return }
        #expect(place.lines("swupdate: refused SWUpdate's progress socket \(place.progress): the path is a symbolic link, not a socket") == 1,
                "\(place.log)")
        let s = place.status
        #expect(s.contains("\"connected\":false") && s.contains("\"label\":\"Idle\""), "\(s)")
    }

    /// Root's SWUpdate on the progress socket, nobody's listener on the control socket beside
    /// it, offering a failure's reason: the failure notice comes without it.
    @Test func aStrangersControlSocketIsRefused() {
        let place = Place()
        let reason = Self.record(type: 1) + Self.record(type: 11, status: SWUpdateMessage.Status.failure.rawValue, level: 1,
                                                          text: "ERROR : the stranger's reason")
        guard place.startStranger(at: place.control, writing: reason), let server = StandInServer(place.progress), place.startDaemon() else { return }
        let c = server.accept()
        defer { close(c) }
        guard place.wait("the daemon to follow the root stand-in", { place.status.contains("\"connected\":true") }) else { return }
        #expect(place.status.contains("\"subscribed\":false"), "\(place.status)")
        StandInServer.send(c, Self.message(.start, steps: 1) + Self.message(.run, image: "rootfs.img", steps: 1, step: 1, percent: 10)
                           + Self.message(.failure))
        guard place.wait("the failure notice", { place.status.contains("\"state\":\"failed\"") }) else { return }
        let s = place.status
        #expect(s.contains("\"label\":\"Update failed\"") && !s.contains("stranger"), "\(s)")
        #expect(place.lines("swupdate: refused SWUpdate's control socket \(place.control): its listener is uid 65534") == 1, "\(place.log)")
        #expect(Proc.run([Proc.kioskHUD, "ctl", "ping", "--socket", place.dir + "/c.sock"]).status == 0)
    }
}
