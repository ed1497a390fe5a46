// A client that writes its requests and closes without reading the replies (`kiosk-hud run`
// leaving the HUD as it was for a daemon that had stopped answering): every whole request it
// wrote is still carried out, in order, unanswered; then the connection is gone.
import Glibc
import KioskDaemon
import KioskSys
import Testing

@Suite(.serialized) struct LastWordsTests {
    @Test func requestsWrittenBeforeAHangUpAreAllCarriedOut() throws {
        let rig = try DaemonRig()
        let c = try RawClient(rig.path)
        c.send(request("update", "\"label\":\"Step 1\""))
        c.send(request("update", "\"label\":\"Step 2\",\"progress\":0.7"))
        c.send(request("update", "\"label\":\"Booting\",\"progress\":0.2"))
        c.send(request("hide", "\"animated\":false"))
        shutdown(c.fd, Int32(SHUT_RDWR))   // gone before the first reply could be read
        try rig.run(2) { rig.server.clientCount == 0 && !rig.session.isVisible }
        #expect(rig.daemon.settings.content.label == "Booting" && rig.daemon.settings.content.progress == 0.2,
                "\(rig.daemon.settings.content)")
        #expect(!rig.session.isVisible)
        #expect(rig.server.clientCount == 0)
    }
}
