// LongTask when its HUD can no longer be seen (a daemon that stopped answering): the end notice
// being shown ends at once, and nothing else changes.
import KioskTestDoubles
import KioskHUD
import KioskSession
import Testing

@Suite struct LongTaskLostHUDTests {
    @Test func theNoticeEndsWhenTheHUDIsLost() {
        let loop = EmbeddedEventLoop()
        let hud = RecordingHUD()
        let t = LongTask(hud: hud, loop: loop)
        var done: [TaskEnd] = []
        t.onDone = { done.append($0) }
        t.hudLost()   // still running: nothing to cut short
        #expect(done.isEmpty && t.state == .running)
        t.finished(.success)
        loop.advance(by: 1)
        #expect(done.isEmpty, "the notice stays its 5 s")
        hud.isOnScreen = false
        t.hudLost()
        #expect(done == [.success])
        loop.advance(by: 10)
        t.hudLost()
        #expect(done == [.success], "onDone once")
    }
}
