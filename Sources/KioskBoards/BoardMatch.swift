// `[match]` of a board profile: what a machine must have for `--board auto` to choose the
// profile. Every key given is a rule, and every rule must hold; a rule's list holds when any one
// of its entries does. The more rules a profile has, the more specific it is, and the most
// specific profile that matches wins (BoardDetection). A profile without rules is never chosen
// by detection, only by name (`generic` is the fallback).

/// One kind of rule, with the board file key that gives it. In the order they are checked:
/// cheapest and most telling first (two small files, then one directory of sysfs at a time).
public enum BoardRuleKind: String, CaseIterable, Sendable {
    /// An entry of /proc/device-tree/compatible, whole (e.g. `raspberrypi,4-model-b`).
    case compatible
    /// Part of /proc/device-tree/model, or of the DMI product name on x86.
    case model
    /// A DRM card's driver, whole: the DRM driver's own name (DRM_IOCTL_VERSION, `vc4`) or the
    /// sysfs driver its device is bound to (where /sys/class/drm/cardN/device/driver links, `vc4-drm`).
    case drmDriver = "drm_driver"
    /// A DRM connector's name, whole (`DSI-1`), present and not disconnected.
    case connector
    /// A mode WIDTHxHEIGHT listed by a connector (those of the connector rule, if any).
    case mode
    /// Part of an IIO device's name (/sys/bus/iio/devices/iio:deviceN/name).
    case iio
    /// Part of an input device's name (/sys/class/input/inputN/name).
    case input

    /// The board file key.
    public var key: String { rawValue }

    /// Whether the rule is about the display (a DRM card's driver, connector or mode): it can
    /// fail at boot only because the board's display driver has not loaded yet.
    public var isDisplay: Bool {
        switch self {
        case .drmDriver, .connector, .mode: true
        case .compatible, .model, .iio, .input: false
        }
    }

    /// Whether an entry must equal what the machine has (else: be part of it).
    public var whole: Bool {
        switch self {
        case .compatible, .drmDriver, .connector, .mode: true
        case .model, .iio, .input: false
        }
    }
}

/// A board profile's `[match]` rules (empty: never chosen by detection).
public struct BoardMatch: Sendable, Equatable {
    public var compatible: [String] = []
    public var model: [String] = []
    public var drmDriver: [String] = []
    public var connector: [String] = []
    public var mode: [String] = []
    public var iio: [String] = []
    public var input: [String] = []

    public init(compatible: [String] = [], model: [String] = [], drmDriver: [String] = [], connector: [String] = [],
                mode: [String] = [], iio: [String] = [], input: [String] = []) {
        self.compatible = compatible; self.model = model; self.drmDriver = drmDriver; self.connector = connector
        self.mode = mode; self.iio = iio; self.input = input
    }

    /// The entries of one kind of rule (empty: no such rule).
    public subscript(kind: BoardRuleKind) -> [String] {
        get {
            switch kind {
            case .compatible: compatible
            case .model: model
            case .drmDriver: drmDriver
            case .connector: connector
            case .mode: mode
            case .iio: iio
            case .input: input
            }
        }
        set {
            switch kind {
            case .compatible: compatible = newValue
            case .model: model = newValue
            case .drmDriver: drmDriver = newValue
            case .connector: connector = newValue
            case .mode: mode = newValue
            case .iio: iio = newValue
            case .input: input = newValue
            }
        }
    }

    /// The kinds of rule given, in the order they are checked.
    public var kinds: [BoardRuleKind] { BoardRuleKind.allCases.filter { !self[$0].isEmpty } }

    /// How specific the profile is: the number of rules (all must hold).
    public var specificity: Int { kinds.count }

    /// No rules: detection never chooses the profile.
    public var isEmpty: Bool { kinds.isEmpty }

    /// "compatible raspberrypi,4-model-b|raspberrypi,3-model-b; connector DSI-1" (one line).
    public var summary: String {
        kinds.map { "\($0.key) " + self[$0].joined(separator: "|") }.joined(separator: "; ")
    }
}

/// Whether `needle`'s bytes occur in `haystack` (String.contains(String) lives in
/// _StringProcessing, which kiosk-hud does not link).
func containsText(_ haystack: String, _ needle: String) -> Bool {
    let h = Array(haystack.utf8), n = Array(needle.utf8)
    guard !n.isEmpty else { return true }
    guard h.count >= n.count else { return false }
    for i in 0...(h.count - n.count) where h[i] == n[0] {
        var j = 1
        while j < n.count, h[i + j] == n[j] { j += 1 }
        if j == n.count { return true }
    }
    return false
}
