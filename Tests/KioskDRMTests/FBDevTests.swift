import CKioskSys
import Glibc
import KioskSeams
@testable import KioskDRM
import KioskFakeKernel
import KioskRaster
import KioskSys
import Testing

/// The fbdev fallback against a fake framebuffer device.
@Suite struct FBDevTests {
    func open(_ k: FakeKernel, rotation: Rotation? = nil) throws -> FBDevScreen {
        var o = FBDevOptions()
        o.vt = false
        o.rotation = rotation
        return try FBDevScreen(options: o, kernel: k)
    }

    func visibleShows(_ k: FakeKernel, _ pic: Surface, _ r: Rotation) -> Bool {
        for y in 0..<pic.height {
            for x in 0..<pic.width {
                let p = ScanoutCopy.panelPixel(x: x, y: y, w: pic.width, h: pic.height, rotation: r)
                let row = k.fbVisibleRow(p.y)
                if pic.format == .rgb565 {
                    if row.assumingMemoryBound(to: UInt16.self)[p.x] != pic.row16(y)[x] { return false }
                } else if row.assumingMemoryBound(to: UInt32.self)[p.x] != pic.row32(y)[x] { return false }
            }
        }
        return true
    }

    /// A driver that pans: a double-height virtual screen, drawing into the hidden half, a pan
    /// per frame; quitting puts the original geometry back.
    @Test(arguments: [32, 16])
    func panFlipped(_ bpp: Int) throws {
        let k = FakeKernel()
        k.addFBDev(width: 40, height: 30, bpp: bpp)
        let s = try open(k, rotation: .quarter)
        #expect(s.doubleBuffered)
        #expect(s.preferredFormat == (bpp == 16 ? .rgb565 : .xrgb8888))
        #expect(s.width == 30 && s.height == 40)
        let pic = try Picture(width: s.width, height: s.height, format: s.preferredFormat)
        try s.present(pic.surface, damage: .whole)
        #expect(visibleShows(k, pic.surface, .quarter))
        for _ in 0..<6 {
            try s.present(pic.surface, damage: .region(pic.next()))
            #expect(visibleShows(k, pic.surface, .quarter))
        }
        #expect(k.fbPans == [0, 30, 0, 30, 0, 30, 0])
        s.close(retain: false)
        #expect(k.fbVar.yres_virtual == 30 && k.fbVar.yoffset == 0)
        #expect(k.leaks.isEmpty, "\(k.leaks)")
    }

    /// A driver that cannot pan: one buffer, drawn into directly, and the log says so.
    @Test func singleBuffer() throws {
        let k = FakeKernel()
        k.addFBDev(width: 40, height: 30, bpp: 32, canPan: false)
        var o = FBDevOptions()
        o.vt = false
        let log = LogSink()
        o.log = { log.lines.append($0) }
        let s = try FBDevScreen(options: o, kernel: k)
        #expect(!s.doubleBuffered)
        #expect(log.contains("cannot pan"))
        let pic = try Picture(width: 40, height: 30)
        try s.present(pic.surface, damage: .whole)
        try s.present(pic.surface, damage: .region(pic.next()))
        #expect(visibleShows(k, pic.surface, .none))
        #expect(k.fbPans.isEmpty)
        s.close(retain: false)
        #expect(k.leaks.isEmpty)
    }

    /// Plymouth's deactivate on fbdev: nothing drawn while suspended; resume draws the last
    /// frame whole (another program may have drawn meanwhile).
    @Test func suspendAndResume() throws {
        let k = FakeKernel()
        k.addFBDev(width: 40, height: 30, bpp: 32)
        let s = try open(k)
        let loop = PollEventLoop(kernel: k, clock: SystemClock())
        var events: [ScreenEvent] = []
        try s.attach(to: loop) { events.append($0) }
        let pic = try Picture(width: s.width, height: s.height)
        try s.present(pic.surface, damage: .whole)
        s.suspend()
        try loop.runOnce(timeout: 0)
        #expect(s.isSuspended && !s.isActive && events == [.deactivated])
        let pans = s.pans
        try s.present(pic.surface, damage: .region(pic.next()))
        #expect(s.pans == pans && !visibleShows(k, pic.surface, .none), "nothing drawn while suspended")
        s.resume()
        try loop.runOnce(timeout: 0)
        #expect(s.isActive && events == [.deactivated, .activated])
        #expect(visibleShows(k, pic.surface, .none))
        #expect(!s.hasActiveVT)
        s.close(retain: false)
    }

    @Test func unsupportedFormat() throws {
        let k = FakeKernel()
        k.addFBDev(width: 8, height: 8, bpp: 32)
        k.fbVar.red.offset = 0; k.fbVar.blue.offset = 16   // BGR
        #expect(throws: ScreenError.self) { try open(k) }
        #expect(k.leaks.isEmpty)
    }

    @Test func failuresUnwind() throws {
        for i in 0..<6 {
            let k = FakeKernel()
            k.addFBDev(width: 8, height: 8, bpp: 32)
            k.failAt = (i, EIO)
            if let s = try? open(k) { s.close(retain: false) }
            #expect(k.leaks.isEmpty, "failing call #\(i) \(k.calls.last ?? "")")
        }
    }
}
