// The control socket, the daemon's client and the Plymouth client make their calls through the
// `Kernel` seam: a fake kernel records each (lock, listen, accept, read, connect, send) and a
// failure it injects comes back as a clear error.
import Glibc
import KioskDaemon
import KioskFakeKernel
import KioskProtocol
import KioskSys
import KioskTestSupport
import Testing

@Suite(.serialized) struct DaemonKernelSeamTests {
    @Test func controlSocketAndClientGoThroughTheKernel() throws {
        let k = FakeKernel()
        let rig = try DaemonRig(kernel: k)
        #expect(k.calls.contains("activation sockets"))
        #expect(k.calls.contains("flock \(rig.path).lock"))
        #expect(k.calls.contains("listen \(rig.path)"))
        let ck = FakeKernel()
        let client = try DaemonClient(path: rig.path, kernel: ck)
        #expect(ck.calls == ["connect \(rig.path)"])
        let line = DaemonClient.requestLine(.ping)
        let written = try client.writeWithoutWaiting(line[...])
        #expect(written == line.count)
        var replies: [JSONObject] = []
        try rig.run(5) {
            replies += (try? client.availableObjects()) ?? []
            return !replies.isEmpty
        }
        #expect(replies.first?["ok"]?.bool == true, "\(replies)")
        // The server accepted, read the request and answered, all through its kernel.
        for call in ["accept", "peercred", "read", "send"] { #expect(k.calls.contains(call), "\(call) in \(k.calls)") }
        #expect(ck.calls.contains("send") && ck.calls.contains("read"), "\(ck.calls)")
    }

    @Test func controlSocketFileCallsGoThroughTheKernel() throws {
        let dir = Proc.makeTempDir("kiosk-seam-socket") + "/run/kiosk-hud"
        let path = dir + "/control.sock"
        let k = FakeKernel()
        let socket = try ControlSocket.open(path, group: getgid(), kernel: k)
        // Its directory made, the file's group and mode set (in one call that follows no link):
        // each call through the kernel.
        #expect(k.calls.contains("mkdir -p \(dir)"), "\(k.calls)")
        #expect(k.calls.contains("chmod \(path)") && !k.calls.contains("chown \(path)"), "\(k.calls)")
        let st = try linkStatus(path)
        #expect(st.kind == .socket && st.permissions == 0o660 && st.groupID == getgid())
        socket.close()
        #expect(k.calls.last == "close" && k.calls.contains("unlink \(path)"), "\(k.calls)")
        #expect(!fileExists(path))
    }

    @Test func aLeftSocketFileIsStatedAndRemovedThroughTheKernel() throws {
        let dir = Proc.makeTempDir("kiosk-seam-socket")
        let path = dir + "/control.sock"
        // A socket file left by a daemon that is gone (bound, never unlinked).
        let left = try LinuxKernel().listenUnix(path, backlog: 1)
        LinuxKernel().close(left)
        let k = FakeKernel()
        let socket = try ControlSocket.open(path, group: nil, kernel: k)
        defer { socket.close() }
        let stat = k.calls.firstIndex(of: "stat \(path)"), unlink = k.calls.firstIndex(of: "unlink \(path)")
        let listen = k.calls.firstIndex(of: "listen \(path)")
        #expect(stat != nil && unlink != nil && listen != nil, "\(k.calls)")
        if let stat, let unlink, let listen { #expect(stat < unlink && unlink < listen) }
        #expect(!k.calls.contains("chown \(path)"))
    }

    @Test func aFailedReadIsAClearError() throws {
        let rig = try DaemonRig()
        let ck = FakeKernel()
        let client = try DaemonClient(path: rig.path, kernel: ck)
        let line = DaemonClient.requestLine(.ping)
        _ = try client.writeWithoutWaiting(line[...])
        // Wait for the reply to be there (the socket readable), then fail the read with EIO.
        try rig.run(5) {
            var fds = [pollfd(fd: client.fileDescriptor, events: Int16(POLLIN), revents: 0)]
            return ((try? poll(&fds, timeoutMs: 0)) ?? 0) > 0
        }
        ck.failAt = (ck.calls.count + 1, EIO)   // after the client's poll, its read
        let error = caught(DaemonClient.Failure.self) { _ = try client.availableObjects() }
        #expect(error?.description == "reading from the daemon: read failed: Input/output error (errno 5)")
    }

    @Test func aRefusedConnectSaysNoDaemon() {
        let ck = FakeKernel()
        ck.failAt = (0, ECONNREFUSED)
        let error = caught(DaemonClient.Failure.self) { _ = try DaemonClient(path: "/run/kiosk-seam/c.sock", kernel: ck) }
        #expect(error?.description == "no kiosk-hud daemon at /run/kiosk-seam/c.sock (Connection refused)")
        #expect(ck.calls == ["connect /run/kiosk-seam/c.sock"])
    }

    @Test func plymouthClientConnectsAndWritesThroughTheKernel() throws {
        let name = "/kiosk-hud/seam-test-\(getpid())"
        let listener = try unixAbstractListener(name, backlog: 1)
        defer { try? listener.close() }
        let ck = FakeKernel()
        let client = try PlymouthClient(name: name, kernel: ck)
        #expect(ck.calls == ["connect @\(name)"])
        // The daemon's side: the connection taken, its answer waiting before the request is sent.
        var peer: FileDescriptor?
        for _ in 0..<100 where peer == nil { peer = try listener.accept(); if peer == nil { usleep(10_000) } }
        let server = try #require(peer)
        defer { try? server.close() }
        var ack: UInt8 = 0x06
        _ = try withUnsafeBytes(of: &ack) { (b) throws(SysError) in try server.sendNoSignal(b) }
        let reply = try client.send(.ping)
        #expect(reply == .ack)
        #expect(ck.calls.contains("send") && ck.calls.contains("read"), "\(ck.calls)")
        var got = [UInt8](repeating: 0, count: 16)
        let n = try got.withUnsafeMutableBytes { (b) throws(SysError) in try server.read(into: b) }
        #expect(Array(got[..<n]) == [0x50, 0x00])   // 'P', the ping, as the client wrote it
    }

    @Test func plymouthClientsRefusedConnectIsSaid() {
        let ck = FakeKernel()
        ck.failAt = (0, ECONNREFUSED)
        let error = caught(PlymouthClient.Failure.self) { _ = try PlymouthClient(name: "/kiosk-hud/none", kernel: ck) }
        #expect(error == .noDaemon("could not connect to /kiosk-hud/none: Connection refused"))
    }
}
