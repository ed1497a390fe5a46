import CKioskSys
import Glibc
import KioskSeams
@testable import KioskDRM
import KioskFakeKernel
import KioskRaster
import KioskSys
import Testing

/// Presenting: two buffers, flips paced by flip events, only damage copied (the union of the
/// last two frames'), never into the buffer on screen; fallbacks; rotation; quitting.
@Suite struct DRMPresentTests {
    /// Every frame ends up on screen exactly (the back buffer gets what it missed), page flips
    /// carry every frame after the first, and no buffer is written while on screen.
    @Test(arguments: Rotation.allCases)
    func flipsShowEveryFrameExactly(_ rotation: Rotation) throws {
        let k = FakeKernel.card()
        k.flipLatencyPolls = 1
        let s = try openScreen(k) { $0.rotation = rotation }
        let o = try #require(s.drmDisplays.first)
        #expect(o.transform.rotation == rotation)
        let swapped = rotation == .quarter || rotation == .threeQuarters
        #expect(o.width == (swapped ? 48 : 64) && o.height == (swapped ? 64 : 48))
        let pic = try Picture(width: o.width, height: o.height)
        try o.present(pic.surface, damage: .whole)
        #expect(scanoutShows(k, crtc: 30, pic.surface, rotation: rotation))
        for _ in 0..<40 {
            try o.present(pic.surface, damage: .region(pic.next()))   // waits for the previous flip first
            try settle(s)
            #expect(scanoutShows(k, crtc: 30, pic.surface, rotation: rotation), "frame \(pic.frame) not on screen as drawn")
        }
        #expect(k.count("ioctl(DRM_IOCTL_MODE_PAGE_FLIP)") == 40)
        #expect(k.setCRTCs == 1)
        #expect(s.flipsCompleted == 40 && o.flips == 40)
        #expect(k.scanoutWrites == 0, "a buffer was written while on screen")
        #expect(s.scanoutViolations == 0)
        s.close(retain: false)
        #expect(k.leaks.isEmpty && k.consoleRestored)
    }

    /// A present while the previous flip is still in flight does not wait and does not draw into
    /// a buffer the kernel may still show: the frame is owed, and goes out (by the next flip) as
    /// soon as the flip-complete event comes — waiting for a flip is an event, not a blocking call.
    @Test func presentWhileAFlipIsInFlightIsOwed() throws {
        let k = FakeKernel.card()
        k.flipLatencyPolls = 3
        let s = try openScreen(k) { $0.checkScanout = true }
        let o = try #require(s.drmDisplays.first)
        let pic = try Picture(width: o.width, height: o.height)
        try o.present(pic.surface, damage: .whole)
        try o.present(pic.surface, damage: .region(pic.next()))
        #expect(o.flipPending)
        let polls = k.count("poll"), flips = k.count("ioctl(DRM_IOCTL_MODE_PAGE_FLIP)")
        try o.present(pic.surface, damage: .region(pic.next()))
        #expect(k.count("poll") == polls, "present waited")
        #expect(o.owesFrame && k.count("ioctl(DRM_IOCTL_MODE_PAGE_FLIP)") == flips)
        let frameDone = try s.wait(timeout: 0.5)
        #expect(frameDone.contains(.frameDone))
        #expect(!o.owesFrame && k.count("ioctl(DRM_IOCTL_MODE_PAGE_FLIP)") == flips + 1)
        #expect(k.scanoutWrites == 0 && s.scanoutViolations == 0)
        try settle(s)
        #expect(scanoutShows(k, crtc: 30, pic.surface, rotation: .none))
        s.close(retain: false)
    }

    /// Only damage is copied: after the first two full copies, a frame with an 8×8 damage copies
    /// the union of the last two frames' damage, not the whole picture.
    @Test func copiesOnlyTheLastTwoFramesDamage() throws {
        let k = FakeKernel.card()
        let (s, o, pic) = try presentedTwice(k)
        try settle(s)
        let d1 = pic.next()
        let back = try #require(o.buffers[1 - o.front])
        let owed = back.pending
        #expect(!back.owesEverything)
        try o.present(pic.surface, damage: .region(d1))
        try settle(s)
        var union = owed
        union.add(d1)
        #expect(union.area <= 2 * 64 + 64, "owed \(union.rects)")
        #expect(scanoutShows(k, crtc: 30, pic.surface, rotation: .none))
        s.close(retain: false)
    }

    /// A driver that refuses page flips: one log line, then SETCRTC for every frame.
    @Test func refusedFlipFallsBackToSetCrtc() throws {
        let k = FakeKernel.card()
        k.refuseFlips = EINVAL
        let log = LogSink()
        let s = try openScreen(k, log)
        let o = try #require(s.drmDisplays.first)
        let pic = try Picture(width: o.width, height: o.height)
        try o.present(pic.surface, damage: .whole)
        for _ in 0..<5 {
            try o.present(pic.surface, damage: .region(pic.next()))
            #expect(scanoutShows(k, crtc: 30, pic.surface, rotation: .none))
        }
        #expect(log.contains("falling back to SetCrtc"))
        #expect(k.count("ioctl(DRM_IOCTL_MODE_PAGE_FLIP)") == 1)
        #expect(k.setCRTCs == 6)
        #expect(!s.flipsSupported)
        #expect(k.scanoutWrites == 0)
        s.close(retain: false)
        #expect(k.leaks.isEmpty && k.consoleRestored)
    }

    /// DIRTYFB: called with the damage in panel coordinates where the driver wants it; after
    /// ENOSYS (bochs) never again.
    @Test func dirtyFBUntilENOSYS() throws {
        let k = FakeKernel.card()
        k.refuseFlips = EINVAL      // SETCRTC path: DIRTYFB on every frame
        let s = try openScreen(k) { $0.rotation = .quarter }
        let o = try #require(s.drmDisplays.first)
        let pic = try Picture(width: o.width, height: o.height)
        try o.present(pic.surface, damage: .whole)
        #expect(k.dirtyCalls.count == 1)
        #expect(k.dirtyCalls[0].count == 1 && k.dirtyCalls[0][0].x2 == 64 && k.dirtyCalls[0][0].y2 == 48)
        try o.present(pic.surface, damage: .region(DamageRegion([IntRect(x: 0, y: 0, width: 8, height: 4)])))
        try o.present(pic.surface, damage: .region(DamageRegion([IntRect(x: 0, y: 0, width: 8, height: 4)])))
        let last = try #require(k.dirtyCalls.last)
        // picture (0,0 8x4) at 90°: panel x = h-4…h, y = 0…8, h = 64 (picture 48x64)
        #expect(last.count == 1 && last[0].x1 == 60 && last[0].y1 == 0 && last[0].x2 == 64 && last[0].y2 == 8)
        s.close(retain: false)

        let k2 = FakeKernel.card()
        k2.dirtyErrno = ENOSYS
        k2.refuseFlips = EINVAL
        let log = LogSink()
        let s2 = try openScreen(k2, log)
        let o2 = try #require(s2.drmDisplays.first)
        let pic2 = try Picture(width: o2.width, height: o2.height)
        for _ in 0..<4 { try o2.present(pic2.surface, damage: .region(pic2.next())) }
        #expect(k2.count("ioctl(DRM_IOCTL_MODE_DIRTYFB)") == 1)
        #expect(log.contains("ENOSYS"))
        s2.close(retain: false)
    }

    /// RGB565 when the board asks: 16 bpp dumb buffers, RGB565 framebuffers, exact copies.
    @Test func rgb565() throws {
        let k = FakeKernel.card()
        let s = try openScreen(k) { $0.format = .rgb565; $0.rotation = .threeQuarters }
        let o = try #require(s.drmDisplays.first)
        #expect(o.preferredFormat == .rgb565)
        let pic = try Picture(width: o.width, height: o.height, format: .rgb565)
        try o.present(pic.surface, damage: .whole)
        for _ in 0..<3 { try o.present(pic.surface, damage: .region(pic.next())); try settle(s) }
        #expect(k.scanout(30)?.bpp == 16)
        #expect(scanoutShows(k, crtc: 30, pic.surface, rotation: .threeQuarters))
        s.close(retain: false)
        #expect(k.leaks.isEmpty)
    }

    /// Quit restores the CRTC that was there before (the console) and releases everything.
    @Test func quitRestoresWhatWasThere() throws {
        let k = FakeKernel.card()
        try runScenario(k)
        #expect(k.consoleRestored)
        #expect(k.crtcs[30]?.mode?.hdisplay == 64)
        #expect(k.leaks.isEmpty)
    }

    /// --retain: the buffer on screen stays (FB, dumb buffer), the other is released, master is
    /// dropped so the next program can take over, and a keeper process holds the file open.
    @Test func retainLeavesTheFrame() throws {
        let k = FakeKernel.card()
        let log = LogSink()
        let s = try openScreen(k, log)
        let o = try #require(s.drmDisplays.first)
        let pic = try Picture(width: o.width, height: o.height)
        try o.present(pic.surface, damage: .whole)
        try o.present(pic.surface, damage: .region(pic.next()))
        s.close(retain: true)
        #expect(k.forks == 1)
        #expect(log.contains("keeper pid 4242"))
        #expect(k.masterFD == nil)
        #expect(k.dumbs.count == 1 && k.fbs.count == 2)   // ours on screen + the console's
        #expect(scanoutShows(k, crtc: 30, pic.surface, rotation: .none))
        #expect(k.count("ioctl(DRM_IOCTL_MODE_SETCRTC)") == 1, "the CRTC must not be touched on quit")
        #expect(k.maps.isEmpty)
    }

    /// Master lost (another program took the display without a VT switch): no drawing, no
    /// error; master back → the last frame is put back with SETCRTC and flipping resumes.
    @Test func masterLostThenRegained() throws {
        let k = FakeKernel.card()
        let log = LogSink()
        let s = try openScreen(k, log)
        let o = try #require(s.drmDisplays.first)
        let pic = try Picture(width: o.width, height: o.height)
        try o.present(pic.surface, damage: .whole)
        try o.present(pic.surface, damage: .region(pic.next()))
        try settle(s)
        k.masterFD = 999            // someone else
        k.crtcs[30]?.fb = k.consoleFB
        try o.present(pic.surface, damage: .region(pic.next()))
        #expect(!s.isActive)
        #expect(log.contains("lost DRM master"))
        let flips = k.count("ioctl(DRM_IOCTL_MODE_PAGE_FLIP)")
        try o.present(pic.surface, damage: .region(pic.next()))   // not drawn
        #expect(k.count("ioctl(DRM_IOCTL_MODE_PAGE_FLIP)") == flips)
        var ev = try s.wait(timeout: 0)
        #expect(ev.contains(.deactivated))
        k.masterFD = nil            // the other program quit
        s.lastMasterAttempt = 0
        ev = try s.wait(timeout: 0.6)
        #expect(ev.contains(.activated))
        #expect(s.isActive)
        #expect(scanoutShows(k, crtc: 30, pic.surface, rotation: .none), "not redrawn with the latest frame")
        try o.present(pic.surface, damage: .region(pic.next()))
        try settle(s)
        #expect(scanoutShows(k, crtc: 30, pic.surface, rotation: .none))
        #expect(k.scanoutWrites == 0)
        s.close(retain: false)
        #expect(k.leaks.isEmpty && k.consoleRestored)
    }

    /// VT switching: VT_PROCESS on the active VT; SIGUSR1 → stop drawing, drop master,
    /// VT_RELDISP 1; another program shows; SIGUSR2 → VT_ACKACQ, master, the last frame back.
    @Test func vtSwitchAwayAndBack() throws {
        let k = FakeKernel.card()
        k.hasVT = true
        let log = LogSink()
        let s = try openScreen(k, log) { $0.vt = true }
        #expect(log.contains("following switches on tty1"))
        #expect(k.vtMode.mode == CChar(VT_PROCESS) && k.vtMode.relsig == Int16(SIGUSR1) && k.vtMode.acqsig == Int16(SIGUSR2))
        let o = try #require(s.drmDisplays.first)
        let pic = try Picture(width: o.width, height: o.height)
        try o.present(pic.surface, damage: .whole)
        try o.present(pic.surface, damage: .region(pic.next()))
        k.signalsQueued = [SIGUSR1]
        var ev = try s.wait(timeout: 0.1)
        #expect(ev.contains(.deactivated) && !s.isActive)
        #expect(k.masterFD == nil && k.vtReldisp == [1])
        // Another program takes the display meanwhile.
        k.masterFD = 999
        k.crtcs[30]?.fb = k.consoleFB
        try o.present(pic.surface, damage: .region(pic.next()))   // remembered, not drawn
        ev = try s.wait(timeout: 0.6)                     // no master retries while switched away
        #expect(!s.isActive && ev.isEmpty)
        k.masterFD = nil
        k.signalsQueued = [SIGUSR2]
        ev = try s.wait(timeout: 0.1)
        #expect(ev.contains(.activated) && s.isActive)
        #expect(k.vtReldisp == [1, Int(VT_ACKACQ)])
        #expect(scanoutShows(k, crtc: 30, pic.surface, rotation: .none))
        #expect(k.scanoutWrites == 0)
        s.close(retain: false)
        #expect(k.vtMode.mode == CChar(VT_AUTO))
        #expect(k.leaks.isEmpty && k.consoleRestored)
    }

    /// Plymouth's deactivate (`suspend`): master dropped, nothing drawn, the frame left on the
    /// CRTC; no master retries, and a VT switch back meanwhile does not take the display;
    /// `resume` takes master and shows the frames presented meanwhile.
    @Test func suspendLetsTheDisplayGoUntilResume() throws {
        let k = FakeKernel.card()
        k.hasVT = true
        let log = LogSink()
        let s = try openScreen(k, log) { $0.vt = true }
        let o = try #require(s.drmDisplays.first)
        let pic = try Picture(width: o.width, height: o.height)
        try o.present(pic.surface, damage: .whole)
        try o.present(pic.surface, damage: .region(pic.next()))
        #expect(s.hasActiveVT)
        s.suspend()
        var ev = try s.wait(timeout: 0.1)
        #expect(ev.contains(.deactivated) && !s.isActive && s.isSuspended && k.masterFD == nil)
        #expect(k.crtcs[30]?.fb != k.consoleFB, "the last frame stays on the CRTC")
        try o.present(pic.surface, damage: .region(pic.next()))   // remembered, not drawn
        ev = try s.wait(timeout: 0.6)                              // no master retries
        #expect(ev.isEmpty && !s.isActive && k.masterFD == nil)
        k.signalsQueued = [SIGUSR1]
        _ = try s.wait(timeout: 0.1)
        #expect(!s.hasActiveVT)
        k.signalsQueued = [SIGUSR2]
        ev = try s.wait(timeout: 0.1)
        #expect(!ev.contains(.activated) && !s.isActive && k.masterFD == nil, "still suspended after the VT came back")
        #expect(k.vtReldisp == [1, Int(VT_ACKACQ)] && s.hasActiveVT)
        #expect(log.contains("the screen stays suspended"))
        s.resume()
        ev = try s.wait(timeout: 0.1)
        #expect(ev.contains(.activated) && s.isActive && !s.isSuspended && k.masterFD != nil)
        #expect(scanoutShows(k, crtc: 30, pic.surface, rotation: .none))
        s.close(retain: false)
        #expect(k.leaks.isEmpty && k.consoleRestored)
    }

    /// Plymouth's `deactivate` then `quit --retain-splash`: the frame stays (the keeper holds it).
    @Test func quitWhileSuspendedKeepsTheFrame() throws {
        let k = FakeKernel.card()
        let (s, _, pic) = try presentedTwice(k)
        s.suspend()
        s.close(retain: true)
        #expect(k.forks == 1 && k.masterFD == nil)
        #expect(scanoutShows(k, crtc: 30, pic.surface, rotation: .none))
    }

    /// Master lost before the first frame was lit: it is lit when master comes back.
    @Test func masterLostBeforeTheFirstFrame() throws {
        let k = FakeKernel.card()
        let s = try openScreen(k)
        let o = try #require(s.drmDisplays.first)
        let pic = try Picture(width: o.width, height: o.height)
        k.masterFD = 999
        try o.present(pic.surface, damage: .whole)
        #expect(!s.isActive)
        k.masterFD = nil
        s.lastMasterAttempt = 0
        let ev = try s.wait(timeout: 0.6)
        #expect(ev.contains(.activated))
        #expect(scanoutShows(k, crtc: 30, pic.surface, rotation: .none))
        s.close(retain: false)
        #expect(k.leaks.isEmpty && k.consoleRestored)
    }

    /// A flip whose event never comes does not hang the loop: after a second it counts as done.
    @Test func lostFlipEventTimesOut() throws {
        let k = FakeKernel.card()
        k.deliverFlipEvents = false
        let log = LogSink()
        let s = try openScreen(k, log)
        let o = try #require(s.drmDisplays.first)
        let pic = try Picture(width: o.width, height: o.height)
        try o.present(pic.surface, damage: .whole)
        try o.present(pic.surface, damage: .region(pic.next()))
        o.flipIssuedAt -= 2   // pretend the flip is old
        _ = try s.wait(timeout: 1.5)   // the flip's timer fires a second after it was issued
        #expect(!o.flipPending)
        #expect(s.flipTimeouts == 1)
        #expect(log.contains("no flip-complete event"))
        s.close(retain: false)
    }
}
