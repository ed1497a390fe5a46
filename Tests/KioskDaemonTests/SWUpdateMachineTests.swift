// What SWUpdate's progress means on the HUD (SWUpdateMachine): a whole update as 2022.12 sends
// it (the message sequence recorded from Debian 12's swupdate installing a one-file image),
// several steps, a download, success with and without a reboot, failure with SWUpdate's reason,
// SWUpdate going away mid-update and coming back, --show-when-updating, an unknown version.
import KioskBoards
import KioskDaemon
import Testing

@Suite struct SWUpdateMachineTests {
    typealias M = SWUpdateMessage

    static func run(_ events: [SWUpdateMachine.Event], _ options: SWUpdateMachine.Options = .init()) -> (SWUpdateMachine, [[SWUpdateMachine.Action]]) {
        var m = SWUpdateMachine(options: options)
        var out: [[SWUpdateMachine.Action]] = []
        for (i, e) in events.enumerated() { out.append(m.handle(e, now: Double(i))) }
        return (m, out)
    }

    /// Debian 12's swupdate installing one file (`swupdate-client`): START, the version's info,
    /// the step, its percents, a step past the last, SUCCESS.
    static let debian12: [SWUpdateMachine.Event] = [
        .connected,
        .message(M(status: .start, steps: 1)),
        .message(M(status: .run, steps: 1, info: "{\"0\": {\"VERSION\" : \"1.0.0\"}}")),
        .message(M(status: .run, steps: 1, step: 1, image: "payload.bin", handler: "rawfile")),
        .message(M(status: .progress, steps: 1, step: 1, stepPercent: 49, image: "payload.bin", handler: "rawfile")),
        .message(M(status: .progress, steps: 1, step: 1, stepPercent: 100, image: "payload.bin", handler: "rawfile")),
        .message(M(status: .run, steps: 1, step: 2)),
        .message(M(status: .success, steps: 1, step: 2)),
    ]

    @Test func aWholeUpdate() {
        let (m, out) = Self.run(Self.debian12)
        #expect(out[0] == [])
        #expect(out[1] == [.progress(label: "Installing updates…", details: "", value: 0)])
        #expect(out[3] == [.progress(label: "payload.bin", details: "Step 1 of 1", value: 0)])
        #expect(out[4] == [.progress(label: "payload.bin", details: "Step 1 of 1", value: 0.49)])
        #expect(out[5] == [.progress(label: "payload.bin", details: "Step 1 of 1", value: 1)])
        #expect(out[6] == [.progress(label: "payload.bin", details: "Step 1 of 1", value: 1)])
        #expect(out[7] == [.success("Done")])
        #expect(m.state == .succeeded)
        #expect(m.since == 7)
    }

    @Test func stepsSourceAndDownload() {
        let (_, out) = Self.run([
            .message(M(status: .start, steps: 3, source: .suricatta)),
            .message(M(status: .download, downloadPercent: 30, source: .suricatta)),
            .message(M(status: .run, steps: 3, step: 2, stepPercent: 50, image: "rootfs", source: .suricatta)),
        ])
        #expect(out[0] == [.progress(label: "Installing updates…", details: "suricatta", value: 0)])
        #expect(out[1] == [.progress(label: "Installing updates…", details: "suricatta", value: 0.3)])
        #expect(out[2] == [.progress(label: "rootfs", details: "Step 2 of 3 · suricatta", value: 0.5)])
    }

    @Test func rebootingUnlessSWUpdateSaysNo() {
        let reboots = SWUpdateMachine.Options(rebootsAfterSuccess: true)
        #expect(Self.run(Self.debian12, reboots).1.last == [.success("Restarting…")])
        var noReboot = Self.debian12
        noReboot.insert(.message(M(status: .run, steps: 1, info: "{\"1\": { \"reboot-mode\" : \"no-reboot\"}}")), at: 2)
        #expect(Self.run(noReboot, reboots).1.last == [.success("Done")])
    }

    @Test func failureWithSWUpdatesReason() {
        let (m, out) = Self.run([
            // A new subscription's history: an earlier update's error, then this one's start.
            .notification(SWUpdateNotification(status: .failure, level: 1, text: "ERROR : an earlier update's")),
            .notification(SWUpdateNotification(status: .start, level: 3, text: "Software Update started !")),
            .message(M(status: .start, steps: 1)),
            .message(M(status: .run, steps: 1, step: 1)),
            .notification(SWUpdateNotification(status: .failure, level: 1, text: "ERROR : HASH mismatch : 0000 <--> 1234")),
            .notification(SWUpdateNotification(status: .failure, level: 1, text: "ERROR : Installer for payload.bin failed")),
            .message(M(status: .failure, steps: 1, step: 1)),
        ])
        #expect(out.last == [.failure("Update failed: HASH mismatch : 0000 <--> 1234")])
        #expect(m.state == .failed)
        // No reason known: the words alone.
        #expect(Self.run([.message(M(status: .failure))]).1.last == [.failure("Update failed")])
        #expect(Self.run([.message(M(status: .failure))], .init(words: Words(language: .de))).1.last == [.failure("Update fehlgeschlagen")])
    }

    @Test func swupdateGoesAwayMidUpdateAndComesBack() {
        let (m, out) = Self.run(Array(Self.debian12[0...4]) + [.disconnected, .connected, .disconnected] + Array(Self.debian12[1...7]))
        #expect(out[5] == [.details("The update service has stopped; waiting for it…")])
        #expect(out[6] == [] && out[7] == [])
        #expect(m.state == .succeeded)
        let (lost, _) = Self.run(Array(Self.debian12[0...4]) + [.disconnected, .connected])
        #expect(lost.state == .lost)
        #expect(lost.label == "payload.bin" && lost.progress == 0.49)
        // Away between updates: nothing on screen changes.
        let (idle, idleOut) = Self.run([.connected, .disconnected])
        #expect(idle.state == .disconnected && idleOut[1] == [])
    }

    @Test func shownOnlyWhileUpdating() {
        let options = SWUpdateMachine.Options(showWhenUpdating: true)
        let (_, out) = Self.run(Self.debian12, options)
        #expect(out[1].first == .show)
        #expect(out[3].first != .show)
        // Followed again after SWUpdate came back mid-update: shown again.
        let (_, back) = Self.run([.message(M(status: .progress, steps: 2, step: 1, stepPercent: 10, image: "a"))], options)
        #expect(back[0].first == .show)
    }

    @Test func anUnknownVersionIsOneLogLine() {
        let (m, out) = Self.run([.unsupported(version: 0x0003_0100), .connected, .disconnected])
        #expect(out[0].count == 1)
        guard case let .log(line)? = out[0].first else { Issue.record("no log line"); return }
        #expect(line.hasPrefix("swupdate: progress API version 3.1.0 is not one this daemon reads"))
        #expect(m.state == .unsupported)
    }

    @Test func theDefaultSocketPath() {
        #expect(SWUpdateProgress.defaultPath(tmpdir: nil, runDirectoryExists: false) == "/tmp/swupdateprog")
        #expect(SWUpdateProgress.defaultPath(tmpdir: "/var/tmp", runDirectoryExists: false) == "/var/tmp/swupdateprog")
        #expect(SWUpdateProgress.defaultPath(tmpdir: "", runDirectoryExists: false) == "/tmp/swupdateprog")
        #expect(SWUpdateProgress.defaultPath(tmpdir: "/var/tmp", runDirectoryExists: true) == "/run/swupdate/swupdateprog")
    }
}
