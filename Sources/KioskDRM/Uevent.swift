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
