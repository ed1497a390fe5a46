import CKioskSys
import Glibc
import KioskSeams
import KioskRaster
import KioskSys

/// How to open an fbdev screen.
public struct FBDevOptions {
    /// The device, e.g. /dev/fb0.
    public var path = "/dev/fb0"
    public var rotation: Rotation?
    public var scale: Double?
    public var fractionalScale = false
    /// Take the VT: graphics mode (the console stops drawing on our framebuffer) and VT_PROCESS.
    public var vt = true
    public var log: (String) -> Void = { _ in }
    public init() {}
}

/// The fbdev fallback, for boards with no DRM device: /dev/fb0 at 16 or 32 bpp. With a virtual
/// height of at least twice the visible one (asked for with FBIOPUT_VSCREENINFO when the driver
/// pans), two buffers: draw into the hidden half, FBIOPAN_DISPLAY to it, FBIO_WAITFORVSYNC.
/// Otherwise the one buffer is drawn into directly (said so in the log: it may tear).
public final class FBDevScreen: Screen, Display {
    public var backend: ScreenBackend { .fbdev }
    let kernel: Kernel
    let options: FBDevOptions
    let fd: Int32
    public let path: String
    let savedVar: fb_var_screeninfo
    var current: fb_var_screeninfo
    let memory: UnsafeMutableRawPointer
    let length: Int
    /// One surface per buffer (two when panning), panel-sized, stride = line_length.
    let surfaces: [Surface]
    var owed: [DamageRegion]
    var owesEverything: [Bool]
    var front = 0
    var waitForVsync = true
    public let width: Int, height: Int
    public let preferredFormat: PixelFormat
    public let transform: DisplayTransform
    public let scale: Double
    public private(set) var firstFrameTime: Double?
    public private(set) var isActive = true
    public private(set) var isSuspended = false
    var closed = false
    var handler: ((ScreenEvent) -> Void)?
    var vt: VTSwitcher?
    var lastFrame: Surface?
    var loop: EventLoop?
    var tokens: [LoopToken] = []
    public private(set) var presents = 0, pans = 0

    public var displays: [Display] { [self] }
    public var name: String { String(path.split(separator: "/").last ?? "fb") }
    public var doubleBuffered: Bool { surfaces.count == 2 }

    public init(options: FBDevOptions, kernel: Kernel = LinuxKernel()) throws {
        self.kernel = kernel; self.options = options; path = options.path
        fd = try kernel.open(options.path, flags: O_RDWR)
        var mapped: (UnsafeMutableRawPointer, Int)?
        var changedVar = false
        var original = fb_var_screeninfo()
        var v = fb_var_screeninfo(), f = fb_fix_screeninfo()
        do {
            try FBDevScreen.ioctl(kernel, fd, KIOSK_FBIOGET_VSCREENINFO, "FBIOGET_VSCREENINFO", &v)
            try FBDevScreen.ioctl(kernel, fd, KIOSK_FBIOGET_FSCREENINFO, "FBIOGET_FSCREENINFO", &f)
            savedVar = v
            original = v
            let format = try FBDevScreen.format(v, path: options.path)
            let yres = Int(v.yres), xres = Int(v.xres)
            // Ask for a double-height virtual screen if the driver can pan.
            if Int(v.yres_virtual) < 2 * yres && f.ypanstep > 0 {
                var want = v
                want.yres_virtual = UInt32(2 * yres); want.yoffset = 0; want.activate = UInt32(FB_ACTIVATE_NOW)
                if (try? FBDevScreen.ioctl(kernel, fd, KIOSK_FBIOPUT_VSCREENINFO, "FBIOPUT_VSCREENINFO", &want)) != nil {
                    changedVar = true
                    try FBDevScreen.ioctl(kernel, fd, KIOSK_FBIOGET_VSCREENINFO, "FBIOGET_VSCREENINFO", &v)
                    try FBDevScreen.ioctl(kernel, fd, KIOSK_FBIOGET_FSCREENINFO, "FBIOGET_FSCREENINFO", &f)
                }
            }
            current = v
            let pitch = Int(f.line_length)
            length = Int(f.smem_len)
            let canPan = (f.ypanstep > 0 || f.ywrapstep > 0) && Int(v.yres_virtual) >= 2 * yres && length >= pitch * 2 * yres
            let base = try kernel.mmap(fd, length: length, offset: 0)
            mapped = (base, length)
            memory = base
            var s: [Surface] = [try Surface(base: base, width: xres, height: yres, stride: pitch, format: format)]
            if canPan { s.append(try Surface(base: base + pitch * yres, width: xres, height: yres, stride: pitch, format: format)) }
            surfaces = s
            owed = Array(repeating: DamageRegion(), count: s.count)
            owesEverything = Array(repeating: true, count: s.count)
            front = canPan ? Int(v.yoffset) / max(1, yres) % 2 : 0
            preferredFormat = format
            let rotation = options.rotation ?? .none
            (width, height) = rotation == .quarter || rotation == .threeQuarters ? (yres, xres) : (xres, yres)
            transform = DisplayTransform(rotation: rotation, width: width, height: height)
            let mmW = Int(Int32(bitPattern: v.width)), mmH = Int(Int32(bitPattern: v.height))
            scale = options.scale ?? deviceScale(width: xres, height: yres, mmWidth: mmW, mmHeight: mmH, fractional: options.fractionalScale)
        } catch {
            if let (p, n) = mapped { kernel.munmap(p, length: n) }
            if changedVar { _ = try? FBDevScreen.ioctl(kernel, fd, KIOSK_FBIOPUT_VSCREENINFO, "FBIOPUT_VSCREENINFO", &original) }
            kernel.close(fd)
            throw error
        }
        options.log(doubleBuffered
            ? "fbdev: \(path) \(Int(v.xres))x\(Int(v.yres)) \(preferredFormat) pitch=\(f.line_length): two buffers, pan-flipped"
            : "fbdev: \(path) \(Int(v.xres))x\(Int(v.yres)) \(preferredFormat) pitch=\(f.line_length): the driver cannot pan; drawing into the visible buffer (may tear)")
    }

    static func ioctl<T>(_ k: Kernel, _ fd: Int32, _ req: UInt, _ name: String, _ arg: inout T) throws(SysError) {
        while true {
            do {
                try withUnsafeMutablePointer(to: &arg) { (p) throws(SysError) in try k.ioctl(fd, req, UnsafeMutableRawPointer(p), name: name) }
                return
            } catch where error.errno == EINTR || error.errno == EAGAIN { continue }
        }
    }

    /// XRGB8888 (32 bpp, R at bit 16) or RGB565 (16 bpp); anything else is refused.
    static func format(_ v: fb_var_screeninfo, path: String) throws -> PixelFormat {
        switch v.bits_per_pixel {
        case 32 where v.red.offset == 16 && v.green.offset == 8 && v.blue.offset == 0: return .xrgb8888
        case 16 where v.red.offset == 11 && v.red.length == 5 && v.green.offset == 5 && v.green.length == 6 && v.blue.offset == 0:
            return .rgb565
        default:
            throw ScreenError.unsupported("\(path): \(v.bits_per_pixel) bpp with red@\(v.red.offset) green@\(v.green.offset) blue@\(v.blue.offset) " +
                                           "is not XRGB8888 or RGB565")
        }
    }

    // MARK: Display

    public func present(_ frame: Surface, damage: Damage) throws {
        precondition(frame.width == width && frame.height == height, "frame size differs from the fbdev screen")
        lastFrame = frame
        presents += 1
        let rects = damage.rects(in: IntRect(x: 0, y: 0, width: width, height: height))
        for i in owed.indices { for r in rects { owed[i].add(r) } }
        guard isActive, !closed else { return }
        // An unregistered fbdev (a DRM driver took the hardware over) keeps our mapping, but the
        // memory behind it is the new driver's now: writing there would scribble on its buffers.
        // One FBIOGET_VSCREENINFO per frame (ENODEV once unregistered) says so before we write,
        // whether or not a uevent has told us yet.
        guard isDeviceAlive else {
            throw SysError(call: "ioctl(FBIOGET_VSCREENINFO)", errno: ENODEV, target: path,
                           detail: "the fbdev was unregistered (a DRM driver took the display over)")
        }
        show(frame)
    }

    func show(_ frame: Surface) {
        let full = IntRect(x: 0, y: 0, width: width, height: height)
        let target = doubleBuffered && firstFrameTime != nil ? 1 - front : front
        let rects = owesEverything[target] ? [full] : owed[target].rects
        for r in rects { ScanoutCopy.copy(frame, rect: r, to: surfaces[target], rotation: transform.rotation) }
        owed[target].removeAll()
        owesEverything[target] = false
        if doubleBuffered && (target != front || firstFrameTime == nil) {
            var v = current
            v.xoffset = 0
            v.yoffset = UInt32(target * Int(current.yres))
            do {
                try FBDevScreen.ioctl(kernel, fd, KIOSK_FBIOPAN_DISPLAY, "FBIOPAN_DISPLAY", &v)
                current.yoffset = v.yoffset
                pans += 1
                front = target
            } catch {
                options.log("fbdev: FBIOPAN_DISPLAY failed (\(error))")
            }
            if waitForVsync {
                var zero: UInt32 = 0
                do { try FBDevScreen.ioctl(kernel, fd, KIOSK_FBIO_WAITFORVSYNC, "FBIO_WAITFORVSYNC", &zero) } catch {
                    waitForVsync = false
                    options.log("fbdev: FBIO_WAITFORVSYNC not supported (\(error)); pans are not waited for")
                }
            }
        }
        if firstFrameTime == nil { firstFrameTime = monotonicSeconds() }
    }

    // MARK: Screen

    /// Follows VT switches on `loop` (the console must not draw over the framebuffer while we
    /// show, and gets it back while another VT is active).
    public func attach(to loop: EventLoop, _ handler: @escaping (ScreenEvent) -> Void) throws {
        guard self.loop == nil else { return }
        self.loop = loop
        self.handler = handler
        guard options.vt else { return }
        tokens.append(loop.onSignal(SIGUSR1) { [unowned self] in
            guard let vt = self.vt else { return }
            self.options.log("VT switch away: not drawing")
            let was = self.isActive
            self.isActive = false
            vt.acknowledgeRelease()
            if was { loop.execute { handler(.deactivated) } }
        })
        tokens.append(loop.onSignal(SIGUSR2) { [unowned self] in
            guard let vt = self.vt else { return }
            vt.acknowledgeAcquire()
            vt.setGraphics(true)
            guard !self.isSuspended else { self.options.log("VT switch back: the screen stays suspended"); return }
            self.activate()
            self.options.log("VT switch back: redrawn")
        })
        if let t = VTSwitcher.take(kernel: kernel, log: options.log) {
            t.setGraphics(true)
            vt = t
        }
    }

    /// Draws again: everything is owed (the console or another program drew meanwhile).
    func activate() {
        isActive = true
        for i in owesEverything.indices { owesEverything[i] = true }
        if let f = lastFrame { show(f) }
        if let handler { loop?.execute { handler(.activated) } }
    }

    public func suspend() {
        guard !isSuspended, !closed else { return }
        isSuspended = true
        let was = isActive
        isActive = false
        options.log("suspended: not drawing")
        if was, let handler { loop?.execute { handler(.deactivated) } }
    }

    public func resume() {
        guard isSuspended, !closed else { return }
        isSuspended = false
        guard vt?.released != true else { options.log("resumed: waiting for the VT to come back"); return }
        activate()
        options.log("resumed: redrawn")
    }

    public var hasActiveVT: Bool { vt.map { !$0.released } ?? false }

    public var vtHold: VirtualTerminalHold? { vt }

    /// Takes the hold of the screen before it on the same VT (see `Screen.adoptVT`).
    public func adoptVT(_ hold: VirtualTerminalHold) -> Bool {
        guard let own = vt, let held = hold as? VTSwitcher else { return false }
        own.closeKeepingMode()
        vt = held
        return true
    }

    public func forgetVT() { vt = nil }

    public func close(retain: Bool) {
        guard !closed else { return }
        closed = true
        kernel.munmap(memory, length: length)
        if !retain {
            var v = savedVar
            v.activate = UInt32(FB_ACTIVATE_NOW)
            _ = try? FBDevScreen.ioctl(kernel, fd, KIOSK_FBIOPUT_VSCREENINFO, "FBIOPUT_VSCREENINFO", &v)
            vt?.setGraphics(false)
        } else {
            options.log("retain: last frame left in \(path); the console stays in graphics mode for the next program")
        }
        vt?.release()
        vt = nil
        for t in tokens { loop?.cancel(t) }
        tokens = []
        loop = nil
        kernel.close(fd)
    }

    public var summary: String {
        "presents=\(presents) pans=\(pans) double_buffered=\(doubleBuffered ? "yes" : "no") vsync_wait=\(waitForVsync ? "yes" : "no")"
    }
}
