// psplash's FIFO is a door into the daemon (QUIT ends it, MSG writes its label): a FIFO found at
// its path is read only when root or the daemon's user owns it and not every user may write it,
// and never through a symbolic link. An untrusted FIFO is replaced in a directory that is the
// daemon's alone, and refused anywhere else (issue: a shared PSPLASH_FIFO_DIR). In process, with
// the real kernel: the tests run as root, so a stranger's files are made with chown.
import Glibc
import KioskDaemon
import KioskSys
import KioskTestSupport
import Testing

@Suite struct PsplashFIFOTrustTests {
    static let nobody = Stranger.uid

    /// A status as lstat or fstat would give it.
    static func status(_ kind: FileKind, owner: UInt32 = 0, permissions: UInt32 = 0o600) -> FileStatus {
        var s = FileStatus(kind: kind, size: 0)
        s.ownerID = owner
        s.permissions = permissions
        return s
    }

    /// A directory of `mode` in the rig's, owned by `owner`.
    static func directory(_ rig: DaemonRig, _ name: String, mode: mode_t, owner: uid_t = 0) throws -> String {
        let dir = rig.dir + "/" + name
        #expect(mkdir(dir, 0o700) == 0)
        #expect(chmod(dir, mode) == 0)
        #expect(chown(dir, owner, gid_t(owner == 0 ? 0 : Stranger.gid)) == 0)
        return dir
    }

    /// A FIFO at `path` owned by `owner` with `mode`.
    static func fifo(_ path: String, owner: uid_t, mode: mode_t) {
        #expect(mkfifo(path, 0o600) == 0)
        #expect(chmod(path, mode) == 0)
        #expect(chown(path, owner, owner == 0 ? 0 : Stranger.gid) == 0)
    }

    /// The FIFO opened as the daemon opens it, and what was refused instead.
    static func open(_ rig: DaemonRig, _ path: String, user: UInt32 = 0, got: Shared<[PsplashFIFO.Command]> = Shared([])) -> Result<PsplashFIFO, PsplashFIFOError> {
        Result { () throws(PsplashFIFOError) in
            try PsplashFIFO(path: path, kernel: rig.loop.kernel, loop: rig.loop, user: user, log: { [logged = rig.logged] in logged.lines.append($0) }) { c in
                got.set { $0.append(c) }
            }
        }
    }

    /// psplash-write's way: write-only, non-blocking, the command and its NUL.
    static func write(_ path: String, _ command: String) -> Bool {
        let fd = Glibc.open(path, O_WRONLY | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let bytes = Array((command + "\0").utf8)
        return bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count
    }

    @Test func whatIsTrusted() {
        let user: UInt32 = 1000
        #expect(PsplashFIFO.distrust(Self.status(.fifo), user: user) == nil)
        #expect(PsplashFIFO.distrust(Self.status(.fifo, owner: user), user: user) == nil)
        #expect(PsplashFIFO.distrust(Self.status(.fifo, permissions: 0o620), user: user) == nil, "group write is root's grant")
        #expect(PsplashFIFO.distrust(Self.status(.fifo, owner: Self.nobody), user: user) == .owner(Self.nobody))
        #expect(PsplashFIFO.distrust(Self.status(.fifo, permissions: 0o622), user: user) == .writableByOthers(permissions: 0o622))
        #expect(PsplashFIFO.distrust(Self.status(.symbolicLink, permissions: 0o777), user: user) == .symbolicLink)
        #expect(PsplashFIFO.distrust(Self.status(.regular), user: user) == .notFIFO(.regular))
        #expect(PsplashFIFO.distrust(Self.status(.socket), user: user) == .notFIFO(.socket))
        // The daemon's alone: root's or its user's, writable by no one else — sticky or not.
        #expect(PsplashFIFO.isDaemonsDirectory(Self.status(.directory, permissions: 0o755), user: user))
        #expect(PsplashFIFO.isDaemonsDirectory(Self.status(.directory, owner: user, permissions: 0o700), user: user))
        #expect(!PsplashFIFO.isDaemonsDirectory(Self.status(.directory, permissions: 0o1777), user: user))
        #expect(!PsplashFIFO.isDaemonsDirectory(Self.status(.directory, permissions: 0o775), user: user))
        #expect(!PsplashFIFO.isDaemonsDirectory(Self.status(.directory, owner: Self.nobody, permissions: 0o755), user: user))
        #expect(!PsplashFIFO.isDaemonsDirectory(Self.status(.regular, permissions: 0o644), user: user))
    }

    /// A stranger's FIFO, and a FIFO every user may write, in a shared directory (sticky, as
    /// /tmp): refused with a line that says why and what to do; the files are left as found.
    @Test func anUntrustedFIFOInASharedDirectoryIsRefused() throws {
        let rig = try DaemonRig()
        let shared = try Self.directory(rig, "shared", mode: 0o1777)
        Self.fifo(shared + "/theirs", owner: Self.nobody, mode: 0o600)
        Self.fifo(shared + "/open", owner: 0, mode: 0o666)
        for (name, why) in [("theirs", PsplashFIFO.Distrust.owner(Self.nobody)), ("open", .writableByOthers(permissions: 0o666))] {
            let path = shared + "/" + name
            guard case let .failure(error) = Self.open(rig, path) else { Issue.record("\(name): read"); continue }
            #expect(error == .refused(path: path, why, directory: shared))
            #expect("\(error)".contains("could send QUIT and MSG") && "\(error)".contains("a directory of its own"), "\(error)")
            let st = try linkStatus(path)
            #expect(st.kind == .fifo && st.ownerID == (name == "theirs" ? Self.nobody : 0) && st.permissions == (name == "theirs" ? 0o600 : 0o666))
        }
    }

    /// A symbolic link is refused wherever it is, even to the daemon's own FIFO, and stays.
    @Test func aSymbolicLinkIsRefused() throws {
        let rig = try DaemonRig()
        Self.fifo(rig.dir + "/real", owner: 0, mode: 0o600)
        for dir in [try Self.directory(rig, "shared", mode: 0o1777), try Self.directory(rig, "own", mode: 0o755)] {
            let link = dir + "/psplash_fifo"
            #expect(symlink(rig.dir + "/real", link) == 0)
            guard case let .failure(error) = Self.open(rig, link) else { Issue.record("\(dir): read through a link"); continue }
            #expect(error == .refused(path: link, .symbolicLink, directory: dir))
            #expect(try linkStatus(link).kind == .symbolicLink)
        }
    }

    /// Something that is not a FIFO is not removed, even in the daemon's own directory (a
    /// wrong --psplash-fifo must not delete a file).
    @Test func aFileIsNeverReplaced() throws {
        let rig = try DaemonRig()
        let own = try Self.directory(rig, "own", mode: 0o755)
        let path = own + "/psplash_fifo"
        #expect(Proc.run(["sh", "-c", "echo keep > '\(path)'"]).status == 0)
        guard case let .failure(error) = Self.open(rig, path) else { Issue.record("a regular file was read as a FIFO"); return }
        #expect(error == .refused(path: path, .notFIFO(.regular), directory: own))
        #expect(Proc.readFile(path) == "keep\n")
    }

    /// In the daemon's own directory an untrusted FIFO (a stranger's, left by a run as another
    /// user) is replaced by the daemon's own, 0600, and that one is read.
    @Test func anUntrustedFIFOInTheDaemonsDirectoryIsReplaced() throws {
        let rig = try DaemonRig()
        let own = try Self.directory(rig, "own", mode: 0o755)
        let path = own + "/psplash_fifo"
        Self.fifo(path, owner: Self.nobody, mode: 0o666)
        let got = Shared<[PsplashFIFO.Command]>([])
        let fifo = try Self.open(rig, path, got: got).get()
        defer { fifo.close() }
        let st = try linkStatus(path)
        #expect(st.kind == .fifo && st.ownerID == 0 && st.permissions == 0o600)
        #expect(rig.log.contains { $0.contains("psplash: replaced \(path): it was owned by uid 65534") }, "\(rig.log)")
        #expect(Self.write(path, "PROGRESS 40"))
        try rig.run(1) { !got.get().isEmpty }
        #expect(got.get() == [.progress(0.4)])
    }

    /// A trusted FIFO found there (the last run's, root's; or the daemon's user's) is read as
    /// it is: the same file, not made anew.
    @Test func aTrustedFIFOIsKept() throws {
        let rig = try DaemonRig()
        let shared = try Self.directory(rig, "shared", mode: 0o1777)
        for (name, owner, user) in [("root", uid_t(0), UInt32(0)), ("user", uid_t(1234), UInt32(1234))] {
            let path = shared + "/" + name
            Self.fifo(path, owner: owner, mode: 0o600)
            let before = try linkStatus(path)
            var st = stat()
            _ = lstat(path, &st)
            let inode = st.st_ino
            let fifo = try Self.open(rig, path, user: user).get()
            fifo.close()
            _ = lstat(path, &st)
            let after = try linkStatus(path)
            #expect(st.st_ino == inode && after == before, "\(name)")
        }
        #expect(!rig.log.contains { $0.contains("replaced") })
    }
}
