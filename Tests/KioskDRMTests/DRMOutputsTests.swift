import CKioskSys
import Glibc
import KioskSeams
@testable import KioskDRM
import KioskFakeKernel
import KioskRaster
import KioskSys
import Testing

/// Several connectors, clones, hotplug, non-desktop connectors, panel orientation, modes.
@Suite struct DRMDisplaysTests {
    /// Two heads with different modes: two outputs, each with its own buffers and flips.
    @Test func twoHeadsTwoOutputs() throws {
        let k = FakeKernel.card(heads: 2)
        k.connectors[1].modes = [FakeKernel.mode(40, 30, preferred: true)]
        let s = try openScreen(k)
        #expect(s.drmDisplays.count == 2)
        let pics = try s.drmDisplays.map { try Picture(width: $0.width, height: $0.height) }
        for (o, p) in zip(s.drmDisplays, pics) { try o.present(p.surface, damage: .whole) }
        for _ in 0..<5 {
            for (o, p) in zip(s.drmDisplays, pics) { try o.present(p.surface, damage: .region(p.next())) }
            try settle(s)
        }
        #expect(scanoutShows(k, crtc: 30, pics[0].surface, rotation: .none))
        #expect(scanoutShows(k, crtc: 31, pics[1].surface, rotation: .none))
        #expect(s.flipsCompleted == 10)
        s.close(retain: false)
        #expect(k.leaks.isEmpty && k.consoleRestored)
    }

    /// Two heads with the same mode are clones: one output, one pair of buffers, flipped on both
    /// CRTCs; the flip completes when both events came.
    @Test func clonesShareBuffers() throws {
        let k = FakeKernel.card(heads: 2)
        let s = try openScreen(k)
        #expect(s.drmDisplays.count == 1)
        let o = try #require(s.drmDisplays.first)
        #expect(o.heads.count == 2 && o.name == "Virtual-1+Virtual-2")
        let pic = try Picture(width: o.width, height: o.height)
        try o.present(pic.surface, damage: .whole)
        for _ in 0..<4 { try o.present(pic.surface, damage: .region(pic.next())); try settle(s) }
        #expect(k.dumbs.count == 2)
        #expect(k.crtcs[30]?.fb == k.crtcs[31]?.fb)
        #expect(scanoutShows(k, crtc: 31, pic.surface, rotation: .none))
        #expect(k.count("ioctl(DRM_IOCTL_MODE_PAGE_FLIP)") == 8 && o.flips == 4)
        s.close(retain: false)
        #expect(k.leaks.isEmpty && k.consoleRestored)
    }

    /// A hotplug uevent: a connector that went away is dropped (its CRTC off) and the other keeps
    /// flipping; when it comes back it gets an output again.
    @Test func hotplugRemovesAndAdds() throws {
        let k = FakeKernel.card(heads: 2)
        k.connectors[1].modes = [FakeKernel.mode(40, 30, preferred: true)]
        let log = LogSink()
        let s = try openScreen(k, log)
        var pics = try s.drmDisplays.map { try Picture(width: $0.width, height: $0.height) }
        for (o, p) in zip(s.drmDisplays, pics) { try o.present(p.surface, damage: .whole) }
        k.connectors[1].connected = false
        k.ueventsQueued = [Array("change@/devices/pci0000:00/0000:00:02.0/drm/card0\0ACTION=change\0SUBSYSTEM=drm\0HOTPLUG=1\0DEVNAME=dri/card0\0".utf8)]
        var ev = try s.wait(timeout: 1)
        #expect(ev.contains(.displaysChanged))
        #expect(s.drmDisplays.count == 1 && s.drmDisplays[0].name == "Virtual-1")
        #expect(log.contains("Virtual-2 gone"))
        #expect(k.crtcs[31]?.fb == 0)
        #expect(k.dumbs.count == 1)
        let o = s.drmDisplays[0]
        for _ in 0..<3 { try o.present(pics[0].surface, damage: .region(pics[0].next())); try settle(s) }
        #expect(scanoutShows(k, crtc: 30, pics[0].surface, rotation: .none))
        k.connectors[1].connected = true
        k.ueventsQueued = [Array("change@/devices/x/drm/card0\0SUBSYSTEM=drm\0HOTPLUG=1\0".utf8)]
        ev = try s.wait(timeout: 1)
        #expect(ev.contains(.displaysChanged))
        #expect(s.drmDisplays.count == 2)
        let o2 = try #require(s.drmDisplays.first { $0.name == "Virtual-2" })
        pics[1] = try Picture(width: o2.width, height: o2.height)
        try o2.present(pics[1].surface, damage: .whole)
        #expect(scanoutShows(k, crtc: 31, pics[1].surface, rotation: .none))
        // Unrelated uevents change nothing.
        k.ueventsQueued = [Array("add@/devices/virtual/input/input9\0SUBSYSTEM=input\0".utf8)]
        ev = try s.wait(timeout: 0.05)
        #expect(!ev.contains(.displaysChanged))
        s.close(retain: false)
        #expect(k.leaks.isEmpty && k.consoleRestored)
    }

    @Test func nonDesktopConnectorsAreSkipped() throws {
        let k = FakeKernel.card(heads: 2)
        k.connectors[1].props = [(2, 1)]   // non-desktop = 1 (a VR headset)
        let log = LogSink()
        let s = try openScreen(k, log)
        #expect(s.drmDisplays.count == 1 && s.drmDisplays[0].heads.count == 1)
        #expect(log.contains("non-desktop"))
        s.close(retain: false)
    }

    @Test func panelOrientationAndOverride() throws {
        let k = FakeKernel.card()
        k.connectors[0].props = [(3, 2)]   // Left Side Up
        var s = try openScreen(k)
        #expect(s.drmDisplays[0].transform.rotation == .threeQuarters)
        #expect(s.drmDisplays[0].heads[0].rotationSource == "panel orientation: Left Side Up")
        #expect(s.drmDisplays[0].width == 48 && s.drmDisplays[0].height == 64)
        s.close(retain: false)
        s = try openScreen(k) { $0.rotation = .half }
        #expect(s.drmDisplays[0].transform.rotation == .half && s.drmDisplays[0].heads[0].rotationSource == "override")
        s.close(retain: false)
    }

    @Test func requestedModeAndFallbacks() throws {
        let k = FakeKernel.card()
        let log = LogSink()
        var s = try openScreen(k, log) { $0.mode = ModeRequest(width: 32, height: 24) }
        #expect(s.drmDisplays[0].mode.width == 32 && s.drmDisplays[0].heads[0].modeChoice == .requested)
        s.close(retain: false)
        s = try openScreen(k, log) { $0.mode = ModeRequest(width: 99, height: 99) }
        #expect(s.drmDisplays[0].mode.width == 64 && log.contains("no 99x99 mode"))
        s.close(retain: false)
        // No preferred mode: the one the CRTC shows now.
        let k2 = FakeKernel.card(modes: [(64, 48, false), (32, 24, false)])
        k2.crtcs[30]?.mode = FakeKernel.mode(32, 24)
        s = try openScreen(k2)
        #expect(s.drmDisplays[0].mode.width == 32 && s.drmDisplays[0].heads[0].modeChoice == .active)
        s.close(retain: false)
    }

    @Test func scaleFromPhysicalSize() throws {
        let k = FakeKernel.card(modes: [(2560, 1600, true)])
        k.connectors[0].mmWidth = 286; k.connectors[0].mmHeight = 179   // 13.3" at 227 DPI... 
        var s = try openScreen(k)
        #expect(s.drmDisplays[0].scale == 1)   // 227 DPI < 1.75 × 135
        s.close(retain: false)
        k.connectors[0].mmWidth = 200; k.connectors[0].mmHeight = 125    // 325 DPI
        s = try openScreen(k)
        #expect(s.drmDisplays[0].scale == 2)
        s.close(retain: false)
        s = try openScreen(k) { $0.scale = 1.5 }
        #expect(s.drmDisplays[0].scale == 1.5)
        s.close(retain: false)
    }

    @Test func noConnectedConnector() throws {
        let k = FakeKernel.card()
        k.connectors[0].connected = false
        #expect(throws: ScreenError.self) { try openScreen(k) }
        #expect(k.leaks.isEmpty)
    }
}
