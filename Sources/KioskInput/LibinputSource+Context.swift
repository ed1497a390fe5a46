import CKioskInput
import KioskSys

extension LibinputSource {
    /// The libinput context (and the udev context for the udev backend), or an error naming the
    /// failing call with everything made so far released.
    static func makeContext(_ backend: LibinputBackend, _ cb: CallbackContext) throws(LibinputError) -> (OpaquePointer, OpaquePointer?) {
        try loadLibraries()
        switch backend {
        case let .udev(seat):
            guard let udev = kiosk_udev_new() else { throw LibinputError(call: "udev_new", reason: "udev context not created (out of memory?)") }
            guard let li = kiosk_libinput_udev_create_context(libinputInterface, cb.userData, udev) else {
                kiosk_udev_unref(udev)
                throw LibinputError(call: "libinput_udev_create_context", reason: "no libinput context (out of memory?)")
            }
            kiosk_libinput_log_set_text_handler(li, libinputLogHandler)
            if kiosk_libinput_udev_assign_seat(li, seat) != 0 {
                let why = cb.lastLibinputError ?? "udev monitor or enumeration failed (is /sys mounted, netlink allowed?)"
                kiosk_libinput_unref(li)
                kiosk_udev_unref(udev)
                throw LibinputError(call: "libinput_udev_assign_seat", target: seat, reason: why)
            }
            return (li, udev)
        case let .path(paths):
            guard !paths.isEmpty else { throw LibinputError(call: "libinput_path_add_device", reason: "no device paths given") }
            guard let li = kiosk_libinput_path_create_context(libinputInterface, cb.userData) else {
                throw LibinputError(call: "libinput_path_create_context", reason: "no libinput context (out of memory?)")
            }
            kiosk_libinput_log_set_text_handler(li, libinputLogHandler)
            for path in paths {
                cb.lastOpenFailure = nil
                cb.lastLibinputError = nil
                if let refusal = notAnInputNode(path, cb.kernel) {
                    kiosk_libinput_unref(li)
                    throw refusal
                }
                if kiosk_libinput_path_add_device(li, path) == nil {
                    let error = addDeviceError(path, cb)
                    kiosk_libinput_unref(li)
                    throw error
                }
            }
            return (li, nil)
        }
    }

    /// libinput.so.10 and libudev.so.1, loaded with dlopen the first time a context is made
    /// (later calls return at once); an error saying which library or symbol is missing when
    /// the board has no libinput.
    static func loadLibraries() throws(LibinputError) {
        guard let why = kiosk_input_load() else { return }
        throw LibinputError(call: "kiosk_input_load", reason: "libinput is not available: \(String(cString: why))")
    }

    /// Why `path` is not worth giving to libinput_path_add_device, decided from stat and udev's
    /// database without opening it: not a character device, not the input subsystem's (major
    /// 13), or one udev has not initialised (no /run/udev/data/c13:N) — for which libinput
    /// sleeps 10 ms at a time for 2 s before it gives up (found by kiosk-hud-fuzz cli: --input
    /// naming a link to /dev/zero held show's start for 2 s). nil: let libinput try.
    private static func notAnInputNode(_ path: String, _ kernel: any Kernel) -> LibinputError? {
        guard let st = try? kernel.fileStatus(path) else { return nil }  // missing: libinput's error says so
        let call = "libinput_path_add_device", prefix = "not an input device libinput handles"
        guard st.kind == .characterDevice else { return LibinputError(call: call, target: path, reason: "\(prefix) (\(st.kind), not a character device)") }
        let numbers = "\(st.deviceMajor):\(st.deviceMinor)"
        guard st.deviceMajor == 13 else {
            return LibinputError(call: call, target: path, reason: "\(prefix) (character device \(numbers), not the input subsystem's 13:N)")
        }
        guard kernel.fileExists("/run/udev/data/c\(numbers)") else {
            return LibinputError(call: call, target: path, reason: "\(prefix) yet (udev has not initialised it: no /run/udev/data/c\(numbers))")
        }
        return nil
    }

    /// Why libinput_path_add_device returned NULL: open's errno, a missing node, or a device
    /// libinput does not handle.
    private static func addDeviceError(_ path: String, _ cb: CallbackContext) -> LibinputError {
        let call = "libinput_path_add_device"
        if let f = cb.lastOpenFailure, f.path == path {
            return LibinputError(call: call, target: path, reason: "open: \(errnoText(f.error.errno))", errno: f.error.errno)
        }
        if !cb.kernel.fileExists(path) { return LibinputError(call: call, target: path, reason: "no such device node", errno: 2) }
        let detail = cb.lastLibinputError.map { " (libinput: \($0))" } ?? ""
        return LibinputError(call: call, target: path,
                             reason: "not an input device libinput handles (not tagged ID_INPUT by udev, or no touch, pointer or keyboard capability)\(detail)")
    }
}
