// What board detection reads about the machine: a few small files, each read once and only
// when a rule asks (a profile whose first rule fails costs no more reads). No walk over /sys:
// two files of the device tree, /sys/class/dmi/id/product_name, and the entries of
// /sys/class/drm, /sys/class/input and /sys/bus/iio/devices with one small attribute each.
import KioskSys

/// The machine as detection sees it, under `root` (a directory standing for `/`: tests build a
/// fake /proc/device-tree, /sys/class/drm, /sys/class/input and /sys/bus/iio there).
public final class BoardFacts {
    /// "" for the real system, else the directory standing for `/` (no trailing slash).
    public let root: String

    /// Asks a card's device node (`ROOT/dev/dri/cardN`) for its driver's DRM name; nil: ask the
    /// card itself through `kernel` (DRM_IOCTL_VERSION).
    private var askDRMName: ((String) -> String?)?

    /// The seam the small files are read through.
    let kernel: any KernelFiles & KernelDescriptors

    /// `root` stands for `/` ("" or "/": the real system); the files are read through `kernel`.
    public init(root: String = "", kernel: any KernelFiles & KernelDescriptors = LinuxKernel()) {
        var r = Substring(root)
        while r.hasSuffix("/") { r = r.dropLast() }
        self.root = String(r)
        self.kernel = kernel
    }

    /// As `init(root:)`, with `drmDriverName` asking the card at a device path for its driver's
    /// own name instead of DRM_IOCTL_VERSION (a test's machine answers for its cards).
    public convenience init(root: String, drmDriverName: @escaping (String) -> String?, kernel: any KernelFiles & KernelDescriptors = LinuxKernel()) {
        self.init(root: root, kernel: kernel)
        askDRMName = drmDriverName
    }

    /// A DRM card: `card1`, the driver its device is bound to in sysfs (`vc4-drm`), its connectors.
    public struct Card: Sendable, Equatable {
        public var name: String
        public var driver: String?
        public var connectors: [Connector]
    }

    /// A DRM connector: `DSI-1` of `card1`, and its status (`connected`, `disconnected`, `unknown`).
    public struct Connector: Sendable, Equatable {
        public var name: String
        public var card: String
        public var status: String?
        /// Present and not disconnected.
        public var usable: Bool { status != "disconnected" }
    }

    /// Where the model came from.
    public enum ModelSource: String, Sendable {
        case deviceTree = "device-tree model"
        case dmi = "DMI product name"
    }

    /// The entries of /proc/device-tree/compatible (empty without a device tree).
    public private(set) lazy var compatible: [String] = {
        guard let text = read("/proc/device-tree/compatible") else { return [] }
        return text.split(separator: "\0").map(String.init)
    }()

    /// /proc/device-tree/model, else the DMI product name.
    public private(set) lazy var model: (text: String, source: ModelSource)? = {
        if let m = read("/proc/device-tree/model").map(trimmedAttribute), !m.isEmpty { return (m, .deviceTree) }
        if let m = read("/sys/class/dmi/id/product_name").map(trimmedAttribute), !m.isEmpty { return (m, .dmi) }
        return nil
    }()

    /// Every DRM card (cardN) with its driver and connectors, by name.
    public private(set) lazy var cards: [Card] = {
        let dir = root + "/sys/class/drm"
        let names = kernel.listDirectory(dir) ?? []
        var out: [Card] = []
        for n in names where isCardName(n) {
            let driver = kernel.readLink("\(dir)/\(n)/device/driver").map(lastComponent)
            let prefix = n + "-"
            let connectors = names.filter { $0.hasPrefix(prefix) }.map { c in
                Connector(name: String(c.dropFirst(prefix.count)), card: n, status: read("/sys/class/drm/\(c)/status").map(trimmedAttribute))
            }
            out.append(Card(name: n, driver: driver, connectors: connectors))
        }
        return out
    }()

    /// The name the card's DRM driver gives itself (DRM_IOCTL_VERSION: `vc4` where sysfs says
    /// `vc4-drm`; `--display-switch` and the log name drivers so), asked once a card and only
    /// when a rule needs it; nil when the card cannot be asked.
    public func drmName(of card: Card) -> String? {
        if let known = drmNameCache[card.name] { return known }
        let node = root + "/dev/dri/" + card.name
        let name = (askDRMName.map { $0(node) } ?? drmDriverName(ofCard: node, kernel: kernel)).flatMap { $0.isEmpty ? nil : $0 }
        drmNameCache[card.name] = .some(name)
        return name
    }
    private var drmNameCache: [String: String?] = [:]

    /// Both names of a card's driver as `boards detect` shows them: sysfs's, then the DRM
    /// driver's own when it differs (`vc4-drm/vc4`); nil when neither is known.
    public func driverNames(of card: Card) -> String? {
        let drm = drmName(of: card)
        guard let sysfs = card.driver else { return drm }
        guard let drm, drm != sysfs else { return sysfs }
        return sysfs + "/" + drm
    }

    /// Every connector of every card.
    public var connectors: [Connector] { cards.flatMap(\.connectors) }

    /// The modes a connector lists (WIDTHxHEIGHT, in its order; empty before the driver has
    /// probed it).
    public func modes(of c: Connector) -> [String] {
        let key = c.card + "-" + c.name
        if let known = modeCache[key] { return known }
        let text = read("/sys/class/drm/\(key)/modes", limit: 65536) ?? ""
        var seen: [String] = []
        for line in text.split(separator: "\n") {
            let m = trimmedAttribute(String(line))
            if !m.isEmpty, !seen.contains(m) { seen.append(m) }
        }
        modeCache[key] = seen
        return seen
    }
    private var modeCache: [String: [String]] = [:]

    /// The names of the input devices (inputN/name), by N.
    public private(set) lazy var inputNames: [String] = named(in: "/sys/class/input", prefix: "input")

    /// The names of the IIO devices (iio:deviceN/name), by N.
    public private(set) lazy var iioNames: [String] = named(in: "/sys/bus/iio/devices", prefix: "iio:device")

    // MARK: Reading

    /// The text of `path` under the root, nil when it cannot be read.
    func read(_ path: String, limit: Int = 4096) -> String? { try? kernel.readSmallFile(root + path, limit: limit) }

    private func named(in dir: String, prefix: String) -> [String] {
        var found: [(Int, String)] = []
        for n in kernel.listDirectory(root + dir) ?? [] where n.hasPrefix(prefix) {
            guard let k = Int(n.dropFirst(prefix.count)), let name = read("\(dir)/\(n)/name").map(trimmedAttribute), !name.isEmpty else { continue }
            found.append((k, name))
        }
        return found.sorted { $0.0 < $1.0 }.map(\.1)
    }
}

/// "card0" … (not "card0-HDMI-A-1", "renderD128" or "version").
private func isCardName(_ n: String) -> Bool {
    n.hasPrefix("card") && n.count > 4 && n.utf8.dropFirst(4).allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
}

private func lastComponent(_ path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
}

/// A sysfs or device-tree value: without surrounding blanks, newlines and NULs.
func trimmedAttribute(_ s: String) -> String {
    func blank(_ c: Character) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\0" }
    var sub = Substring(s)
    while let c = sub.first, blank(c) { sub = sub.dropFirst() }
    while let c = sub.last, blank(c) { sub = sub.dropLast() }
    return String(sub)
}
