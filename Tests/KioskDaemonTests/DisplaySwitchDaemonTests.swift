// The daemon across a display switch (#19): its control socket answers while the firmware's
// card goes and the real one comes, and every progress update sent meanwhile lands — the new
// device's first frame shows the last one.
import Glibc
import KioskBoards
import KioskDaemon
import KioskDRM
import KioskFakeKernel
import KioskHUD
import KioskProtocol
import KioskSession
import KioskSys
import KioskTestSupport
import Testing

@Suite(.serialized) struct DisplaySwitchDaemonTests {
    func ask(_ rig: SwitchRig, _ path: String, _ line: String) throws -> JSONObject? {
        try askOnce(path, line) { try rig.run($0, until: $1) }
    }

    @Test func progressSentDuringTheSwitchAllLands() throws {
        let dir = Proc.makeTempDir("kiosk-switch")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let simpledrm = SwitchRig.card("simpledrm", 64, 48)
        let rig = try SwitchRig(mode: .bar) { $0.addCard("card0", simpledrm) }
        var settings = HUDSettings.defaults
        settings.content = rig.session.configuration.content
        let daemon = Daemon(session: rig.session, settings: settings) { _ in throw RequestError("no pictures here") }
        let socket = try ControlSocket.open(dir + "/c.sock", group: nil)
        let server = ControlServer(kernel: rig.loop.kernel, loop: rig.loop, listener: socket.fd, daemon: daemon,
                                   access: AccessRule(group: nil), log: { _ in })
        defer { server.close(); socket.close() }
        try rig.run(0.1)
        var answered = 0
        let vc4 = SwitchRig.card("vc4", 96, 64)
        for i in 1...30 {
            if i == 10 { rig.machine.removeCard("card0") }
            if i == 20 { rig.machine.addCard("card1", vc4) }
            let r = try ask(rig, dir + "/c.sock", request("update", "\"progress\":\(Double(i) / 100),\"label\":\"Step \(i)\""))
            if r?["ok"]?.bool == true { answered += 1 }
        }
        try rig.run(2) { rig.screen.switches.count == 1 }
        try rig.run(0.1)
        #expect(answered == 30)
        let status = try ask(rig, dir + "/c.sock", request("status"))
        #expect(status?["content"]?["progress"]?.double == 0.3 && status?["content"]?["label"]?.string == "Step 30")
        let hud = try #require(rig.hud)
        #expect(hud.display.width == 96 && hud.progress == 0.3 && hud.content.label == "Step 30")
        #expect(rig.scanoutShowsHUD(vc4))
    }
}
