// libinput's callbacks: open_restricted / close_restricted (through the `Kernel` seam) and the log
// handler. @convention(c) closures cannot capture, so each reaches its `CallbackContext` through
// libinput's user_data pointer (libinput_get_user_data in the log handler).
import CKioskInput
import Glibc
import KioskSys

/// What the callbacks reach: owned by the `LibinputSource`, alive until after libinput_unref
/// (which closes the devices through close_restricted).
final class CallbackContext {
    var log: (String) -> Void
    /// The last open_restricted failure (path and error), for a clear path_add_device error.
    var lastOpenFailure: (path: String, error: SysError)?
    /// The last message libinput logged at error priority.
    var lastLibinputError: String?
    /// Descriptors opened through open_restricted and not yet closed.
    private(set) var openDescriptors: Set<Int32> = []
    /// Where the devices are opened and closed (the seam: a test's fake kernel sees each).
    let kernel: Kernel

    init(log: @escaping (String) -> Void, kernel: Kernel) { self.log = log; self.kernel = kernel }

    var userData: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
    static func from(_ p: UnsafeMutableRawPointer) -> CallbackContext { Unmanaged.fromOpaque(p).takeUnretainedValue() }

    /// open(2) for libinput: the descriptor, or a negative errno.
    func open(_ path: String, flags: Int32) -> Int32 {
        do {
            let fd = try kernel.open(path, flags: flags)
            openDescriptors.insert(fd)
            return fd
        } catch {
            lastOpenFailure = (path, error)
            log("input: open \(path): \(errnoText(error.errno))")
            return -error.errno
        }
    }

    func close(_ fd: Int32) {
        openDescriptors.remove(fd)
        kernel.close(fd)
    }
}

/// The interface every context of this process uses. libinput keeps the pointer (it does not
/// copy the struct), so it lives at a fixed address for the whole process.
nonisolated(unsafe) let libinputInterface: UnsafeMutablePointer<libinput_interface> = {
    let p = UnsafeMutablePointer<libinput_interface>.allocate(capacity: 1)
    p.initialize(to: libinput_interface(
        open_restricted: { path, flags, userData in
            guard let path, let userData else { return -EINVAL }
            return CallbackContext.from(userData).open(String(cString: path), flags: flags)
        },
        close_restricted: { fd, userData in
            guard let userData else { return }
            CallbackContext.from(userData).close(fd)
        }))
    return p
}()

/// libinput's log lines (error priority, libinput's default) into the source's log, formatted by
/// CKioskInput (kiosk_libinput_log_set_text_handler says why not here).
let libinputLogHandler: kiosk_libinput_text_log_handler = { li, priority, text in
    guard let li, let text, let userData = kiosk_libinput_get_user_data(li) else { return }
    var line = String(cString: text)
    while line.hasSuffix("\n") { line.removeLast() }
    let ctx = CallbackContext.from(userData)
    if priority.rawValue >= LIBINPUT_LOG_PRIORITY_ERROR.rawValue { ctx.lastLibinputError = line }
    ctx.log("libinput: \(line)")
}
