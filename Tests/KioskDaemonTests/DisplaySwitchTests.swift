// The HUD following the display from the firmware's framebuffer to the board's own driver (#19),
// in process: a `SwitchingScreen` over a `FakeMachine` whose devices come and go as at boot
// (efifb unregistered then bochs-drm's card; simpledrm's card0 unplugged and vc4's card1
// registered; both at once; a new card whose first modeset fails; a new card another program is
// master of; a card or an fbdev that vanishes while frames are being presented, before any
// uevent says so). Each time: the HUD state carried over (progress, label, shown,
// the spinner's clock), the new device's scanout equal to the HUD's picture, the old device
// released, one log line per switch.
import Glibc
import KioskPresentation
import KioskSeams
import KioskDRM
import KioskFakeKernel
import KioskHUD
import KioskRaster
import KioskSession
import KioskSys
import KioskText
import Testing

final class SwitchRig {
    let machine = FakeMachine()
    let clock = SystemClock()
    let loop: PollEventLoop
    var screen: SwitchingScreen!
    var session: HUDSession!
    var logs: [String] = []

    init(rule: DisplaySwitchRule = .first, mode: HUDMode = .indeterminate, realTimeout: Double = 8, vt: Bool = false,
         _ setup: (FakeMachine) -> Void) throws {
        setup(machine)
        loop = PollEventLoop(kernel: machine, clock: clock)
        var o = DisplaySwitchOptions()
        o.rule = rule
        o.realTimeout = realTimeout
        o.log = { [unowned self] in self.logs.append($0) }
        let m = machine
        screen = try SwitchingScreen(kernel: m, options: o, requireDisplay: true) { d in
            switch d.kind {
            case .drm:
                var o = DRMOptions()
                o.vt = vt
                o.card = d.path
                return try DRMScreen(options: o, kernel: m)
            case .fbdev:
                var f = FBDevOptions()
                f.vt = vt
                f.path = d.path
                return try FBDevScreen(options: f, kernel: m)
            }
        }
        let content = HUDContent(mode: mode, progress: 0.25, label: "Booting")
        var timing = PresentationConfig()
        timing.graceTime = 0
        session = HUDSession(loop: loop, screen: screen, fonts: try FontLibrary(), clock: clock,
                             configuration: SessionConfiguration(content: content, timing: timing, animateIn: false))
        try session.start()
    }

    deinit { screen.close(retain: false) }

    static func card(_ driver: String, _ w: Int, _ h: Int) -> FakeKernel {
        let k = FakeKernel.card(modes: [(w, h, true)])
        k.driverName = driver
        return k
    }

    static func fbdev(_ id: String, _ w: Int, _ h: Int) -> FakeKernel {
        let k = FakeKernel()
        k.cardPaths = []
        k.addFBDev(width: w, height: h, bpp: 32, id: id)
        return k
    }

    func run(_ seconds: Double, until done: () -> Bool = { false }) throws {
        let end = monotonicSeconds() + seconds
        while !done() && monotonicSeconds() < end { try loop.runOnce(timeout: 0.01) }
    }

    var hud: HUD? { session.displays.first?.hud }

    /// The device on `crtc` of `k` shows exactly the HUD's last picture — when no flip is in
    /// flight (a spinner's next frame may be on its way: looked at again a few times).
    func scanoutShowsHUD(_ k: FakeKernel, crtc: UInt32 = 30) -> Bool {
        for _ in 0..<20 {
            if scanoutEqualsHUD(k, crtc: crtc) { return true }
            try? run(0.01)
        }
        return false
    }

    func scanoutEqualsHUD(_ k: FakeKernel, crtc: UInt32) -> Bool {
        guard let h = hud, let d = k.scanout(crtc) else { return false }
        let s = h.renderer.shadow.surface
        guard d.width == s.width && d.height == s.height else { return false }
        for y in 0..<s.height where memcmp(d.memory + y * d.pitch, s.base + y * s.stride, s.width * 4) != 0 { return false }
        return true
    }

    func fbdevShowsHUD(_ k: FakeKernel) -> Bool {
        guard let h = hud else { return false }
        let s = h.renderer.shadow.surface
        for y in 0..<s.height where memcmp(k.fbVisibleRow(y), s.base + y * s.stride, s.width * 4) != 0 { return false }
        return true
    }

    /// A rig whose spinner has drawn for 0.2 s on `device` (card0, or /dev/fb0 when it has no
    /// cards), and its HUD.
    static func drawing(on device: FakeKernel) throws -> (SwitchRig, HUD) {
        let rig = try SwitchRig { m in
            if device.cardPaths.isEmpty { m.addFBDev("/dev/fb0", device) } else { m.addCard("card0", device) }
        }
        try rig.run(0.2)
        return (rig, try #require(rig.hud))
    }

    /// The device drawn on vanished with no uevent: within `seconds` the session has no display,
    /// goes on, has closed the device and said so.
    func expectGone(_ device: FakeKernel, _ name: String, within seconds: Double) throws {
        try run(seconds) { self.session.displays.isEmpty }
        #expect(session.displays.isEmpty && session.ended == nil && device.openFDs.isEmpty)
        #expect(logs.contains { $0.contains("\(name) is gone") }, "\(logs)")
    }

    /// `card` plugged in as `name`: the HUD moves there with `old`'s state and shows on it.
    func expectMoved(from old: HUD, to card: FakeKernel, as name: String) throws {
        machine.addCard(name, card)
        try run(2) { self.screen.switches.count == 1 }
        let new = try #require(hud)
        #expect(SwitchRig.sameState(old, new) && scanoutShowsHUD(card))
    }

    /// The old HUD's state and the new one's agree (the spinner on the same clock): sampled
    /// around the new one's, so a spinner step in between does not count as a difference.
    static func sameState(_ old: HUD, _ new: HUD) -> Bool {
        let a = old.frameState(), n = new.frameState(), b = old.frameState()
        return n == a || n == b
    }
}

@Suite(.serialized) struct DisplaySwitchTests {
    /// efifb is /dev/fb0 at start; bochs-drm unregisters it, then registers card0: the HUD goes
    /// from the fbdev to the card with its state, the fbdev is released.
    @Test func fbdevRemovedThenACardAdded() throws {
        let efifb = SwitchRig.fbdev("EFI VGA", 64, 48)
        let rig = try SwitchRig(mode: .bar) { $0.addFBDev("/dev/fb0", efifb) }
        #expect(rig.screen.current?.device == ScreenDevice(kind: .fbdev, path: "/dev/fb0", driver: "EFI VGA"))
        try rig.run(0.1)
        rig.session.setProgress(0.4, animated: false)
        try rig.session.update { $0.label = "Mounting" }
        try rig.run(0.1)
        #expect(rig.fbdevShowsHUD(efifb))
        let old = try #require(rig.hud)
        rig.machine.removeFBDev("/dev/fb0")
        try rig.run(1) { rig.session.displays.isEmpty }
        #expect(rig.session.displays.isEmpty && rig.screen.current == nil)
        #expect(efifb.leaks.isEmpty, "\(efifb.leaks)")
        rig.session.setProgress(0.5, animated: false)   // while there is no display at all
        let bochs = SwitchRig.card("bochs-drm", 80, 60)
        rig.machine.addCard("card0", bochs)
        try rig.run(2) { rig.screen.switches.count == 1 }
        try rig.run(0.1)
        let r = try #require(rig.screen.switches.first)
        #expect(r.from?.driver == "EFI VGA" && r.to == ScreenDevice(kind: .drm, path: "/dev/dri/card0", driver: "bochs-drm"))
        #expect(r.gap != nil && r.firstFrame < 1)
        let new = try #require(rig.hud)
        #expect(new !== old && new.display.width == 80 && new.progress == 0.5 && new.content.label == "Mounting" && new.isVisible)
        #expect(rig.scanoutShowsHUD(bochs))
        #expect(rig.logs.filter { $0.hasPrefix("display-switch ") }.count == 1, "\(rig.logs)")
        #expect(rig.logs.contains { $0.hasPrefix("display-switch from=\"EFI VGA /dev/fb0\" to=\"bochs-drm /dev/dri/card0\"") && $0.contains("gap_ms=") })
        rig.screen.close(retain: false)
        #expect(rig.machine.leaks.isEmpty, "\(rig.machine.leaks)")
    }

    /// simpledrm is card0; vc4 takes over: card0 unplugged, then card1 registered. The spinner
    /// keeps turning on the same clock; card0's descriptors are closed.
    @Test func simpledrmRemovedAndVC4AddedUnderAnotherNumber() throws {
        let simpledrm = SwitchRig.card("simpledrm", 64, 48)
        let rig = try SwitchRig { $0.addCard("card0", simpledrm) }
        try rig.run(0.2)
        #expect(rig.scanoutShowsHUD(simpledrm))
        let old = try #require(rig.hud)
        rig.machine.removeCard("card0")
        try rig.run(1) { rig.session.displays.isEmpty }
        let vc4 = SwitchRig.card("vc4", 96, 64)
        rig.machine.addCard("card1", vc4)
        try rig.run(2) { rig.screen.switches.count == 1 }
        let new = try #require(rig.hud)
        #expect(rig.screen.current?.device == ScreenDevice(kind: .drm, path: "/dev/dri/card1", driver: "vc4"))
        #expect(SwitchRig.sameState(old, new), "\(old.frameState()) vs \(new.frameState())")
        try rig.run(0.3)   // the spinner turns on: frames keep going to vc4
        #expect(rig.scanoutShowsHUD(vc4) && vc4.setCRTCs + vc4.flipsDone > 2)
        #expect(simpledrm.openFDs.isEmpty && simpledrm.masterFD == nil)
    }

    /// Both at once: vc4's card1 appears while simpledrm's card0 is still there (better: moved
    /// to at once, card0 released and its console restored), then card0 goes (nothing to do);
    /// and the same with both uevents read in one batch.
    @Test func bothAtOnce() throws {
        let simpledrm = SwitchRig.card("simpledrm", 64, 48)
        let rig = try SwitchRig { $0.addCard("card0", simpledrm) }
        try rig.run(0.2)
        let vc4 = SwitchRig.card("vc4", 96, 64)
        rig.machine.addCard("card1", vc4)
        try rig.run(2) { rig.screen.switches.count == 1 }
        #expect(rig.screen.switches.first?.from?.driver == "simpledrm" && rig.screen.switches.first?.gap != nil)
        #expect(simpledrm.openFDs.isEmpty && simpledrm.consoleRestored)
        rig.machine.removeCard("card0")
        try rig.run(0.3)
        #expect(rig.screen.switches.count == 1 && rig.scanoutShowsHUD(vc4))

        let simpledrm2 = SwitchRig.card("simpledrm", 64, 48)
        let rig2 = try SwitchRig { $0.addCard("card0", simpledrm2) }
        try rig2.run(0.2)
        let vc42 = SwitchRig.card("vc4", 96, 64)
        rig2.machine.removeCard("card0")
        rig2.machine.addCard("card1", vc42)
        try rig2.run(2) { rig2.screen.switches.count == 1 }
        try rig2.run(0.1)
        #expect(rig2.scanoutShowsHUD(vc42) && rig2.screen.switches.count == 1 && simpledrm2.openFDs.isEmpty)
    }

    /// The new card's first modeset fails: the HUD stays on simpledrm (shown again, whole), the
    /// new card is released and tried again 0.25 s later, and then taken.
    @Test func theNewDeviceFailsItsFirstModeset() throws {
        let simpledrm = SwitchRig.card("simpledrm", 64, 48)
        let rig = try SwitchRig(mode: .bar) { $0.addCard("card0", simpledrm) }
        try rig.run(0.2)
        let vc4 = SwitchRig.card("vc4", 96, 64)
        vc4.setCRTCErrno = EINVAL
        rig.machine.addCard("card1", vc4)
        try rig.run(0.15) { rig.logs.contains { $0.contains("its first frame failed") } }
        try rig.run(0.05)
        #expect(rig.screen.current?.device.driver == "simpledrm" && rig.session.ended == nil)
        #expect(rig.hud?.display.width == 64 && rig.scanoutShowsHUD(simpledrm) && vc4.openFDs.isEmpty)
        vc4.setCRTCErrno = nil
        try rig.run(2) { rig.screen.switches.count == 1 }
        try rig.run(0.1)
        #expect(rig.screen.current?.device.driver == "vc4" && rig.scanoutShowsHUD(vc4) && simpledrm.openFDs.isEmpty)
        #expect(rig.logs.contains { $0.contains("trying again in 0.25 s") })
    }

    /// The new card is held by another program (its DRM master: a console helper, a splash)
    /// when the old device is gone: asked for every 0.1 s, one log line, never given up; once
    /// that program lets go, the HUD is on it within a retry, with its state.
    @Test func theNewCardIsHeldByAnotherProgram() throws {
        let simpledrm = SwitchRig.card("simpledrm", 64, 48)
        let rig = try SwitchRig(mode: .bar) { $0.addCard("card0", simpledrm) }
        try rig.run(0.2)
        rig.session.setProgress(0.6, animated: false)
        rig.machine.removeCard("card0")
        let vc4 = SwitchRig.card("vc4", 96, 64)
        vc4.masterFD = 999   // another program's descriptor
        rig.machine.addCard("card1", vc4)
        try rig.run(2.2)   // longer than the five retries of a failing device
        #expect(rig.screen.current == nil && rig.session.ended == nil && vc4.openFDs.isEmpty)
        #expect(rig.logs.filter { $0.contains("is held by another program") }.count == 1, "\(rig.logs)")
        #expect(!rig.logs.contains { $0.contains("given up") })
        vc4.masterFD = nil
        let t0 = monotonicSeconds()
        try rig.run(2) { rig.screen.switches.count == 1 }
        #expect(monotonicSeconds() - t0 < 0.5)
        try rig.run(0.05)
        #expect(rig.hud?.progress == 0.6 && rig.scanoutShowsHUD(vc4) && vc4.masterFD != nil)
    }

    /// card0 is unplugged while the spinner's frames go to it, before any uevent says so: the
    /// failing present is the news; the HUD waits with its state for the next card.
    @Test func theOldDeviceVanishesMidPresent() throws {
        let simpledrm = SwitchRig.card("simpledrm", 64, 48)
        let (rig, old) = try SwitchRig.drawing(on: simpledrm)
        rig.machine.removeCard("card0", uevent: false)
        // A flip in flight when the card went never lands: noticed at the flip timeout (1 s).
        try rig.expectGone(simpledrm, "simpledrm /dev/dri/card0", within: 3)
        try rig.expectMoved(from: old, to: SwitchRig.card("vc4", 96, 64), as: "card1")
    }

    /// efifb unregistered with no uevent (none listened for, or not read yet) while the spinner
    /// draws: the next present finds it gone before writing (the memory behind the old mapping
    /// is the new driver's); the HUD waits with its state and goes to the card when it comes.
    @Test func theFBDevVanishesWithNoUevent() throws {
        let efifb = SwitchRig.fbdev("EFI VGA", 64, 48)
        let (rig, old) = try SwitchRig.drawing(on: efifb)
        rig.machine.removeFBDev("/dev/fb0", uevent: false)
        let bytes = Int(efifb.fbFix.smem_len)
        efifb.fbMemory!.initializeMemory(as: UInt8.self, repeating: 0xAB, count: bytes)
        try rig.expectGone(efifb, "EFI VGA /dev/fb0", within: 1)
        try rig.run(0.2)
        let untouched = UnsafeRawBufferPointer(start: efifb.fbMemory!, count: bytes).allSatisfy { $0 == 0xAB }
        #expect(untouched, "a frame was written into the unregistered fbdev's memory")
        try rig.expectMoved(from: old, to: SwitchRig.card("bochs-drm", 80, 60), as: "card0")
    }

    /// The new output decides rotation and format: from an RGB565 fbdev to a card whose panel
    /// says "Right Side Up" (known only to the real driver), the HUD is laid out portrait in
    /// XRGB8888 with its state, and touch follows onto the new picture.
    @Test func theNewOutputsRotationAndFormatAreTaken() throws {
        let fb = FakeKernel()
        fb.cardPaths = []
        fb.addFBDev(width: 64, height: 48, bpp: 16, id: "simple")
        let rig = try SwitchRig(mode: .bar) { $0.addFBDev("/dev/fb0", fb) }
        let input = FollowingInput()
        try rig.session.attachInput(input)
        try rig.run(0.1)
        rig.session.setProgress(0.3, animated: false)
        #expect(rig.hud?.display.preferredFormat == .rgb565 && rig.hud?.display.transform.rotation == Rotation.none)
        rig.machine.removeFBDev("/dev/fb0")
        let card = SwitchRig.card("vc4", 96, 64)
        card.connectors[0].props.append((3, 3))   // panel orientation: Right Side Up
        rig.machine.addCard("card0", card)
        try rig.run(2) { rig.screen.switches.count == 1 }
        let h = try #require(rig.hud)
        #expect(h.display.transform == DisplayTransform(rotation: .quarter, width: 64, height: 96))
        #expect(h.display.preferredFormat == .xrgb8888 && h.progress == 0.3)
        // Touch is mapped onto the new picture (the input carries on, following it).
        #expect(input.followed.last == h.display.transform, "\(input.followed)")
    }

    /// Records the pictures the session asks input to map onto.
    final class FollowingInput: InputSource {
        var followed: [DisplayTransform] = []
        func events(until time: Seconds) -> [TimedInputEvent] { [] }
        func attach(to loop: EventLoop, _ ready: @escaping () -> Void) throws {}
        func detach() {}
        func follow(_ transform: DisplayTransform) { followed.append(transform) }
    }

    /// A card whose node is there before the device is ready (drm_dev_register makes the node,
    /// then registers: its calls fail with ENODEV until then) is no display yet and no error:
    /// nothing logged; once ready it is found.
    @Test func aCardStillBeingRegisteredIsNotAnError() throws {
        let machine = FakeMachine()
        let card = SwitchRig.card("bochs-drm", 80, 60)
        card.unplugged = true
        machine.addCard("card0", card)
        var logs: [String] = []
        #expect(ScreenDevice.scan(kernel: machine) { logs.append($0) }.isEmpty && logs.isEmpty, "\(logs)")
        card.unplugged = false
        #expect(ScreenDevice.scan(kernel: machine) { logs.append($0) } == [ScreenDevice(kind: .drm, path: "/dev/dri/card0", driver: "bochs-drm")])
    }

    /// wait-real: nothing is drawn on simpledrm while waiting; vc4 is taken when it comes. After
    /// the timeout with none, simpledrm is shown on.
    @Test func waitRealWaitsForTheRealCard() throws {
        let simpledrm = SwitchRig.card("simpledrm", 64, 48)
        let rig = try SwitchRig(rule: .waitReal) { $0.addCard("card0", simpledrm) }
        try rig.run(0.2)
        #expect(rig.screen.waitingForReal && rig.session.displays.isEmpty && simpledrm.setCRTCs == 0)
        let vc4 = SwitchRig.card("vc4", 96, 64)
        rig.machine.addCard("card1", vc4)
        try rig.run(2) { rig.screen.switches.count == 1 }
        #expect(rig.screen.current?.device.driver == "vc4" && simpledrm.setCRTCs == 0)

        let simpledrm2 = SwitchRig.card("simpledrm", 64, 48)
        let rig2 = try SwitchRig(rule: .waitReal, realTimeout: 0.2) { $0.addCard("card0", simpledrm2) }
        try rig2.run(2) { rig2.screen.switches.count == 1 }
        #expect(rig2.screen.current?.device.driver == "simpledrm" && rig2.scanoutShowsHUD(simpledrm2))
    }

    /// The VT: taken once by the fbdev screen (VT_PROCESS, graphics mode), handed to the card's
    /// screen at the switch (not given back in between), and given back as it was at the end.
    @Test func theVTIsHandedOver() throws {
        let efifb = SwitchRig.fbdev("EFI VGA", 64, 48)
        let rig = try SwitchRig(vt: true) { m in
            m.system.hasVT = true
            m.addFBDev("/dev/fb0", efifb)
        }
        try rig.run(0.1)
        let vt = rig.machine.system
        #expect(vt.vtMode.mode == 1 && vt.kdMode == 1)
        let bochs = SwitchRig.card("bochs-drm", 80, 60)
        rig.machine.addCard("card0", bochs)
        rig.machine.removeFBDev("/dev/fb0")
        try rig.run(2) { rig.screen.switches.count == 1 }
        #expect(vt.vtMode.mode == 1 && vt.kdMode == 0 && vt.ttyFDs.count == 1, "\(vt.ttyFDs)")
        rig.screen.close(retain: false)
        #expect(vt.vtMode.mode == 0 && vt.ttyFDs.isEmpty && rig.machine.leaks.isEmpty, "\(rig.machine.leaks)")
    }

    /// Through the switching screen the spinner keeps its pace (12 phases a second, one page
    /// flip each): nothing is lost to the wrapper.
    @Test func theSpinnerKeepsItsPace() throws {
        let bochs = SwitchRig.card("bochs-drm", 64, 48)
        let rig = try SwitchRig { $0.addCard("card0", bochs) }
        try rig.run(0.1)
        let before = bochs.flipsDone
        try rig.run(1.0)
        #expect(bochs.flipsDone - before >= 10, "\(bochs.flipsDone - before) flips in 1 s")
    }

    /// A board naming its driver: another real card does not take the HUD; the named one does.
    @Test func theBoardsDriverIsTheOneMovedTo() throws {
        #expect(DisplaySwitchRule("vc4") == .driver("vc4") && DisplaySwitchRule("wait-real") == .waitReal)
        #expect(DisplaySwitchRule("") == nil && DisplaySwitchRule("Vc4") == nil && DisplaySwitchRule("a/b") == nil)
        let simpledrm = SwitchRig.card("simpledrm", 64, 48)
        let rig = try SwitchRig(rule: .driver("vc4")) { $0.addCard("card0", simpledrm) }
        try rig.run(0.2)
        rig.machine.addCard("card1", SwitchRig.card("panel-mipi-dbi", 32, 24))
        try rig.run(0.3)
        #expect(rig.screen.switches.isEmpty && rig.screen.current?.device.driver == "simpledrm")
        rig.machine.addCard("card2", SwitchRig.card("vc4", 96, 64))
        try rig.run(2) { rig.screen.switches.count == 1 }
        #expect(rig.screen.current?.device.path == "/dev/dri/card2")
    }
}

/// `--display-switch DRIVER` names a card's driver by either name: the DRM driver's own
/// (DRM_IOCTL_VERSION, "vc4") or the sysfs driver its device is bound to ("vc4-drm", the DRIVER=
/// line of its device's uevent), as `[match] drm_driver` does.
@Suite struct DisplaySwitchDriverNameTests {
    static let simpledrm = ScreenDevice(kind: .drm, path: "/dev/dri/card0", driver: "simpledrm")
    static var vc4: ScreenDevice {
        var d = ScreenDevice(kind: .drm, path: "/dev/dri/card1", driver: "vc4")
        d.sysfsDriver = "vc4-drm"
        return d
    }

    @Test(arguments: ["vc4", "vc4-drm"])
    func eitherNamePicksAndMoves(_ name: String) throws {
        let rule = try #require(DisplaySwitchRule(name))
        #expect(rule.pick([Self.simpledrm, Self.vc4]) == Self.vc4)
        #expect(rule.isBetter(Self.vc4, than: Self.simpledrm))
        #expect(!rule.isBetter(Self.simpledrm, than: Self.vc4))
        #expect(!DisplaySwitchRule.driver("vc4-kms").isBetter(Self.vc4, than: Self.simpledrm))
    }

    @Test func ueventsDriverLine() {
        #expect(ScreenDevice.sysfsDriver(fromUevent: "OF_NAME=gpu\nDRIVER=vc4-drm\nMODALIAS=of:NgpuT\n") == "vc4-drm")
        #expect(ScreenDevice.sysfsDriver(fromUevent: "PCI_ID=1234:1111\n") == nil)
        #expect(ScreenDevice.sysfsDriver(fromUevent: "DRIVER=\n") == nil)
    }
}
