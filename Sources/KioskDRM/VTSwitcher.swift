import CKioskSys
import Glibc
import KioskSeams
import KioskSys

/// Takes part in virtual-terminal switching the way X servers and Plymouth do: VT_PROCESS mode
/// on the active VT, so the kernel asks (SIGUSR1) before switching away and tells (SIGUSR2) when
/// switching back. The screen drops DRM master and stops drawing in between.
final class VTSwitcher: VirtualTerminalHold {
    let kernel: Kernel
    let fd: Int32
    let number: Int
    private var saved: vt_mode
    /// Switched away (the release was acknowledged, the acquire has not come yet).
    private(set) var released = false
    /// The console was last told to keep off the screen (KD_GRAPHICS, as an fbdev screen asks).
    private(set) var inGraphicsMode = false

    private init(kernel: Kernel, fd: Int32, number: Int, saved: vt_mode) {
        self.kernel = kernel; self.fd = fd; self.number = number; self.saved = saved
    }

    /// The active VT in VT_PROCESS mode, or nil (no VTs, not allowed: then VT switches are not
    /// followed, and losing master is noticed by failing calls instead).
    static func take(kernel: Kernel, log: (String) -> Void) -> VTSwitcher? {
        var state = vt_stat()
        do {
            let tty0 = try kernel.open("/dev/tty0", flags: O_RDWR | O_NOCTTY)
            defer { kernel.close(tty0) }
            try withUnsafeMutablePointer(to: &state) { (p) throws(SysError) in
                try kernel.ioctl(tty0, KIOSK_VT_GETSTATE, UnsafeMutableRawPointer(p), name: "VT_GETSTATE")
            }
        } catch {
            log("vt: no virtual terminal (\(error)); VT switches are not followed")
            return nil
        }
        let n = Int(state.v_active)
        let fd: Int32
        do { fd = try kernel.open("/dev/tty\(n)", flags: O_RDWR | O_NOCTTY) } catch {
            log("vt: cannot open /dev/tty\(n) (\(error)); VT switches are not followed")
            return nil
        }
        var old = vt_mode()
        var mode = vt_mode()
        mode.mode = CChar(VT_PROCESS)
        mode.relsig = Int16(SIGUSR1)
        mode.acqsig = Int16(SIGUSR2)
        do {
            try withUnsafeMutablePointer(to: &old) { (p) throws(SysError) in
                try kernel.ioctl(fd, KIOSK_VT_GETMODE, UnsafeMutableRawPointer(p), name: "VT_GETMODE")
            }
            try withUnsafeMutablePointer(to: &mode) { (p) throws(SysError) in
                try kernel.ioctl(fd, KIOSK_VT_SETMODE, UnsafeMutableRawPointer(p), name: "VT_SETMODE")
            }
        } catch {
            log("vt: tty\(n): \(error); VT switches are not followed")
            kernel.close(fd)
            return nil
        }
        log("vt: following switches on tty\(n)")
        return VTSwitcher(kernel: kernel, fd: fd, number: n, saved: old)
    }

    /// VT_RELDISP 1: yes, switch away.
    func acknowledgeRelease() {
        released = true
        try? kernel.ioctl(fd, KIOSK_VT_RELDISP, UnsafeMutableRawPointer(bitPattern: 1), name: "VT_RELDISP")
    }

    /// VT_RELDISP VT_ACKACQ: we are back.
    func acknowledgeAcquire() {
        released = false
        try? kernel.ioctl(fd, KIOSK_VT_RELDISP, UnsafeMutableRawPointer(bitPattern: UInt(VT_ACKACQ)), name: "VT_RELDISP")
    }

    /// KDSETMODE KD_GRAPHICS / KD_TEXT: in graphics mode the console does not draw on the
    /// framebuffer (fbdev shares it with the console); back in text mode it redraws itself.
    func setGraphics(_ on: Bool) {
        inGraphicsMode = on
        let v = UInt(on ? KD_GRAPHICS : KD_TEXT)
        try? kernel.ioctl(fd, KIOSK_KDSETMODE, UnsafeMutableRawPointer(bitPattern: v), name: "KDSETMODE")
    }

    /// Closes the descriptor and leaves the VT's mode as it is: another hold on the same VT took
    /// this one's place (`Screen.adoptVT`) and puts back the mode it saved.
    func closeKeepingMode() { kernel.close(fd) }

    /// Back to the mode the VT had (VT_AUTO normally) and close.
    func release() {
        if saved.mode == CChar(VT_PROCESS) { saved.mode = CChar(VT_AUTO) }
        _ = try? withUnsafeMutablePointer(to: &saved) { (p) throws(SysError) in
            try kernel.ioctl(fd, KIOSK_VT_SETMODE, UnsafeMutableRawPointer(p), name: "VT_SETMODE")
        }
        kernel.close(fd)
    }
}
