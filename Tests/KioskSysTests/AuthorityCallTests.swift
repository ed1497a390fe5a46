// The calls that keep a root daemon within a client's rights (KioskSys's Authority.swift), on
// the real kernel: a file opened as another user, never a FIFO or a device; a socket's mode set
// without following a link; a peer's groups as the kernel recorded them.
import Glibc
import KioskSys
import KioskTestSupport
import Testing

@Suite struct AuthorityCallTests {
    @Test func onlyARegularFileIsOpenedAndWithTheUsersRights() throws {
        let dir = Proc.makeTempDir("kiosk-open-as")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        try setMode(dir, 0o755)
        try replaceFile(dir + "/mine", with: Array("root's".utf8), mode: 0o600)
        try replaceFile(dir + "/ours", with: Array("anyone's".utf8), mode: 0o644)
        #expect(mkfifo(dir + "/fifo", 0o666) == 0)
        #expect(symlink(dir + "/fifo", dir + "/link") == 0)
        let (fd, st) = try openRegularFile(dir + "/ours", as: nil)
        #expect(st.kind == .regular && st.size == 8)
        try fd.close()
        for path in [dir + "/fifo", dir + "/link", "/dev/null"] {
            let e = caught(SysError.self) { _ = try openRegularFile(path, as: nil) }
            #expect(e?.errno == EINVAL && e?.detail?.hasPrefix("not a regular file") == true, "\(path): \(String(describing: e))")
        }
        guard getuid() == 0 else { return }
        let nobody = PeerCredentials(pid: 0, uid: 65534, gid: 65534)
        #expect(caught(SysError.self) { _ = try openRegularFile(dir + "/mine", as: nobody) }?.errno == EACCES)
        let (theirs, _) = try openRegularFile(dir + "/ours", as: nobody)
        try theirs.close()
        // A group the user is in opens what the group may read; the process keeps its own rights.
        try replaceFile(dir + "/group", with: Array("users'".utf8), mode: 0o640)
        #expect(chown(dir + "/group", 0, 100) == 0)
        #expect(caught(SysError.self) { _ = try openRegularFile(dir + "/group", as: nobody) }?.errno == EACCES)
        let member = PeerCredentials(pid: 0, uid: 65534, gid: 65534, groups: [100])
        let (g, _) = try openRegularFile(dir + "/group", as: member)
        try g.close()
        let (again, _) = try openRegularFile(dir + "/mine", as: nil)
        try again.close()
    }

    @Test func aSocketsModeIsSetWithoutFollowingALink() throws {
        let dir = Proc.makeTempDir("kiosk-socket-mode")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        try replaceFile(dir + "/target", with: [1], mode: 0o600)
        #expect(symlink(dir + "/target", dir + "/c.sock") == 0)
        let e = caught(SysError.self) { try setSocketFileAccess(dir + "/c.sock", group: nil, mode: 0o666) }
        #expect(e != nil, "a link is not followed")
        #expect(try fileStatus(dir + "/target").permissions == 0o600)
    }
}
