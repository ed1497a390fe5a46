// The Screen contract (KioskSeams' Screen.swift): a backend that conforms with the basic
// requirements alone takes the defaults; the screens in front of another (PendingScreen,
// SwitchingScreen) forward to the one behind; DRMScreen answers for the frame cache, the
// carry-over and the device; a card held by another program is told apart by its error's type.
import Glibc
import KioskSeams
@testable import KioskDRM
import KioskFakeKernel
import KioskRaster
import KioskSys
import KioskTestDoubles
import Testing

/// A backend that says only what every screen must (a third kind of screen, as a Wayland
/// overlay would start).
private final class BareScreen: Screen {
    var displays: [Display] { [] }
    var isActive: Bool { true }
    var isSuspended: Bool { false }
    private(set) var closes: [Bool] = []
    func attach(to loop: EventLoop, _ handler: @escaping (ScreenEvent) -> Void) throws {}
    func close(retain: Bool) { closes.append(retain) }
    var summary: String { "bare" }
    func suspend() {}
    func resume() {}
}

@Suite struct ScreenContractTests {
    @Test func aBackendConformingAloneTakesTheDefaults() {
        let s = BareScreen()
        #expect(s.innermost === s)
        #expect(s.isDeviceAlive && !s.continuedEarlyFrame && !s.hasActiveVT)
        #expect(s.vtHold == nil && s.frameCache == nil && s.carryOver == nil)
        #expect(s.frameInterval == 1.0 / 60)
        #expect(s.input == nil && s.windows == nil && s.backend == .offscreen)
        s.abandon()
        #expect(s.closes == [false], "abandon is close(retain: false) by default")
    }

    @Test func thePendingScreenForwardsToTheOneBehindIt() throws {
        let pending = PendingScreen()
        #expect(pending.innermost === pending && pending.frameCache == nil && pending.carryOver == nil && pending.isDeviceAlive)
        let k = FakeKernel.card()
        let drm = try openScreen(k)
        #expect(pending.backend == .offscreen && pending.input == nil)
        try pending.adopt(drm)
        #expect(pending.innermost === drm)
        #expect(pending.backend == .drm && drm.backend == .drm)
        #expect(pending.frameCache === drm)
        #expect(pending.carryOver != nil && !pending.continuedEarlyFrame && pending.isDeviceAlive)
        // Nothing on screen yet: the carry-over says so through the protocol as DRMScreen does.
        #expect(pending.carryOver?.carryOverRefusal?.transient == true)
        #expect(pending.carryOver?.carryOverRefusal?.description == drm.carryOverRefusal?.description)
        pending.release(retain: false)
        #expect(pending.innermost === pending && pending.frameCache == nil)
    }

    @Test func theOffscreenScreenHasNoFrameCacheNorCarryOver() throws {
        let s = OffscreenScreen(try OffscreenDisplay(width: 8, height: 8))
        #expect(s.innermost === s && s.frameCache == nil && s.carryOver == nil && !s.continuedEarlyFrame)
    }

    @Test func theCarryOverThroughTheProtocolIsTheDRMScreens() throws {
        let k = FakeKernel.card()
        let (s, _, _) = try presentedTwice(k)
        let source = try #require(s.carryOver)
        #expect(source.carryOverRefusal == nil)
        let record = try source.carryOverRecord(landingWithin: 0.5)
        let h = try #require(record as? ScreenCarryOver)
        #expect(h.descriptor == s.card.fd && h.card == s.card.path)
        s.close(retain: false)
    }

    @Test func aCardHeldByAnotherIsToldApartByType() throws {
        let k = FakeKernel.card()
        k.masterFD = 999   // another program is master
        do {
            _ = try openScreen(k)
            Issue.record("the card opened while another program was its master")
        } catch {
            #expect(isHeldByAnother(error))
            let refused = try #require(error as? DRMMasterRefused)
            #expect(refused.error.errno == EBUSY)
            #expect("\(error)" == "\(refused.error)", "it reads as the failed SET_MASTER call")
        }
        k.masterFD = nil   // the other program's, not ours: nothing else is left behind
        #expect(k.leaks.isEmpty, "\(k.leaks)")
        #expect(!isHeldByAnother(SysError(call: "ioctl(DRM_IOCTL_SET_MASTER)", errno: EBUSY)),
                "a bare SysError is not told apart by its call's name any more")
    }
}
