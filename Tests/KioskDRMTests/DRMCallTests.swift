import CKioskSys
import Glibc
import KioskSeams
@testable import KioskDRM
import KioskFakeKernel
import KioskRaster
import KioskSys
import Testing

/// The DRM wrapper's calls and their order, against a kernel played by the test.
@Suite struct DRMCallTests {
    /// open → VERSION → SET_MASTER → GETRESOURCES → GETCONNECTOR → GETCRTC; the first present
    /// CREATE_DUMB → MAP_DUMB → mmap → ADDFB2 → SETCRTC → DIRTYFB; later presents PAGE_FLIP;
    /// quit SETCRTC (restore) → RMFB → munmap → DESTROY_DUMB → DROP_MASTER → close.
    @Test func callsComeInOrder() throws {
        let k = FakeKernel.card()
        let (s, _, _) = try presentedTwice(k)
        try settle(s)
        s.close(retain: false)
        let c = k.calls.filter { $0 != "poll" && $0 != "read" }
        func at(_ name: String, after: Int = -1) -> Int {
            c.indices.first { $0 > after && c[$0] == name } ?? Int.max
        }
        let order = ["open /dev/dri/card0", "ioctl(DRM_IOCTL_VERSION)", "ioctl(DRM_IOCTL_SET_MASTER)",
                     "ioctl(DRM_IOCTL_MODE_GETRESOURCES)", "ioctl(DRM_IOCTL_MODE_GETCONNECTOR)", "ioctl(DRM_IOCTL_MODE_GETCRTC)",
                     "ioctl(DRM_IOCTL_MODE_CREATE_DUMB)", "ioctl(DRM_IOCTL_MODE_MAP_DUMB)", "mmap", "ioctl(DRM_IOCTL_MODE_ADDFB2)",
                     "ioctl(DRM_IOCTL_MODE_SETCRTC)", "ioctl(DRM_IOCTL_MODE_DIRTYFB)",
                     "ioctl(DRM_IOCTL_MODE_CREATE_DUMB)", "ioctl(DRM_IOCTL_MODE_PAGE_FLIP)",
                     "ioctl(DRM_IOCTL_MODE_SETCRTC)", "ioctl(DRM_IOCTL_MODE_RMFB)", "munmap", "ioctl(DRM_IOCTL_MODE_DESTROY_DUMB)",
                     "ioctl(DRM_IOCTL_DROP_MASTER)", "close"]
        var last = -1
        for name in order {
            let i = at(name, after: last)
            #expect(i != Int.max, "\(name) missing after call #\(last) in \(c)")
            if i == Int.max { break }
            last = i
        }
        #expect(k.count("ioctl(DRM_IOCTL_MODE_CREATE_DUMB)") == 2)
        #expect(k.count("ioctl(DRM_IOCTL_MODE_DESTROY_DUMB)") == 2)
        #expect(k.leaks.isEmpty, "\(k.leaks)")
        #expect(k.consoleRestored)
    }

    /// GETRESOURCES/GETCONNECTOR/GETPROPERTY ask twice (counts, then arrays); GETCONNECTOR does
    /// not make the kernel probe (count_modes is never 0) unless the state is unknown.
    @Test func twoPassQueriesWithoutProbing() throws {
        let k = FakeKernel.card()
        let s = try openScreen(k)
        #expect(k.count("ioctl(DRM_IOCTL_MODE_GETRESOURCES)") == 3)   // 1 to pick the card, 2 to list
        #expect(k.count("ioctl(DRM_IOCTL_MODE_GETCONNECTOR)") == 2)
        #expect(s.drmDisplays.count == 1)
        #expect(s.drmDisplays[0].mode.width == 64 && s.drmDisplays[0].heads[0].modeChoice == .preferred)
        s.close(retain: false)
    }

    /// EINTR from any ioctl is retried (once more, same call) and the run succeeds.
    @Test(arguments: ["ioctl(DRM_IOCTL_VERSION)", "ioctl(DRM_IOCTL_SET_MASTER)", "ioctl(DRM_IOCTL_MODE_GETRESOURCES)",
                      "ioctl(DRM_IOCTL_MODE_GETCONNECTOR)", "ioctl(DRM_IOCTL_MODE_GETCRTC)", "ioctl(DRM_IOCTL_MODE_CREATE_DUMB)",
                      "ioctl(DRM_IOCTL_MODE_MAP_DUMB)", "ioctl(DRM_IOCTL_MODE_ADDFB2)", "ioctl(DRM_IOCTL_MODE_SETCRTC)",
                      "ioctl(DRM_IOCTL_MODE_DIRTYFB)", "ioctl(DRM_IOCTL_MODE_PAGE_FLIP)", "ioctl(DRM_IOCTL_MODE_RMFB)",
                      "ioctl(DRM_IOCTL_MODE_DESTROY_DUMB)", "ioctl(DRM_IOCTL_DROP_MASTER)"])
    func eintrIsRetried(_ call: String) throws {
        let clean = FakeKernel.card()
        try runScenario(clean)
        let k = FakeKernel.card()
        k.eintrOnce = [call]
        try runScenario(k)
        #expect(k.eintrOnce.isEmpty, "\(call) was never made")
        #expect(k.count(call) == clean.count(call) + 1, "\(call): \(k.count(call)) calls, \(clean.count(call)) without EINTR")
        #expect(k.leaks.isEmpty, "\(k.leaks)")
        #expect(k.consoleRestored)
    }

    /// Each failing step: the error names the call (and errno), and nothing is left behind —
    /// descriptors, dumb buffers, framebuffers, mappings, master — and the console is back.
    @Test func everyFailingStepUnwinds() throws {
        let clean = FakeKernel.card()
        try runScenario(clean)
        let n = clean.calls.count
        var threw = 0
        var mustThrow: Set<String> = ["open /dev/dri/card0", "ioctl(DRM_IOCTL_VERSION)", "ioctl(DRM_IOCTL_SET_MASTER)",
                                      "ioctl(DRM_IOCTL_MODE_GETRESOURCES)", "ioctl(DRM_IOCTL_MODE_GETCONNECTOR)",
                                      "ioctl(DRM_IOCTL_MODE_GETCRTC)", "ioctl(DRM_IOCTL_MODE_CREATE_DUMB)",
                                      "ioctl(DRM_IOCTL_MODE_MAP_DUMB)", "mmap", "ioctl(DRM_IOCTL_MODE_ADDFB2)",
                                      "ioctl(DRM_IOCTL_MODE_SETCRTC)"]
        for i in 0..<n {
            let name = clean.calls[i]
            guard name != "poll", name != "close", name != "munmap" else { continue }
            let k = FakeKernel.card()
            k.failAt = (i, EIO)
            do {
                try runScenario(k)
            } catch let e as SysError {
                threw += 1
                mustThrow.remove(name)
                #expect(e.call == name || e.call.hasPrefix(name), "call #\(i) \(name) failed but the error says \(e)")
                #expect(e.errno == EIO)
                #expect("\(e)".contains("Input/output error"))
            } catch {
                Issue.record("call #\(i) \(name): unexpected error \(error)")
            }
            #expect(k.leaks.isEmpty, "failing call #\(i) \(name) leaked \(k.leaks)")
            #expect(k.nothingOfOursOnScreen, "failing call #\(i) \(name) left our buffer on a CRTC")
            if !name.contains("SETCRTC") { #expect(k.consoleRestored, "failing call #\(i) \(name) did not restore the console") }
            #expect(k.scanoutWrites == 0)
        }
        #expect(mustThrow.isEmpty, "these failures were swallowed: \(mustThrow)")
        #expect(threw > 10)
    }

    /// The default card is the first /dev/dri/card* whose driver has dumb buffers.
    @Test func picksFirstCardWithDumbBuffers() throws {
        let k = FakeKernel.card()
        k.cardPaths = ["card0", "card1", "card2"]
        k.cardDumbCapable = ["card0": false, "card1": true, "card2": true]
        let s = try openScreen(k)
        #expect(s.card.path == "/dev/dri/card1")
        s.close(retain: false)
        #expect(k.leaks.isEmpty, "\(k.leaks)")
        let k2 = FakeKernel.card()
        k2.dumbCapable = false
        #expect(throws: ScreenError.self) { try openScreen(k2) }
        #expect(k2.leaks.isEmpty)
    }

    @Test func explicitCard() throws {
        let k = FakeKernel.card()
        k.cardPaths = ["card0", "card1"]
        let s = try openScreen(k) { $0.card = "/dev/dri/card1" }
        #expect(s.card.path == "/dev/dri/card1")
        s.close(retain: false)
        #expect(throws: SysError.self) { try openScreen(FakeKernel.card()) { $0.card = "/dev/dri/card7" } }
    }
}

/// open, first frame, three more frames, quit.
func runScenario(_ k: FakeKernel, retain: Bool = false) throws {
    let s = try openScreen(k)
    do {
        let o = try #require(s.drmDisplays.first)
        let pic = try Picture(width: o.width, height: o.height)
        try o.present(pic.surface, damage: .whole)
        for _ in 0..<3 {
            try o.present(pic.surface, damage: .region(pic.next()))
            _ = try s.wait(timeout: 0)
        }
    } catch {
        s.close(retain: retain)
        throw error
    }
    s.close(retain: retain)
}
