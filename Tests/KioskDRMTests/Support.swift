import KioskSeams
@testable import KioskDRM
import KioskFakeKernel
import KioskRaster
import KioskSys
import Testing

/// Log lines a screen wrote.
final class LogSink: @unchecked Sendable {
    var lines: [String] = []
    func contains(_ s: String) -> Bool { lines.contains { $0.contains(s) } }
}

/// A DRM screen over a fake kernel (without VT handling unless `configure` asks), attached to
/// a real event loop whose polls the fake answers.
func openScreen(_ k: FakeKernel, _ log: LogSink = LogSink(), _ configure: (inout DRMOptions) -> Void = { _ in }) throws -> DRMScreen {
    var o = DRMOptions()
    o.vt = false
    o.log = { log.lines.append($0) }
    configure(&o)
    let s = try DRMScreen(options: o, kernel: k)
    try s.attach(to: PollEventLoop(kernel: k, clock: SystemClock())) { _ in }
    return s
}

/// A screen on `k`, its first display, and a picture of its size shown whole and then changed
/// once (the first present sets the CRTC, the second queues a page flip).
func presentedTwice(_ k: FakeKernel) throws -> (DRMScreen, DRMDisplay, Picture) {
    let s = try openScreen(k)
    let o = try #require(s.drmDisplays.first)
    let pic = try Picture(width: o.width, height: o.height)
    try o.present(pic.surface, damage: .whole)
    try o.present(pic.surface, damage: .region(pic.next()))
    return (s, o, pic)
}

extension DRMScreen {
    /// Runs the screen's loop for up to `timeout` seconds, until it reports something other than
    /// `.frameDone`; returns what it reported (the old blocking `wait`, for the tests).
    func wait(timeout: Double) throws -> Set<ScreenEvent> {
        var got: Set<ScreenEvent> = []
        let saved = handler
        handler = { got.insert($0) }
        defer { handler = saved }
        let loop = self.loop as! PollEventLoop
        let end = monotonicSeconds() + timeout
        repeat {
            try loop.runOnce(timeout: max(0, end - monotonicSeconds()))
        } while got.subtracting([.frameDone]).isEmpty && monotonicSeconds() < end
        return got
    }

    /// Whether a display still owes a frame (presented while its flip was in flight).
    var owesFrames: Bool { drmDisplays.contains { $0.owesFrame } }
}

/// A picture in ordinary memory that changes a little each frame (like the HUD's spinner): frame
/// n repaints one 8×8 cell with a colour that depends on n and the cell.
final class Picture {
    let bitmap: Bitmap
    var frame = 0
    init(width: Int, height: Int, format: PixelFormat = .xrgb8888) throws {
        bitmap = try Bitmap(width: width, height: height, format: format)
        for y in 0..<height { for x in 0..<width { set(x, y, UInt32(0xFF00_0000) | UInt32(x * 3 & 0xFF) << 16 | UInt32(y * 5 & 0xFF) << 8) } }
    }
    var surface: Surface { bitmap.surface }

    func set(_ x: Int, _ y: Int, _ argb: UInt32) {
        switch bitmap.format {
        case .rgb565: bitmap.surface.row16(y)[x] = UInt16(truncatingIfNeeded: (argb >> 8) & 0xF800 | (argb >> 5) & 0x07E0 | (argb >> 3) & 0x1F)
        default: bitmap.surface.row32(y)[x] = argb
        }
    }

    /// Paints the next frame; returns its damage.
    func next() -> DamageRegion {
        frame += 1
        let cols = max(1, bitmap.width / 8), rows = max(1, bitmap.height / 8)
        let cell = (frame * 7) % (cols * rows)
        let r = IntRect(x: (cell % cols) * 8, y: (cell / cols) * 8, width: 8, height: 8).intersection(bitmap.surface.bounds)
        let color = UInt32(0xFF00_0000) | UInt32(frame * 40 & 0xFF) << 16 | UInt32(frame * 90 & 0xFF) | 0x80
        for y in r.minY..<r.maxY { for x in r.minX..<r.maxX { set(x, y, color) } }
        return DamageRegion([r])
    }
}

/// Whether the scanout buffer on `crtc` shows `picture` turned by `rotation`.
func scanoutShows(_ k: FakeKernel, crtc: UInt32, _ picture: Surface, rotation: Rotation) -> Bool {
    guard let d = k.scanout(crtc) else { return false }
    let w = picture.width, h = picture.height
    for y in 0..<h {
        for x in 0..<w {
            let p = ScanoutCopy.panelPixel(x: x, y: y, w: w, h: h, rotation: rotation)
            let want: UInt32, got: UInt32
            if d.bpp == 16 {
                got = UInt32((d.memory + p.y * d.pitch).assumingMemoryBound(to: UInt16.self)[p.x])
                want = UInt32(picture.row16(y)[x])
            } else {
                got = (d.memory + p.y * d.pitch).assumingMemoryBound(to: UInt32.self)[p.x]
                want = picture.row32(y)[x]
            }
            if got != want { return false }
        }
    }
    return true
}

/// Runs the loop until no flip is pending and no frame is owed (the fake completes flips on poll).
func settle(_ s: DRMScreen) throws {
    var n = 0
    let loop = s.loop as! PollEventLoop
    while (s.anyFlipPending || s.owesFrames) && n < 40 { try loop.runOnce(timeout: 0); n += 1 }
}
