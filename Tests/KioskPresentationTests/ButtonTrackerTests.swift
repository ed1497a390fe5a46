import KioskPresentation
import Testing

/// touchUpInside semantics of the HUD's button.
@Suite struct ButtonTrackerTests {
    let button = HitRect(x: 100, y: 200, width: 60, height: 20)
    let bezel = HitRect(x: 50, y: 100, width: 200, height: 150)

    func tracker(tapOutside: Bool = false) -> ButtonTracker {
        var t = ButtonTracker(config: ButtonTrackerConfig(slop: 8, tapOutside: tapOutside))
        _ = t.setGeometry(button: button, bezel: bezel)
        return t
    }

    @Test func tapInsideActivates() {
        var t = tracker()
        #expect(t.handle(.down(id: 0, x: 130, y: 210)) == [.highlight(true)])
        #expect(t.highlighted)
        #expect(t.handle(.up(id: 0)) == [.highlight(false), .activate])
        #expect(!t.highlighted && t.tracking == nil)
    }

    @Test func downOutsideButtonNeverActivates() {
        var t = tracker()
        #expect(t.handle(.down(id: 0, x: 60, y: 110)).isEmpty)
        #expect(t.handle(.move(id: 0, x: 130, y: 210)).isEmpty, "sliding onto the button does not arm it")
        #expect(t.handle(.up(id: 0)).isEmpty)
    }

    @Test func slopKeepsTheHighlight() {
        var t = tracker()
        _ = t.handle(.down(id: 0, x: 150, y: 210))
        #expect(t.handle(.move(id: 0, x: 165, y: 210)).isEmpty, "5 px outside, within the 8 px slop")
        #expect(t.handle(.up(id: 0)) == [.highlight(false), .activate])
    }

    @Test func slideOutAndBack() {
        var t = tracker()
        _ = t.handle(.down(id: 0, x: 150, y: 210))
        #expect(t.handle(.move(id: 0, x: 200, y: 210)) == [.highlight(false)])
        #expect(t.handle(.move(id: 0, x: 210, y: 260)).isEmpty)
        #expect(t.handle(.move(id: 0, x: 140, y: 205)) == [.highlight(true)])
        #expect(t.handle(.up(id: 0)) == [.highlight(false), .activate])
    }

    @Test func slideOutAndLiftDoesNotActivate() {
        var t = tracker()
        _ = t.handle(.down(id: 0, x: 150, y: 210))
        _ = t.handle(.move(id: 0, x: 300, y: 300))
        #expect(t.handle(.up(id: 0)).isEmpty)
        #expect(!t.highlighted)
    }

    @Test func onlyTheFirstFingerCounts() {
        var t = tracker()
        _ = t.handle(.down(id: 3, x: 110, y: 205))
        #expect(t.handle(.down(id: 4, x: 120, y: 215)).isEmpty)
        #expect(t.handle(.move(id: 4, x: 400, y: 400)).isEmpty)
        #expect(t.handle(.up(id: 4)).isEmpty, "the second finger lifting does nothing")
        #expect(t.highlighted)
        #expect(t.handle(.up(id: 3)) == [.highlight(false), .activate])
        // Once released, a new finger may take it.
        #expect(t.handle(.down(id: 4, x: 120, y: 215)) == [.highlight(true)])
    }

    @Test func cancelCancels() {
        var t = tracker()
        _ = t.handle(.down(id: 0, x: 150, y: 210))
        #expect(t.handle(.cancel(id: 0)) == [.highlight(false)])
        #expect(t.handle(.up(id: 0)).isEmpty)
    }

    @Test func buttonGoingAwayCancels() {
        var t = tracker()
        _ = t.handle(.down(id: 0, x: 150, y: 210))
        #expect(t.setGeometry(button: nil, bezel: bezel) == [.highlight(false)])
        #expect(t.handle(.up(id: 0)).isEmpty)
    }

    @Test func mouseWorksTheSame() {
        var t = tracker()
        #expect(t.handle(.down(id: -1, x: 105, y: 201)) == [.highlight(true)])
        #expect(t.handle(.up(id: -1)) == [.highlight(false), .activate])
    }

    @Test(arguments: [28, 57, 1, 96])
    func activationKeys(_ code: Int) {
        var t = tracker()
        #expect(t.handle(.key(code: code, pressed: true)) == [.highlight(true)])
        #expect(t.handle(.key(code: code, pressed: false)) == [.highlight(false), .activate])
    }

    @Test func otherKeysAndNoButtonDoNothing() {
        var t = tracker()
        #expect(t.handle(.key(code: 30, pressed: true)).isEmpty)
        var none = ButtonTracker()
        _ = none.setGeometry(button: nil, bezel: bezel)
        #expect(none.handle(.key(code: 28, pressed: true)).isEmpty)
        #expect(none.handle(.down(id: 0, x: 130, y: 210)).isEmpty)
    }

    @Test func configurableKeys() {
        var t = ButtonTracker(config: ButtonTrackerConfig(activationKeys: [59]))
        _ = t.setGeometry(button: button, bezel: bezel)
        #expect(t.handle(.key(code: 28, pressed: true)).isEmpty)
        #expect(t.handle(.key(code: 59, pressed: true)) == [.highlight(true)])
    }

    @Test func tapOutside() {
        var off = tracker()
        _ = off.handle(.down(id: 0, x: 10, y: 10))
        #expect(off.handle(.up(id: 0)).isEmpty, "ignored unless enabled")
        var on = tracker(tapOutside: true)
        _ = on.handle(.down(id: 0, x: 10, y: 10))
        #expect(on.handle(.up(id: 0)) == [.tapOutside])
        // Inside the bezel but off the button: nothing.
        _ = on.handle(.down(id: 1, x: 60, y: 110))
        #expect(on.handle(.up(id: 1)).isEmpty)
        // A drag that starts outside and ends inside the bezel is not a tap outside.
        _ = on.handle(.down(id: 2, x: 10, y: 10))
        _ = on.handle(.move(id: 2, x: 100, y: 150))
        #expect(on.handle(.up(id: 2)).isEmpty)
    }

    @Test func nonsenseCoordinatesAreIgnored() {
        var t = tracker()
        #expect(t.handle(.down(id: 0, x: .nan, y: 210)).isEmpty)
        #expect(t.handle(.move(id: 0, x: .infinity, y: 0)).isEmpty)
    }
}
