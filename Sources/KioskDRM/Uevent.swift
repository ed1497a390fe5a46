import Glibc
import KioskSys

/// A kernel uevent as read from the netlink socket: "ACTION@DEVPATH\0KEY=VALUE\0...".
public struct Uevent: Equatable, Sendable {
    public var action: String
    public var devpath: String
    public var properties: [String: String]

    public init(_ bytes: [UInt8]) {
        let parts = bytes.split(separator: 0, omittingEmptySubsequences: true).map { String(decoding: $0, as: UTF8.self) }
        let head = parts.first ?? ""
        if let at = head.firstIndex(of: "@") {
            action = String(head[..<at]); devpath = String(head[head.index(after: at)...])
        } else {
            action = ""; devpath = ""
        }
        var props: [String: String] = [:]
        for p in parts.dropFirst() {
            guard let eq = p.firstIndex(of: "=") else { continue }
            props[String(p[..<eq])] = String(p[p.index(after: eq)...])
        }
        properties = props
    }

    /// A DRM "connectors changed" event: `HOTPLUG=1` on a drm card (what drivers send), or any
    /// "change" of a card (what `udevadm trigger --action=change` sends; looking again is cheap).
    public var isDRMHotplug: Bool {
        guard properties["SUBSYSTEM"] == "drm" else { return false }
        if properties["HOTPLUG"] == "1" { return true }
        let name = properties["DEVNAME"] ?? String(devpath.split(separator: "/").last ?? "")
        return action == "change" && name.split(separator: "/").last?.hasPrefix("card") == true && !name.contains("-")
    }
}

/// What reading a uevent socket until it is empty found.
enum UeventRead {
    /// One uevent.
    case uevent(Uevent)
    /// The socket's buffer overran (ENOBUFS): uevents were lost — at boot udev's coldplug trigger
    /// replays every device while a display's driver probes, and the card's own may be among
    /// them. Whoever waits for a device looks again, as for one of its uevents.
    case lost
}

/// Reads the uevent socket `fd` until it is empty (or `more()` says stop), giving each uevent and
/// each overrun to `each`. ScreenWait and SwitchingScreen read it so.
func drainUevents(_ fd: Int32, kernel: any Kernel, while more: () -> Bool = { true }, _ each: (UeventRead) -> Void) {
    var buf = [UInt8](repeating: 0, count: 8192)
    while more() {
        let n: Int
        do { n = try kernel.read(fd, into: &buf) } catch {
            guard error.errno == ENOBUFS else { return }
            each(.lost)
            continue
        }
        guard n > 0 else { return }
        each(.uevent(Uevent(Array(buf[..<n]))))
    }
}
