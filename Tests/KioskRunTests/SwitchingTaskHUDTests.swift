// SwitchingTaskHUD: a task's HUD changed mid-task keeps what the task shows and its button.
import KioskHUD
import KioskRun
import KioskSession
import Testing

@Suite struct SwitchingTaskHUDTests {
    @Test func theContentAndTheButtonMoveToTheNewHUD() throws {
        let first = PressableHUD(), second = PressableHUD()
        let hud = SwitchingTaskHUD(first)
        var presses = 0
        hud.onButton { presses += 1 }
        var c = hud.content
        c.label = "Flashing"; c.progress = 0.4
        try hud.update(c, animatedProgress: true)
        #expect(first.content.label == "Flashing")
        try hud.switchTo(second)
        #expect(second.content.label == "Flashing" && second.content.progress == 0.4)
        #expect(hud.content.label == "Flashing")
        second.button?()
        #expect(presses == 1)
        c.label = "Done"
        try hud.update(c, animatedProgress: false)
        #expect(second.content.label == "Done" && first.content.label == "Flashing")
    }
}
