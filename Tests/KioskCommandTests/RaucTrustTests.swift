// `kiosk-hud daemon --rauc` against a bus client that does not own de.pengutronix.rauc: the
// issue's attack, by nobody (setpriv) with busctl on the test's private system bus (its policy
// lets any user connect and send; the bus's directory is opened to all here). RAUC's signals
// emitted to everyone and sent to the daemon's connection alone, a forged NameOwnerChanged
// naming the stranger's next connection RAUC's owner, and a Completed of the wrong type with a
// large value — while the name has no owner, and again while Debian's RAUC owns it. None is
// believed, each kind is one log line without the value, the daemon answers, and RAUC's own
// installation that follows is shown to "Installed".
import Glibc
import KioskTestSupport
import Testing

@Suite(.serialized) struct RaucTrustTests {
    typealias Rig = RaucDaemonTests.Rig

    /// busctl as nobody on the rig's bus.
    static func stranger(_ rig: Rig, _ args: [String]) -> (status: Int32, out: String, err: String) {
        Proc.run(Stranger.command + ["busctl", "--address=" + rig.address] + args)
    }

    /// The bus's unique names and their processes (`busctl list`, as root): (name, pid).
    static func connections(_ rig: Rig) -> [(name: String, pid: Int32)] {
        Proc.run(["busctl", "--address=" + rig.address, "list", "--no-legend"]).out.split(separator: "\n").compactMap { line in
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            guard f.count >= 2, f[0].hasPrefix(":"), let pid = Int32(f[1]) else { return nil }
            return (String(f[0]), pid)
        }
    }

    /// The installer's signals, as nobody: to everyone and to `daemon` alone.
    static func emitInstallerSignals(_ rig: Rig, to daemon: String) {
        let changed = ["/", "org.freedesktop.DBus.Properties", "PropertiesChanged", "sa{sv}as", "de.pengutronix.rauc.Installer",
                       "2", "Operation", "s", "installing", "Progress", "(isi)", "50", "Hacked", "1", "0"]
        let completed = ["/", "de.pengutronix.rauc.Installer", "Completed", "i", "0"]
        for args in [changed, completed] {
            for target in [[], ["--destination=" + daemon]] {
                let r = stranger(rig, ["emit"] + target + args)
                #expect(r.status == 0, "busctl emit as nobody: \(r.err)")
            }
        }
    }

    /// A number field of the status JSON: `"name":123`.
    static func number(_ name: String, _ status: String) -> Int {
        let parts = status.split(separator: "\"\(name)\":", maxSplits: 1, omittingEmptySubsequences: false)
        return parts.count == 2 ? Int(parts[1].prefix { $0.isNumber }) ?? -1 : -1
    }

    /// The stranger's words are nowhere: no installation, no "Installed".
    static func nothingBelieved(_ s: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!s.contains("Hacked") && !s.contains("\"mode\":\"success\"") && !s.contains("Installed") && s.contains("\"operation\":\"idle\"")
                && s.contains("\"source\":\"control\""), "\(s)", sourceLocation: sourceLocation)
    }

    @Test func signalsFromAnotherClientAreNotBelieved() throws {
        if let why = RaucDaemonTests.unavailable() { print("RaucTrustTests skipped: \(why)"); return }
        let rig = Rig()
        defer { rig.close() }
        // The bus's socket is in the rig's directory: nobody must reach it to connect.
        chmod(rig.dir, 0o755)
        guard rig.prepare(), rig.startBus() else { Issue.record("no private bus: \(Proc.readFile(rig.dir + "/bus.err") ?? "")"); return }
        rig.daemon = Proc.spawn([Proc.kioskHUD, "daemon", "--offscreen", rig.dir, "--no-input", "--socket", rig.dir + "/c.sock",
                                 "--rauc", "--animation-duration", "0"], env: rig.env, stderr: rig.dir + "/d.err")
        #expect(waitForDaemon(socket: rig.dir + "/c.sock"))
        rig.waitForStatus(["\"bus\":true", "\"service\":false"])
        guard let d = rig.daemon, let daemon = Self.connections(rig).first(where: { $0.pid == d })?.name else {
            Issue.record("the daemon's connection is not on the bus: \(Self.connections(rig))"); return
        }
        let log = { Proc.readFile(rig.dir + "/d.err") ?? "" }
        let lines = { (text: String) in log().split(separator: "\n").filter { $0.contains(text) }.count }

        // 1. RAUC's name has no owner. The broadcasts are not routed here (the match rules'
        // sender); the signals sent to the daemon are refused: 2.
        Self.emitInstallerSignals(rig, to: daemon)
        // A Completed of the wrong type with a large value, five times: refused unread: 7.
        let large = String(repeating: "X", count: 4000)
        for _ in 0..<5 { _ = Self.stranger(rig, ["emit", "--destination=" + daemon, "/", "de.pengutronix.rauc.Installer", "Completed", "s", large]) }
        // A forged NameOwnerChanged naming the stranger's next connection the owner, then that
        // connection's PropertiesChanged: 9. (Unique names are handed out in order: this
        // listing's own is the highest; the forger gets the next, its accomplice the one after.)
        let highest = Self.connections(rig).compactMap { Int($0.name.split(separator: ".").last ?? "") }.max() ?? 0
        _ = Self.stranger(rig, ["emit", "--destination=" + daemon, "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameOwnerChanged", "sss",
                                "de.pengutronix.rauc", "", ":1.\(highest + 2)"])
        _ = Self.stranger(rig, ["emit", "--destination=" + daemon, "/", "org.freedesktop.DBus.Properties", "PropertiesChanged", "sa{sv}as",
                                "de.pengutronix.rauc.Installer", "1", "Operation", "s", "installing", "0"])
        var s = rig.waitForStatus(["\"refused\":9"])
        Self.nothingBelieved(s)
        #expect(s.contains("\"service\":false"), "\(s)")
        #expect(lines("rauc: ignored Completed from") == 1 && lines("rauc: ignored PropertiesChanged from") == 1
                && lines("rauc: ignored NameOwnerChanged from") == 1, "one line a kind: \(log())")
        #expect(lines("while de.pengutronix.rauc has no owner") == 2 && lines(", not org.freedesktop.DBus") == 1, "\(log())")
        #expect(!log().contains("XXXXXXXX"), "a value in the log")

        // 2. Debian's RAUC owns the name: the stranger is still not its owner (2 more).
        rig.startService()
        rig.waitForStatus(["\"service\":true", "\"operation\":\"idle\""])
        Self.emitInstallerSignals(rig, to: daemon)
        s = rig.waitForStatus(["\"refused\":11"])
        Self.nothingBelieved(s)
        #expect(lines("not de.pengutronix.rauc's owner") <= 2, "at most one line a kind: \(log())")
        #expect(rig.ctl(["ping"]).status == 0)

        // 3. RAUC's own installation is followed to its end.
        let installed = rig.install("good.raucb")
        #expect(installed.status == 0, "\(installed.err)")
        s = rig.waitForStatus(["\"mode\":\"success\"", "\"label\":\"Installed\""])
        #expect(Self.number("refused", s) == 11, "\(s)")
    }
}
