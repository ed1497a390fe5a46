// Who may speak as SWUpdate (SWUpdateTrust, pure): the listener and the socket file both root's
// or the daemon's own user's; a symbolic link is never the socket, whoever owns it.
import Glibc
import KioskDaemon
import KioskSys
import KioskTestSupport
import Testing

@Suite struct SWUpdateTrustRuleTests {
    /// Root and a daemon run as uid 1000 (development).
    let trust = SWUpdateTrust(users: [0, 1000])

    static func file(_ kind: FileKind, owner: UInt32) -> FileStatus {
        var f = FileStatus(kind: kind, size: 0)
        f.ownerID = owner
        return f
    }

    @Test func theListenerIsRootOrTheDaemonsUser() {
        #expect(trust.refusal(peer: PeerCredentials(pid: 10, uid: 0, gid: 0)) == nil)
        #expect(trust.refusal(peer: PeerCredentials(pid: 11, uid: 1000, gid: 1000)) == nil)
        let r = trust.refusal(peer: PeerCredentials(pid: 12, uid: 65534, gid: 65534))
        #expect(r == .listener(uid: 65534, pid: 12))
        #expect(r?.description == "its listener is uid 65534 (pid 12), not root or this daemon's user")
    }

    @Test func theFileIsASocketOfRootOrTheDaemonsUser() {
        #expect(trust.refusal(file: Self.file(.socket, owner: 0)) == nil)
        #expect(trust.refusal(file: Self.file(.socket, owner: 1000)) == nil)
        #expect(trust.refusal(file: Self.file(.socket, owner: 65534)) == .fileOwner(65534))
        // A link is refused even when root made it: what it names is not decided by its owner.
        #expect(trust.refusal(file: Self.file(.symbolicLink, owner: 0)) == .notASocket(.symbolicLink))
        #expect(trust.refusal(file: Self.file(.symbolicLink, owner: 65534))?.description == "the path is a symbolic link, not a socket")
        #expect(trust.refusal(file: Self.file(.regular, owner: 0)) == .notASocket(.regular))
    }

    /// The daemon's own rule: root and its effective user, nobody else.
    @Test func theDaemonsRule() {
        let d = SWUpdateTrust.daemon
        #expect(d.users.contains(0) && d.users.contains(effectiveUserID()) && d.users.count <= 2)
        #expect(effectiveUserID() == 65534 || d.refusal(peer: PeerCredentials(pid: 1, uid: 65534, gid: 65534)) != nil)
    }

    /// A path with a socket of this process's user, read with lstat through the seam: trusted;
    /// a link to it: not.
    @Test func aRealSocketAndALinkToIt() throws {
        let kernel = LinuxKernel()
        var template = Array("/tmp/kiosk-swu-rule.XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let s = try kernel.listenUnix(dir + "/swupdateprog", backlog: 1)
        defer { kernel.close(s) }
        #expect(symlink(dir + "/swupdateprog", dir + "/link") == 0)
        #expect(SWUpdateTrust.daemon.refusal(file: try kernel.linkStatus(dir + "/swupdateprog")) == nil)
        #expect(SWUpdateTrust.daemon.refusal(file: try kernel.linkStatus(dir + "/link")) == .notASocket(.symbolicLink))
        // stat follows it: what the path names would look trusted.
        #expect(SWUpdateTrust.daemon.refusal(file: try kernel.fileStatus(dir + "/link")) == nil)
    }
}
