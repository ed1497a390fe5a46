import KioskSeams
import KioskSys

/// Where libinput finds its devices.
public enum LibinputBackend: Sendable, Equatable {
    /// Every input device udev assigns to the seat (`ID_SEAT`, default "seat0"), with hotplug.
    /// Needs udev running: libinput ignores devices udev has not initialised (the source logs a
    /// warning when /run/udev/data is missing).
    case udev(seat: String)
    /// Exactly these device nodes (`/dev/input/eventN`), no hotplug: a device that goes away
    /// is gone. libinput still wants udev's record of each (ID_INPUT_* tags, calibration): for a
    /// node udev has not initialised it waits up to 2 s, then refuses it.
    case path([String])
}

/// Which device a `TouchBinding` means: the kernel's sysname (`event5`, or its node
/// `/dev/input/event5`) exactly, else a case-insensitive substring of the device's name
/// (`"ILITEK"` matches "ILITEK ILITEK-TP").
public struct DeviceMatch: Sendable, Equatable, CustomStringConvertible {
    /// What was given.
    public var pattern: String
    public init(_ pattern: String) { self.pattern = pattern }

    /// Whether a device with this name and sysname is meant.
    public func matches(name: String, sysname: String) -> Bool {
        let p = pattern.hasPrefix("/dev/input/") ? String(pattern.dropFirst("/dev/input/".count)) : pattern
        if p == sysname { return true }
        return !p.isEmpty && Self.contains(name.lowercased(), p.lowercased())
    }

    /// Substring test on UTF-8 (String's own `contains(_: String)` is in _StringProcessing,
    /// which kiosk-hud does not link).
    static func contains(_ haystack: String, _ needle: String) -> Bool {
        let h = Array(haystack.utf8), n = Array(needle.utf8)
        guard n.count <= h.count else { return false }
        for i in 0...(h.count - n.count) where h[i..<(i + n.count)].elementsEqual(n) { return true }
        return false
    }

    public var description: String { pattern }
}

/// "This touch screen belongs to that connector": with several connectors lit, a touch device
/// bound to a connector other than the source's own (`LibinputOptions.connector`) is ignored, so a finger on
/// the second panel does not press the first panel's button. Without a binding, libinput's own
/// udev property `WL_OUTPUT` (libinput_device_get_output_name) binds a device the same way;
/// devices bound by neither belong to every connector. (Wayland and libinput call a connector an
/// output, as `WL_OUTPUT` and `--bind-touch DEVICE=OUTPUT`'s words still do.)
public struct TouchBinding: Sendable, Equatable, CustomStringConvertible {
    public var device: DeviceMatch
    /// A connector name, e.g. "HDMI-A-1", "DSI-1".
    public var connector: String

    public init(device: DeviceMatch, connector: String) { self.device = device; self.connector = connector }

    /// `init(device:connector:)`'s earlier form.
    @available(*, deprecated, renamed: "init(device:connector:)")
    public init(device: DeviceMatch, output: String) { self.init(device: device, connector: output) }
    /// `connector`'s earlier name.
    @available(*, deprecated, renamed: "connector")
    public var output: String {
        get { connector }
        set { connector = newValue }
    }

    /// Parses "DEVICE=OUTPUT" (`--bind-touch`); DEVICE as in `DeviceMatch`.
    public init(parsing text: String) throws(LibinputError) {
        guard let eq = text.lastIndex(of: "="), eq != text.startIndex, text.index(after: eq) != text.endIndex else {
            throw LibinputError(call: "touch binding", target: text, reason: "expected DEVICE=OUTPUT, e.g. ILITEK=DSI-1 or event5=HDMI-A-1")
        }
        self.init(device: DeviceMatch(String(text[..<eq])), connector: String(text[text.index(after: eq)...]))
    }

    public var description: String { "\(device)=\(connector)" }
}

/// How to set up a `LibinputSource`.
public struct LibinputOptions {
    /// udev seat (default "seat0") or explicit device nodes.
    public var backend: LibinputBackend = .udev(seat: "seat0")
    /// The picture the events are for: touch and absolute pointer positions are scaled to its
    /// panel size, then rotated into picture coordinates. Can be changed later
    /// (`LibinputSource.transform`).
    public var transform: DisplayTransform
    /// The name of the connector the picture is on, for `bindings` and `WL_OUTPUT`; nil:
    /// bindings are not consulted and every device counts (one connector).
    public var connector: String?
    /// `connector`'s earlier name.
    @available(*, deprecated, renamed: "connector")
    public var output: String? {
        get { connector }
        set { connector = newValue }
    }
    /// Set on every touch device as it is added (libinput_device_config_calibration_set_matrix),
    /// replacing udev's LIBINPUT_CALIBRATION_MATRIX for it. nil: leave libinput's default, which
    /// already *is* udev's LIBINPUT_CALIBRATION_MATRIX when the device has one.
    public var calibration: CalibrationMatrix?
    /// Touch devices that belong to particular connectors.
    public var bindings: [TouchBinding] = []
    /// The clock the caller's `events(until:)` times are on; event times are put on it
    /// (`LibinputSource.align(to:)`). nil: CLOCK_MONOTONIC seconds (KioskSys.monotonicSeconds).
    public var clock: Clock?
    /// Where log lines go (devices added/removed/ignored, libinput's own errors).
    public var log: (String) -> Void = { _ in }
    /// A device was added (true) or removed; its name. Called while dispatching.
    public var onDeviceChange: (String, Bool) -> Void = { _, _ in }

    /// Where libinput's devices are opened and closed (its open_restricted/close_restricted):
    /// the real kernel unless a test plays it.
    public var kernel: Kernel = LinuxKernel()
    public init(transform: DisplayTransform) { self.transform = transform }
}
