// LongTask, the long operation on a HUD with a Cancel (`kiosk-hud run`'s, and a Swift
// program's own): on the embedded loop with a HUD that records what it was asked to show.
import KioskSeams
import KioskTestDoubles
import KioskHUD
import KioskSession
import Testing

/// A HUD that keeps every content it was given, and presses its button on demand.
final class RecordingHUD: TaskHUD {
    var content = HUDContent(mode: .indeterminate, label: "Updating")
    var shown: [HUDContent] = []
    var button: (() -> Void)?
    var isOnScreen = true
    func update(_ c: HUDContent, animatedProgress: Bool) throws { content = c; shown.append(c) }
    func onButton(_ handler: @escaping () -> Void) { button = handler }
    func press() { button?() }
}

@Suite struct LongTaskTests {
    let loop = EmbeddedEventLoop()
    let hud = RecordingHUD()

    func task(_ configure: (inout LongTask.Options) -> Void = { _ in }) -> LongTask {
        var o = LongTask.Options()
        configure(&o)
        return LongTask(hud: hud, loop: loop, options: o)
    }

    @Test func aCancelButtonAndNoProgressYet() {
        _ = task()
        #expect(hud.content.buttonTitle == "Cancel" && hud.content.buttonHasAction)
        #expect(hud.content.mode == .indeterminate && hud.content.label == "Updating")
        _ = LongTask(hud: hud, loop: loop, options: { var o = LongTask.Options(); o.cancelTitle = nil; return o }())
        #expect(!hud.content.showsButton)
    }

    @Test func progressTurnsTheSpinnerIntoABarAndNeverGoesBack() {
        let t = task { $0.progressMode = .bar }
        t.setProgress(0.3)
        #expect(hud.content.mode == .bar && hud.content.progress == 0.3)
        t.setProgress(0.2)
        t.setProgress(.nan)
        #expect(hud.content.progress == 0.3)
        t.setProgress(7)
        #expect(hud.content.progress == 1)
        let other = RecordingHUD()
        let back = LongTask(hud: other, loop: loop, options: { var o = LongTask.Options(); o.allowBackwards = true; return o }())
        back.setProgress(0.5); back.setProgress(0.25)
        #expect(other.content.progress == 0.25)
    }

    @Test func cancelShowsCancellingUntilTheWorkHasStopped() {
        let t = task()
        var cancels = 0
        var done: [TaskEnd] = []
        t.onCancel = { cancels += 1 }
        t.onDone = { done.append($0) }
        hud.press()
        #expect(cancels == 1 && t.state == .cancelling)
        #expect(hud.content.label == "Cancelling…" && !hud.content.showsButton)
        hud.press()                                      // no button now; nothing more happens
        #expect(cancels == 1)
        t.setProgress(0.9)                               // the work's last words change nothing
        #expect(hud.content.mode == .indeterminate)
        t.finished(.cancelled)
        #expect(hud.content.label == "Cancelled" && hud.content.mode == .error)
        loop.advance(by: 1.4)
        #expect(done.isEmpty)
        loop.advance(by: 0.2)
        #expect(done == [.cancelled])
    }

    /// With no display yet (`run --wait-display` before one appeared), nobody can read the end
    /// notice: the task is done at once, not after the notice's seconds.
    @Test func noNoticeToWaitForWithNothingOnScreen() {
        let t = task()
        var done: [TaskEnd] = []
        t.onDone = { done.append($0) }
        hud.isOnScreen = false
        t.finished(.success)
        #expect(hud.content.mode == .success)
        loop.advance(by: 0)
        #expect(done == [.success])
    }

    @Test func aConfirmedCancelWantsTwoTapsWithinThreeSeconds() {
        let t = task { $0.confirmCancel = true }
        var cancels = 0
        t.onCancel = { cancels += 1 }
        hud.press()
        #expect(t.state == .confirming && hud.content.label == "Tap again to cancel" && cancels == 0)
        t.setLabel("Writing")                            // kept for after the question
        loop.advance(by: 3.1)
        #expect(t.state == .running && hud.content.label == "Writing" && cancels == 0)
        hud.press()
        loop.advance(by: 1)
        hud.press()
        #expect(cancels == 1 && t.state == .cancelling && hud.content.label == "Cancelling…")
    }

    @Test func theEndNoticeAndItsTime() {
        let t = task()
        var done: [TaskEnd] = []
        t.onDone = { done.append($0) }
        t.setDetails("Step 2 of 2")
        t.finished(.success)
        #expect(hud.content.mode == .success && hud.content.label == "Done" && hud.content.details == "" && !hud.content.showsButton)
        loop.advance(by: 4.9)                            // SVProgressHUD: at least 5 s
        #expect(done.isEmpty)
        loop.advance(by: 0.2)
        #expect(done == [.success])
        t.finished(.failed("again"))                     // the end happens once
        #expect(done == [.success] && hud.content.label == "Done")

        let failed = LongTask(hud: hud, loop: loop, options: LongTask.Options())
        var ended: [TaskEnd] = []
        failed.onDone = { ended.append($0) }
        failed.finished(.failed("Failed (exit status 3)"), noticeDuration: 0)
        #expect(hud.content.mode == .error && hud.content.label == "Failed (exit status 3)")
        loop.advance(by: 0)
        #expect(ended == [.failed("Failed (exit status 3)")])
    }
}
