// sd_notify(3) without libsystemd: the daemon tells systemd it is ready (READY=1) once its first
// frame is on screen, so a `Type=notify` unit ordered `Before=sysinit.target` holds the boot's
// sysinit.target until the HUD is visible — or until the daemon gives up waiting for a display.
// The protocol is one datagram of "KEY=VALUE\n" lines to the AF_UNIX socket named by
// $NOTIFY_SOCKET: a path, or an abstract name written with a leading '@'. Linking libsystemd for
// this would cost a library load on the way to the first frame; this is socket + sendto + close.
import Glibc

/// The socket address of $NOTIFY_SOCKET's value and its length: a path ("/run/systemd/notify"),
/// or an abstract name ("@/org/freedesktop/systemd1/notify": the '@' becomes a NUL and the
/// length ends at the name, with no terminating NUL). Nil for anything else (systemd 253's
/// "vsock:" addresses are not supported).
func notifyAddress(_ name: String) -> (sockaddr_un, socklen_t)? {
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    var bytes = Array(name.utf8)
    guard let first = bytes.first, first == UInt8(ascii: "/") || first == UInt8(ascii: "@"), bytes.count >= 2,
          bytes.count < MemoryLayout.size(ofValue: addr.sun_path), !bytes.contains(0) else { return nil }
    let abstract = first == UInt8(ascii: "@")
    if abstract { bytes[0] = 0 }
    withUnsafeMutableBytes(of: &addr.sun_path) { b in for (i, c) in bytes.enumerated() { b[i] = c } }
    let offset = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path) ?? 2
    return (addr, socklen_t(offset + bytes.count + (abstract ? 0 : 1)))
}

/// Sends `state` (e.g. "READY=1\nSTATUS=…") to the service manager, as sd_notify(0, state)
/// does. Returns false, doing nothing, when `socket` (default: $NOTIFY_SOCKET) is unset or
/// empty: not started by systemd, or not as a notify service. Throws, naming the call and the
/// socket, when the datagram cannot be sent (a malformed $NOTIFY_SOCKET is EAFNOSUPPORT).
@discardableResult
public func notifyServiceManager(_ state: String, socket name: String? = environmentValue("NOTIFY_SOCKET")) throws(SysError) -> Bool {
    guard let name, !name.isEmpty else { return false }
    guard let found = notifyAddress(name) else {
        throw SysError(call: "socket", errno: EAFNOSUPPORT, target: "NOTIFY_SOCKET=\(name.utf8.count > 80 ? String(name.prefix(80)) + "…" : name)",
                       detail: "not a path or an @abstract name")
    }
    var (addr, length) = found
    let fd = try retrying("socket(AF_UNIX, SOCK_DGRAM)", name) { Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
    defer { Glibc.close(fd) }
    let bytes = Array(state.utf8)
    _ = try retrying("sendto", name) {
        bytes.withUnsafeBytes { b in
            withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.sendto(fd, b.baseAddress, b.count, Int32(MSG_NOSIGNAL), $0, length) }
            }
        }
    }
    return true
}
