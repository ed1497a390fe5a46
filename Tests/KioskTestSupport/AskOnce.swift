// A request to an in-process daemon's control socket while the test turns the daemon's loop: the
// suites that drive the daemon on an embedded or fake-kernel loop (WaitDisplayTests,
// DisplaySwitchDaemonTests, InitramfsNewRootInFlightTests) ask through this one function.
import Glibc
import KioskProtocol
import KioskSys

/// One request and its reply on a connection of its own to the control socket at `path`;
/// `run(seconds, until)` turns the daemon's loop meanwhile (at most 2 s); the line gets its
/// newline when it has none.
public func askOnce(_ path: String, _ line: String, running run: (Double, () -> Bool) throws -> Void) throws -> JSONObject? {
    let fd = try unixConnection(path).rawValue
    defer { Glibc.close(fd) }
    _ = fcntl(fd, F_SETFL, O_NONBLOCK)
    _ = Array((line.hasSuffix("\n") ? line : line + "\n").utf8).withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    var got: [UInt8] = []
    try run(2) {
        var b = [UInt8](repeating: 0, count: 65536)
        let n = Glibc.read(fd, &b, b.count)
        if n > 0 { got += b[..<n] }
        return got.contains(0x0A)
    }
    guard let nl = got.firstIndex(of: 0x0A), case let .object(o)? = try? JSON.parse(got[..<nl]) else { return nil }
    return o
}
