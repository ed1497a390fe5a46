import KioskSeams
import KioskTestDoubles
import KioskHUD
import KioskText
import Testing

/// The earlier API's closures, kept (deprecated) for callers written against it: reached through
/// a protocol here so that the test itself builds without the deprecation warnings a caller sees.
protocol EarlierHUDAPI: AnyObject {
    var onCompletion: (() -> Void)? { get set }
    var onButton: (() -> Void)? { get set }
    var onTapOutside: (() -> Void)? { get set }
}
extension HUD: EarlierHUDAPI {}

@Suite struct DeprecatedHUDAPITests {
    func make() throws -> (HUD, ManualClock) {
        let display = try OffscreenDisplay(width: 320, height: 240)
        let clock = ManualClock(100)
        let hud = try HUD(display: display, clock: clock, fonts: FontLibrary(),
                          content: HUDContent(mode: .annular, label: "Working", buttonTitle: "Cancel", buttonHasAction: true))
        return (hud, clock)
    }

    /// onCompletion is called once per completed hide, as an observer's `.hidden` is, and after
    /// the observers added before it; replacing it or setting nil stops the old closure.
    @Test func onCompletionIsCalledOncePerHide() throws {
        let (hud, clock) = try make()
        var order: [String] = []
        hud.addObserver { if $0 == .hidden { order.append("observer") } }
        let earlier: EarlierHUDAPI = hud
        #expect(earlier.onCompletion == nil)
        earlier.onCompletion = { order.append("first") }
        #expect(earlier.onCompletion != nil)
        hud.show(animated: false)
        try hud.tick()
        hud.hide(animated: false)
        clock.advance(by: 1)
        try hud.tick()
        #expect(order == ["observer", "first"])

        earlier.onCompletion = { order.append("second") }
        hud.show(animated: false)
        hud.hide(animated: true)
        clock.advance(by: 0.1)
        try hud.tick()
        #expect(order == ["observer", "first"], "not before the hide animation ends")
        clock.advance(by: 1)
        try hud.tick()
        #expect(order == ["observer", "first", "observer", "second"])

        earlier.onCompletion = nil
        hud.show(animated: false)
        hud.hide(animated: false)
        clock.advance(by: 1)
        try hud.tick()
        #expect(order == ["observer", "first", "observer", "second", "observer"])
    }

    /// onButton and onTapOutside follow the button's events.
    @Test func onButtonAndOnTapOutside() throws {
        let (hud, _) = try make()
        var calls: [String] = []
        let earlier: EarlierHUDAPI = hud
        earlier.onButton = { calls.append("button") }
        earlier.onTapOutside = { calls.append("outside") }
        hud.show(animated: false)
        try hud.tick()
        #expect(hud.pressButton())
        #expect(calls == ["button"])
        #expect(earlier.onTapOutside != nil)
    }

    /// The closures' observer holds the HUD unowned: a HUD with closures set is freed.
    @Test func closuresDoNotKeepTheHUDAlive() throws {
        weak var gone: HUD?
        do {
            let (hud, _) = try make()
            let earlier: EarlierHUDAPI = hud
            earlier.onCompletion = {}
            gone = hud
        }
        #expect(gone == nil)
    }
}
