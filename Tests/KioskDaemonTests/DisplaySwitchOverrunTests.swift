// The display switch when the new card's uevent is lost: at boot udev's coldplug trigger replays
// every device's uevent while the board's driver (vc4 after simpledrm) registers its card, and the
// uevent socket's buffer overruns — the kernel says so on the next read (ENOBUFS). The screen must
// look again then, or it stays on the firmware's device (WaitDisplayOverrunTests: the same for a
// daemon still waiting for its first display).
import KioskDRM
import KioskFakeKernel
import Testing

@Suite(.serialized) struct DisplaySwitchOverrunTests {
    /// simpledrm is card0; vc4's card1 registers with its uevent lost in an overrun: the HUD
    /// moves to it all the same.
    @Test func aLostUeventStillMovesToTheNewCard() throws {
        let simpledrm = SwitchRig.card("simpledrm", 64, 48)
        let rig = try SwitchRig { $0.addCard("card0", simpledrm) }
        try rig.run(0.2)
        #expect(rig.scanoutShowsHUD(simpledrm))
        let vc4 = SwitchRig.card("vc4", 96, 64)
        rig.machine.addCard("card1", vc4, uevent: false)
        rig.machine.overrun()
        try rig.run(2) { rig.screen.switches.count == 1 }
        #expect(rig.screen.current?.device == ScreenDevice(kind: .drm, path: "/dev/dri/card1", driver: "vc4"), "\(rig.logs)")
        try rig.run(0.1)
        #expect(rig.scanoutShowsHUD(vc4))
    }
}
