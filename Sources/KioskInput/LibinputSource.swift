import CKioskInput
import KioskSeams
import KioskSys

/// A device libinput has added, as `LibinputSource.devices` lists it.
public struct InputDeviceInfo: Sendable, Equatable {
    /// The kernel's name, e.g. "ILITEK ILITEK-TP", "QEMU Virtio Tablet".
    public var name: String
    /// e.g. "event5".
    public var sysname: String
    public var isTouch: Bool, isPointer: Bool, isKeyboard: Bool
    /// udev's WL_OUTPUT for it, if any.
    public var wlOutput: String?
    /// False when the device is bound to another connector (its events are dropped).
    public var isUsed: Bool
    /// The calibration matrix in effect (touch devices; nil when libinput has none for it).
    public var calibration: CalibrationMatrix?
}

/// Touch, pointer and keys from libinput, in picture coordinates: a `KioskSeams.InputSource`.
///
/// Single-threaded and loop-driven: `attach(to:)` watches libinput's descriptor on the event
/// loop, dispatches when it is readable and calls `ready`; take the events with `events(until:)`
/// (which also dispatches). A program with its own poll can instead watch `fileDescriptor` and
/// call `dispatch()`.
/// Event times are CLOCK_MONOTONIC seconds (the kernel's evdev timestamps, which libinput sets
/// to CLOCK_MONOTONIC), plus `timeOffset` — see `align(to:)`.
public final class LibinputSource: InputSource {
    private var li: OpaquePointer?
    private var udev: OpaquePointer?
    private let callbacks: CallbackContext
    private let options: LibinputOptions
    private var translator: InputTranslator
    private var queue: [TimedInputEvent] = []
    private var records: [OpaquePointer: DeviceRecord] = [:]
    private var nextDeviceID = 1
    private var loggedDispatchError = false
    private var loop: EventLoop?
    private var watch: LoopToken?

    private struct DeviceRecord {
        var id: Int
        var info: InputDeviceInfo
    }

    /// Added to every event time (seconds); 0: CLOCK_MONOTONIC as it is.
    public var timeOffset: Seconds = 0

    /// How panel coordinates become picture coordinates; set it when the display's mode or
    /// rotation changes.
    public var transform: DisplayTransform {
        get { translator.transform }
        set { translator.transform = newValue }
    }

    /// libinput's descriptor (libinput_get_fd): readable when there is something to dispatch.
    /// −1 after `close()`.
    public var fileDescriptor: Int32 { li.map { kiosk_libinput_get_fd($0) } ?? -1 }

    /// The devices libinput has now, in the order they were added.
    public var devices: [InputDeviceInfo] { records.values.sorted { $0.id < $1.id }.map(\.info) }

    /// Descriptors open for libinput right now (for leak checks).
    var openDescriptorCount: Int { callbacks.openDescriptors.count }

    /// Creates the libinput context (udev seat or explicit paths), then dispatches once so the
    /// devices present now are added and calibrated before this returns.
    /// Throws with the failing call's name: kiosk_input_load (libinput.so.10 or libudev.so.1
    /// cannot be loaded: see `KioskInput.swift`), udev_new, libinput_udev_create_context,
    /// libinput_udev_assign_seat, libinput_path_create_context, libinput_path_add_device (with
    /// the path and the reason: open's errno, missing node, or not an input device).
    public init(options: LibinputOptions) throws(LibinputError) {
        let t = options.transform
        guard t.width > 0, t.height > 0 else {
            throw LibinputError(call: "LibinputSource", reason: "picture size \(t.width)x\(t.height) must be positive")
        }
        self.options = options
        translator = InputTranslator(transform: t)
        callbacks = CallbackContext(log: options.log, kernel: options.kernel)
        (li, udev) = try Self.makeContext(options.backend, callbacks)
        if let clock = options.clock { align(to: clock) }
        if case .udev = options.backend, !options.kernel.fileExists("/run/udev/data") {
            options.log("input: /run/udev/data is missing: is udev running? libinput only takes devices udev has initialised")
        }
        do { try dispatch() } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    public func attach(to loop: EventLoop, _ ready: @escaping () -> Void) throws {
        detach()
        guard fileDescriptor >= 0 else { return }
        self.loop = loop
        watch = loop.watch(fileDescriptor, .readable) { [unowned self] _ in
            do { try self.dispatch() } catch {
                // A descriptor that stays readable but cannot be dispatched would spin the loop.
                self.options.log("input: \(error); going on without input")
                self.close()
                return
            }
            if !self.queue.isEmpty { ready() }
        }
    }

    public func detach() {
        if let watch { loop?.cancel(watch) }
        watch = nil
        loop = nil
    }

    public func follow(_ transform: DisplayTransform) { self.transform = transform }

    /// libinput_unref (closing every device through close_restricted) and udev_unref. Idempotent.
    public func close() {
        detach()
        if let li { kiosk_libinput_unref(li) }
        li = nil
        if let udev { kiosk_udev_unref(udev) }
        udev = nil
        records.removeAll()
    }

    /// Sets `timeOffset` so event times are on `clock` (e.g. a `SystemClock` that starts at 0).
    public func align(to clock: Clock) { timeOffset = clock.now - monotonicSeconds() }

    /// libinput_dispatch, then every pending libinput event into the queue. Never blocks.
    public func dispatch() throws(LibinputError) {
        guard let li else { return }
        let r = kiosk_libinput_dispatch(li)
        if r < 0 { throw LibinputError(call: "libinput_dispatch", errno: -r) }
        while let ev = kiosk_libinput_get_event(li) {
            handle(ev)
            kiosk_libinput_event_destroy(ev)
        }
    }

    /// Dispatches (errors go to the log, once), then returns every queued event that happened
    /// up to `time`, in order; later ones stay queued.
    public func events(until time: Seconds) -> [TimedInputEvent] {
        do { try dispatch(); loggedDispatchError = false } catch {
            if !loggedDispatchError { options.log("input: \(error)") }
            loggedDispatchError = true
        }
        guard !queue.isEmpty else { return [] }
        if queue.allSatisfy({ $0.time <= time }) {
            defer { queue.removeAll(keepingCapacity: true) }
            return queue
        }
        let due = queue.filter { $0.time <= time }
        queue.removeAll { $0.time <= time }
        return due
    }

    /// Everything queued, whatever its time.
    public func takeAll() -> [TimedInputEvent] {
        defer { queue.removeAll(keepingCapacity: true) }
        return queue
    }

    // MARK: - Events

    private func handle(_ ev: OpaquePointer) {
        let type = kiosk_libinput_event_get_type(ev)
        guard let dev = kiosk_libinput_event_get_device(ev) else { return }
        switch type {
        case LIBINPUT_EVENT_DEVICE_ADDED: deviceAdded(dev)
        case LIBINPUT_EVENT_DEVICE_REMOVED: deviceRemoved(dev)
        default:
            guard let rec = records[dev], rec.info.isUsed else { return }
            switch type {
            case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION, LIBINPUT_EVENT_TOUCH_UP,
                 LIBINPUT_EVENT_TOUCH_CANCEL, LIBINPUT_EVENT_TOUCH_FRAME:
                touch(type, kiosk_libinput_event_get_touch_event(ev), device: rec.id)
            case LIBINPUT_EVENT_POINTER_MOTION, LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE, LIBINPUT_EVENT_POINTER_BUTTON:
                pointer(type, kiosk_libinput_event_get_pointer_event(ev), device: rec.id)
            case LIBINPUT_EVENT_KEYBOARD_KEY:
                guard let k = kiosk_libinput_event_get_keyboard_event(ev) else { return }
                let pressed = kiosk_libinput_event_keyboard_get_key_state(k) == LIBINPUT_KEY_STATE_PRESSED
                emit(kiosk_libinput_event_keyboard_get_time_usec(k), .key(code: Int(kiosk_libinput_event_keyboard_get_key(k)), pressed: pressed))
            default: break
            }
        }
    }

    private func touch(_ type: libinput_event_type, _ t: OpaquePointer?, device: Int) {
        guard let t else { return }
        let time = kiosk_libinput_event_touch_get_time_usec(t)
        let pw = UInt32(transform.panelWidth), ph = UInt32(transform.panelHeight)
        switch type {
        case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION:
            let slot = Int(kiosk_libinput_event_touch_get_seat_slot(t))
            let x = kiosk_libinput_event_touch_get_x_transformed(t, pw), y = kiosk_libinput_event_touch_get_y_transformed(t, ph)
            emit(time, type == LIBINPUT_EVENT_TOUCH_DOWN
                 ? translator.touchDown(slot: slot, panelX: x, panelY: y, device: device)
                 : translator.touchMotion(slot: slot, panelX: x, panelY: y))
        case LIBINPUT_EVENT_TOUCH_UP: emit(time, translator.touchUp(slot: Int(kiosk_libinput_event_touch_get_seat_slot(t))))
        case LIBINPUT_EVENT_TOUCH_CANCEL: emit(time, translator.touchCancel(slot: Int(kiosk_libinput_event_touch_get_seat_slot(t))))
        default: emit(time, .touchFrame)
        }
    }

    private func pointer(_ type: libinput_event_type, _ p: OpaquePointer?, device: Int) {
        guard let p else { return }
        let time = kiosk_libinput_event_pointer_get_time_usec(p)
        switch type {
        case LIBINPUT_EVENT_POINTER_MOTION:
            emit(time, translator.pointerRelative(dx: kiosk_libinput_event_pointer_get_dx(p), dy: kiosk_libinput_event_pointer_get_dy(p)))
        case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE:
            let x = kiosk_libinput_event_pointer_get_absolute_x_transformed(p, UInt32(transform.panelWidth))
            let y = kiosk_libinput_event_pointer_get_absolute_y_transformed(p, UInt32(transform.panelHeight))
            emit(time, translator.pointerAbsolute(panelX: x, panelY: y))
        default:
            guard kiosk_libinput_event_pointer_get_button(p) == 0x110 else { return }  // BTN_LEFT
            let pressed = kiosk_libinput_event_pointer_get_button_state(p) == LIBINPUT_BUTTON_STATE_PRESSED
            if let e = translator.leftButton(pressed: pressed, device: device) { emit(time, e) }
        }
    }

    private func emit(_ usec: UInt64, _ event: InputEvent) {
        queue.append(TimedInputEvent(time: Double(usec) / 1e6 + timeOffset, event: event))
    }

    private func deviceAdded(_ dev: OpaquePointer) {
        let name = String(cString: kiosk_libinput_device_get_name(dev))
        let sysname = String(cString: kiosk_libinput_device_get_sysname(dev))
        let wl = kiosk_libinput_device_get_output_name(dev).map { String(cString: $0) }
        let used = deviceBelongs(name: name, sysname: sysname, wlOutput: wl, bindings: options.bindings, ours: options.connector)
        var info = InputDeviceInfo(
            name: name, sysname: sysname,
            isTouch: kiosk_libinput_device_has_capability(dev, LIBINPUT_DEVICE_CAP_TOUCH) != 0,
            isPointer: kiosk_libinput_device_has_capability(dev, LIBINPUT_DEVICE_CAP_POINTER) != 0,
            isKeyboard: kiosk_libinput_device_has_capability(dev, LIBINPUT_DEVICE_CAP_KEYBOARD) != 0,
            wlOutput: wl, isUsed: used, calibration: nil)
        var notes: [String] = []
        if info.isTouch, used, let note = configureCalibration(dev) { notes.append(note) }
        if kiosk_libinput_device_config_calibration_has_matrix(dev) != 0 {
            var m = [Float](repeating: 0, count: 6)
            kiosk_libinput_device_config_calibration_get_matrix(dev, &m)
            info.calibration = CalibrationMatrix(m)
        }
        if !used { notes.append("ignored: bound to another connector than \(options.connector ?? "-")") }
        let caps = [info.isTouch ? "touch" : nil, info.isPointer ? "pointer" : nil, info.isKeyboard ? "keyboard" : nil].compactMap { $0 }
        options.log("input: added \(sysname) \"\(name)\" (\(caps.joined(separator: ", ")))"
                    + notes.map { "; " + $0 }.joined())
        records[dev] = DeviceRecord(id: nextDeviceID, info: info)
        nextDeviceID += 1
        options.onDeviceChange(name, true)
    }

    /// Sets `options.calibration` on a touch device; says what happened, for the log.
    private func configureCalibration(_ dev: OpaquePointer) -> String? {
        var def = [Float](repeating: 0, count: 6)
        let hasDefault = kiosk_libinput_device_config_calibration_get_default_matrix(dev, &def) != 0
        let udevNote = hasDefault ? "udev LIBINPUT_CALIBRATION_MATRIX \(CalibrationMatrix(def))" : ""
        guard let cal = options.calibration else {
            return hasDefault ? "calibration: \(udevNote) (libinput's default)" : nil
        }
        guard kiosk_libinput_device_config_calibration_has_matrix(dev) != 0 else {
            return "calibration: not supported by this device, \(cal) not applied"
        }
        var v = cal.values
        let status = kiosk_libinput_device_config_calibration_set_matrix(dev, &v)
        guard status == LIBINPUT_CONFIG_STATUS_SUCCESS else {
            return "calibration: libinput_device_config_calibration_set_matrix refused \(cal): \(String(cString: kiosk_libinput_config_status_to_str(status)))"
        }
        return "calibration: \(cal)" + (hasDefault ? " (replaces \(udevNote))" : "")
    }

    private func deviceRemoved(_ dev: OpaquePointer) {
        guard let rec = records.removeValue(forKey: dev) else { return }
        let now = UInt64(max(0, monotonicSeconds()) * 1e6)
        let released = translator.deviceRemoved(rec.id)
        for e in released { emit(now, e) }
        options.onDeviceChange(rec.info.name, false)
        options.log("input: removed \(rec.info.sysname) \"\(rec.info.name)\""
                    + (released.isEmpty ? "" : "; released what libinput left held: \(released)"))
    }
}
