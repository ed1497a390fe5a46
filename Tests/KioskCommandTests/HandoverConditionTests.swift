// kiosk-hud-quit.service's ExecCondition, run as shipped (the line read from dist/, systemd's `$$`
// unescaped, /run/kiosk-hud moved to a test directory, `systemctl` a stub that logs): the
// handover is skipped when the daemon is not running, and then the control socket must still
// listen. A daemon carried over from the initramfs that died later leaves its marker, which keeps
// kiosk-hud.socket off (ConditionPathExists=!/run/kiosk-hud/initramfs.pid); the condition removes
// a marker whose process is no kiosk-hud and starts the socket. (systemd's side — an exit status
// of 1 skips the unit without failing it — is systemd's; the unit's syntax is checked with
// systemd-analyze verify by the unit tests.)
import Glibc
import KioskTestSupport
import Testing

@Suite struct HandoverConditionTests {
    /// The ExecCondition's shell text as /bin/sh gets it, its paths under `dir`.
    static func condition(runDir: String) throws -> String {
        let unit = try #require(Proc.readFile(Proc.root + "/dist/systemd/kiosk-hud-quit.service"))
        let line = try #require(unit.split(separator: "\n").first { $0.hasPrefix("ExecCondition=sh -c '") })
        var text = String(line.dropFirst("ExecCondition=sh -c '".count))
        #expect(text.hasSuffix("'"))
        text = String(text.dropLast())
        #expect(!text.contains("'"), "the shell text is one single-quoted word")
        return text.replacingAll("$$", with: "$").replacingAll("/run/kiosk-hud", with: runDir)
    }

    /// Runs the condition with kiosk-hud.service `active` or not; (exit status, systemctl's calls).
    static func run(_ dir: String, serviceActive: Bool) throws -> (status: Int32, calls: [String]) {
        let bin = dir + "/bin"
        _ = Proc.run(["mkdir", "-p", bin, dir + "/run"])
        let stub = """
            #!/bin/sh
            echo "$*" >> \(dir)/calls
            case "$*" in *is-active*) exit \(serviceActive ? 0 : 3) ;; esac
            exit 0
            """
        _ = Proc.run(["sh", "-c", "cat > \(bin)/systemctl <<'EOF'\n\(stub)\nEOF\nchmod 755 \(bin)/systemctl; rm -f \(dir)/calls"])
        let r = Proc.run(["/bin/sh", "-c", try condition(runDir: dir + "/run")], env: ["PATH": bin + ":/usr/bin:/bin"])
        let calls = (Proc.readFile(dir + "/calls") ?? "").split(separator: "\n").map(String.init)
        return (r.status, calls)
    }

    @Test func aRunningDaemonIsHandedOver() throws {
        let dir = Proc.makeTempDir("kiosk-quit-condition")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let r = try Self.run(dir, serviceActive: true)
        #expect(r.status == 0)
        #expect(r.calls == ["--quiet is-active kiosk-hud.service"])
    }

    @Test func aCarriedOverDaemonThatDiedLeavesTheSocketListening() throws {
        let dir = Proc.makeTempDir("kiosk-quit-condition")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        _ = Proc.run(["mkdir", "-p", dir + "/run"])
        // The marker of a process that has ended.
        let gone = try #require(Proc.spawn(["/bin/true"]))
        _ = Proc.wait(gone)
        _ = Proc.run(["sh", "-c", "echo \(gone) > \(dir)/run/initramfs.pid"])
        let r = try Self.run(dir, serviceActive: false)
        #expect(r.status == 1, "skipped, not failed")
        #expect(!Proc.exists(dir + "/run/initramfs.pid"), "the dead daemon's marker is removed")
        #expect(r.calls == ["--quiet is-active kiosk-hud.service", "--quiet --no-block start kiosk-hud.socket"])
    }

    @Test func aLiveKioskHUDKeepsItsMarker() throws {
        let dir = Proc.makeTempDir("kiosk-quit-condition")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        _ = Proc.run(["mkdir", "-p", dir + "/run"])
        // A process whose name is kiosk-hud (a copy of sleep): its marker is not stale.
        _ = Proc.run(["cp", "/bin/sleep", dir + "/kiosk-hud"])
        let live = try #require(Proc.spawn([dir + "/kiosk-hud", "30"]))
        defer { kill(live, SIGKILL); _ = Proc.wait(live) }
        _ = Proc.run(["sh", "-c", "echo \(live) > \(dir)/run/initramfs.pid"])
        let r = try Self.run(dir, serviceActive: false)
        #expect(r.status == 1)
        #expect(Proc.exists(dir + "/run/initramfs.pid"))
        #expect(r.calls.last == "--quiet --no-block start kiosk-hud.socket")
    }

    @Test func noMarkerNoDaemon() throws {
        let dir = Proc.makeTempDir("kiosk-quit-condition")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let r = try Self.run(dir, serviceActive: false)
        #expect(r.status == 1)
        #expect(r.calls == ["--quiet is-active kiosk-hud.service", "--quiet --no-block start kiosk-hud.socket"])
    }
}

private extension String {
    func replacingAll(_ a: String, with b: String) -> String {
        var out = "", rest = self[...]
        while let r = rest.firstRange(of: a) { out += rest[..<r.lowerBound]; out += b; rest = rest[r.upperBound...] }
        return out + rest
    }
}
