// A button nobody can see is not pressed: when the board's real card belongs to another program
// (the kiosk app's compositor is its DRM master) and the HUD can only be on a lesser device (the
// firmware's /dev/fb0, which nobody sees under the compositor), the screen is not active — the
// session is told `deactivated`, input presses nothing, and `status` says `active: false`. Once
// the card is the HUD's, the same key presses the button.
import KioskSeams
import KioskDRM
import KioskFakeKernel
import KioskHUD
import KioskSession
import KioskSys
import KioskTestDoubles
import Testing

@Suite struct DisplayHeldElsewhereTests {
    @Test func aKeyPressesNothingWhileTheHUDIsOnAScreenNobodySees() throws {
        let efifb = SwitchRig.fbdev("EFI VGA", 64, 48)
        let vc4 = SwitchRig.card("vc4", 96, 64)
        vc4.masterFD = 999   // the compositor's descriptor
        let rig = try SwitchRig(mode: .bar) { m in
            m.addFBDev("/dev/fb0", efifb)
            m.addCard("card0", vc4)
        }
        var events: [SessionEvent] = []
        rig.session.addObserver { events.append($0) }
        try rig.session.update { $0.buttonTitle = "Cancel"; $0.buttonHasAction = true }
        let input = ScriptedInput()
        let now = rig.clock.now
        input.add(.key(code: 28, pressed: true), at: now + 0.2)
        input.add(.key(code: 28, pressed: false), at: now + 0.25)
        try rig.session.attachInput(input)
        try rig.run(0.5)
        #expect(rig.screen.current?.device.kind == .fbdev, "on fb0 while vc4 is held")
        #expect(rig.screen.heldReal?.driver == "vc4")
        #expect(!rig.screen.isActive, "fb0 is not what the user sees")
        #expect(events.contains(.screen(.deactivated)), "\(events)")
        #expect(!events.contains { if case .hud(.buttonPressed, _) = $0 { true } else { false } }, "a key pressed a button nobody sees: \(events)")
        #expect(rig.logs.contains { $0.contains("which nobody sees while another program has") }, "\(rig.logs)")

        // The compositor lets go: the HUD is on the card (asked for every 0.1 s), active, and the key works.
        vc4.masterFD = nil
        try rig.run(2) { rig.screen.switches.count == 1 }
        try rig.run(0.1)
        #expect(rig.screen.current?.device.driver == "vc4" && rig.screen.isActive && rig.screen.heldReal == nil)
        let t = rig.clock.now
        input.add(.key(code: 28, pressed: true), at: t + 0.05)
        input.add(.key(code: 28, pressed: false), at: t + 0.1)
        try rig.run(1) { events.contains { if case .hud(.buttonPressed, _) = $0 { true } else { false } } }
        #expect(events.contains { if case .hud(.buttonPressed, _) = $0 { true } else { false } }, "\(events)")
    }

    /// A firmware card (simpledrm) held by another program is no reason to call the fbdev unseen:
    /// only a real card's master decides what is on screen.
    @Test func onlyARealCardHeldMakesTheScreenInactive() throws {
        let efifb = SwitchRig.fbdev("EFI VGA", 64, 48)
        let rig = try SwitchRig(mode: .bar) { m in m.addFBDev("/dev/fb0", efifb) }
        try rig.run(0.2)
        #expect(rig.screen.isActive && rig.screen.heldReal == nil)
    }
}
