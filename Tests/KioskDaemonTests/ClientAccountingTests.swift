// Connections that are gone never count against the client limit, and a flood of refusals or
// bad psplash lines is one log line and a count (issue #24, 3).
import Glibc
import KioskDaemon
import KioskSys
import KioskTestSupport
import Testing

@Suite(.serialized) struct ClientAccountingTests {
    /// Connect and close, one at a time, many more than the limit between two turns of the
    /// loop: a ping that comes after them is answered, never "too many clients", and nothing is
    /// refused. (Before: the 33rd and later of one turn's closed connections were refused, the
    /// ping with them.)
    @Test func closedClientsNeverCount() throws {
        let rig = try DaemonRig()
        let cycles = Int(ControlServer.backlog) - 4   // all of them wait in the accept queue at once
        var answered = 0
        for _ in 0..<20 {
            for _ in 0..<cycles { try unixConnection(rig.path).close() }
            let c = try RawClient(rig.path)
            c.send(request("ping"))
            let r = try c.lines(rig, count: 1, seconds: 5)
            #expect(r.first?["ok"]?.bool == true, "\(r)")
            if r.first?["ok"]?.bool == true { answered += 1 }
            try rig.run(0.05) { rig.server.clientCount == 0 }
        }
        #expect(answered == 20)
        #expect(rig.server.refused == 0)
        #expect(!rig.log.contains { $0.contains("too many clients") }, "\(rig.log.prefix(3))")
    }

    /// A client that connected (and was accepted) then closed while 31 others stay open does not
    /// keep the 33rd out: the limit counts connections that are still there.
    @Test func aClosedClientIsReapedBeforeTheLimitRefuses() throws {
        let rig = try DaemonRig()
        var open: [RawClient] = []
        for _ in 0..<ControlServer.maxClients { open.append(try RawClient(rig.path)) }
        try rig.run(0.5) { rig.server.clientCount == ControlServer.maxClients }
        #expect(rig.server.clientCount == ControlServer.maxClients)
        open.removeLast()   // closes it; the daemon has not looked yet
        let late = try RawClient(rig.path)
        late.send(request("ping"))
        let r = try late.lines(rig, count: 1)
        #expect(r.first?["ok"]?.bool == true, "\(r)")
        #expect(rig.server.refused == 0)
    }

    /// 100 clients over the limit: one log line for the first refusal, then a count, written
    /// when the window ends (here: when the server closes).
    @Test func refusalsAreLoggedOnceThenCounted() throws {
        let rig = try DaemonRig()
        var open: [RawClient] = []
        for _ in 0..<ControlServer.maxClients { open.append(try RawClient(rig.path)) }
        try rig.run(0.5) { rig.server.clientCount == ControlServer.maxClients }
        for _ in 0..<100 {
            let extra = try RawClient(rig.path)
            _ = try extra.lines(rig, count: 1)
        }
        #expect(rig.server.refused == 100)
        let refusals = rig.log.filter { $0.contains("too many clients") }
        #expect(refusals.count == 1, "\(rig.log.prefix(5))")
        rig.server.close()
        let summary = rig.log.filter { $0.contains("more like it") }
        #expect(summary.count == 1, "\(rig.log)")
        #expect(summary.first?.contains("and 99 more like it in the last") == true, "\(summary)")
    }

    /// 500 bad psplash lines: one log line, then "and 499 more" when the FIFO closes.
    @Test func badPsplashLinesAreLoggedOnceThenCounted() throws {
        let rig = try DaemonRig()
        let logged = LogLines()
        var got: [PsplashFIFO.Command] = []
        let fifo = try PsplashFIFO(path: rig.dir + "/psplash_fifo", kernel: rig.loop.kernel, loop: rig.loop,
                                   log: { logged.lines.append($0) }) { got.append($0) }
        let fd = open(rig.dir + "/psplash_fifo", O_WRONLY | O_NONBLOCK)
        #expect(fd >= 0)
        for i in 0..<500 {
            _ = Array("NONSENSE \(i)\0".utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if i % 50 == 49 { try rig.run(0.02) }
        }
        _ = Array("PROGRESS 30\0".utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        try rig.run(1) { !got.isEmpty }
        #expect(got == [.progress(0.3)])
        #expect(logged.lines.filter { $0.contains("not a command") }.count == 1, "\(logged.lines.prefix(3))")
        fifo.close()
        let summary = logged.lines.filter { $0.contains("more like it") }
        #expect(summary.count == 1 && summary.first?.contains("and 499 more like it") == true, "\(logged.lines)")
    }

    /// psplash's MSG with invalid UTF-8: each bad byte is a 3-byte replacement character, so
    /// 400 of them decode to 1200 bytes; the text is cut to the label's 1024 bytes, whole
    /// characters, not dropped.
    @Test func aLongInvalidMessageIsCutNotDropped() {
        let bytes = Array("MSG ".utf8) + [UInt8](repeating: 0xFF, count: 400)
        guard case let .message(text)? = PsplashFIFO.parse(bytes) else {
            Issue.record("not a message")
            return
        }
        #expect(text.utf8.count <= PsplashFIFO.maxMessage)
        #expect(text.utf8.count == PsplashFIFO.maxMessage / 3 * 3)
        #expect(text.unicodeScalars.allSatisfy { $0 == "\u{FFFD}" })
        // Valid text under the limit is kept as is; a character is never split.
        #expect(PsplashFIFO.parse(Array("MSG héllo wörld".utf8)) == .message("héllo wörld"))
        let e = String(repeating: "e\u{301}", count: 400)   // 3 bytes a character
        guard case let .message(cut)? = PsplashFIFO.parse(Array("MSG \(e)".utf8)) else {
            Issue.record("not a message")
            return
        }
        #expect(cut == String(repeating: "e\u{301}", count: 341))
    }

    /// Plymouth's bad input on 200 connections (PID 1 uses one a status): one line, then a
    /// count when the server closes.
    @Test func plymouthsBadFramingIsLoggedOnceThenCounted() throws {
        let rig = try PlymouthRig()
        for _ in 0..<200 {
            let bad = try PlymouthRawClient(rig.name)
            bad.send(Array("P\u{1}P\0".utf8))
            _ = try bad.replies(rig, count: 1)
        }
        #expect(rig.server.malformed == 200)
        let lines = rig.logLines.get()
        #expect(lines.filter { $0.contains("bad framing") }.count == 1, "\(lines.prefix(3))")
        rig.server.close()
        let summary = rig.logLines.get().filter { $0.contains("more like it") }
        #expect(summary.count == 1 && summary.first?.contains("and 199 more like it") == true, "\(rig.logLines.get().suffix(3))")
    }
}
