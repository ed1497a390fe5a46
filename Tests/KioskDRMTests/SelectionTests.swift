import KioskSeams
@testable import KioskDRM
import KioskFakeKernel
import Testing

@Suite struct SelectionTests {
    @Test func modeRequests() {
        #expect(ModeRequest(parsing: "1280x800") == ModeRequest(width: 1280, height: 800))
        #expect(ModeRequest(parsing: "1920X1080@59.94") == ModeRequest(width: 1920, height: 1080, refresh: 59.94))
        for bad in ["", "1280", "x800", "1280x", "0x0", "-1x5", "1280x800@", "1280x800@0", "1280x800@nan", "axb", "1x2x3", "99999x1"] {
            #expect(ModeRequest(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func modeChoice() {
        let m60 = ModeInfo(FakeKernel.mode(1920, 1080, hz: 60)), m50 = ModeInfo(FakeKernel.mode(1920, 1080, hz: 50))
        let pref = ModeInfo(FakeKernel.mode(1280, 720, preferred: true)), small = ModeInfo(FakeKernel.mode(640, 480))
        let modes = [m60, m50, pref, small]
        #expect(chooseMode(modes, request: ModeRequest(width: 1920, height: 1080, refresh: 50), active: nil)?.mode == m50)
        #expect(chooseMode(modes, request: ModeRequest(width: 1920, height: 1080), active: nil)?.mode == m60)
        #expect(chooseMode(modes, request: nil, active: small)?.why == .preferred)
        let r = chooseMode(modes, request: ModeRequest(width: 1, height: 1), active: nil)
        #expect(r?.mode == pref && r?.requestMissed == true)
        #expect(chooseMode([m60, small], request: nil, active: small)?.why == .active)
        #expect(chooseMode([m60, small], request: nil, active: nil)?.mode == m60)
        #expect(chooseMode([], request: nil, active: nil) == nil)
        #expect(abs(m60.refresh - 60) < 0.5)
    }

    @Test func crtcAssignment() {
        // Greedy would give connector 0 CRTC 1 and leave connector 1 without one.
        #expect(assignCRTCs([[1, 2], [1]]) == [2, 1])
        #expect(assignCRTCs([[1], [1]]) == [1, nil])
        #expect(assignCRTCs([[3, 1], [2], []]) == [3, 2, nil])
    }

    @Test func panelOrientations() {
        #expect(rotation(forPanelOrientation: "Normal") == Rotation.none)
        #expect(rotation(forPanelOrientation: "Upside Down") == .half)
        #expect(rotation(forPanelOrientation: "Left Side Up") == .threeQuarters)
        #expect(rotation(forPanelOrientation: "Right Side Up") == .quarter)
        #expect(rotation(forPanelOrientation: "sideways") == nil)
    }

    @Test func deviceScales() {
        #expect(deviceScale(width: 800, height: 480, mmWidth: 154, mmHeight: 86) == 1)        // 7" 132 DPI
        #expect(deviceScale(width: 1920, height: 1200, mmWidth: 150, mmHeight: 94) == 2)      // 7" 325 DPI
        #expect(deviceScale(width: 1920, height: 1080, mmWidth: 160, mmHeight: 90) == 1)      // aspect ratio, not a size
        #expect(deviceScale(width: 1920, height: 1080, mmWidth: 0, mmHeight: 0) == 1)
        #expect(deviceScale(width: 2560, height: 1440, mmWidth: 310, mmHeight: 174, fractional: true) == 1.5)   // 210 DPI
        #expect(deviceScale(width: 1920, height: 1200, mmWidth: 150, mmHeight: 94, fractional: true) == 2)
    }

    @Test func uevents() {
        let u = Uevent(Array("change@/devices/pci0000:00/0000:00:01.0/drm/card0\0ACTION=change\0DEVPATH=/devices/x\0SUBSYSTEM=drm\0HOTPLUG=1\0DEVNAME=dri/card0\0SEQNUM=1234\0".utf8))
        #expect(u.action == "change" && u.devpath.hasSuffix("card0") && u.isDRMHotplug)
        #expect(!Uevent(Array("add@/x\0SUBSYSTEM=input\0".utf8)).isDRMHotplug)
        #expect(!Uevent([]).isDRMHotplug)
        #expect(Uevent(Array("change@/devices/pci0000:00/0000:00:01.0/drm/card0\0ACTION=change\0SUBSYSTEM=drm\0DEVNAME=dri/card0\0SYNTH_UUID=0\0".utf8)).isDRMHotplug)
        #expect(!Uevent(Array("change@/devices/x/drm/card0/card0-Virtual-1\0ACTION=change\0SUBSYSTEM=drm\0".utf8)).isDRMHotplug)
    }

    @Test func drmEvents() {
        var bytes: [UInt8] = []
        func u32(_ v: UInt32) { for i in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(i)))) } }
        u32(2); u32(32); u32(7); u32(1); u32(10); u32(500_000); u32(99); u32(33)   // flip complete
        u32(0x8000_0000); u32(12); u32(0)                                          // an unknown event
        let ev = DRMCard.parseEvents(bytes[...])
        #expect(ev.count == 2)
        #expect(ev[0] == DRMEvent(kind: .flipComplete, userData: 1 << 32 | 7, crtcID: 33, sequence: 99, time: 10.5))
        #expect(ev[1].kind == .other(0x8000_0000))
        #expect(DRMCard.parseEvents(bytes[0..<20]).isEmpty)   // cut short
    }
}
