import Glibc
import KioskDaemon
import KioskSys
import KioskTestSupport
import Testing

/// The group systemd gave an activated socket (SocketGroup=) is read from the socket file.
@Suite struct ActivationGroupTests {
    @Test func theSocketFilesGroupIsTheOneLetIn() throws {
        let dir = Proc.makeTempDir("kiosk-activation-group")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let fd = try unixListener(dir + "/c.sock", backlog: 4)
        defer { try? fd.close() }
        #expect(boundPath(ofUnixSocket: fd.rawValue) == dir + "/c.sock")
        // As made by root: root's group, so nobody else is let in by it.
        if getegid() == 0 { #expect(ControlSocket.group(ofListening: fd.rawValue) == nil) }
        #expect(chown(dir + "/c.sock", UInt32.max, 65534) == 0 || geteuid() != 0)
        if geteuid() == 0 { #expect(ControlSocket.group(ofListening: fd.rawValue) == 65534) }
        #expect(boundPath(ofUnixSocket: -1) == nil)
    }
}
