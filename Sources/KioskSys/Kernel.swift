// The kernel seam: every system call the event loop, the display backends, the control socket
// and the child processes make goes through one `Kernel`, so a test can play the kernel — answer
// a DRM card's ioctls from a model, deliver signals and hotplug events, fail any call, return
// EINTR — and check what was asked and what was left open. `LinuxKernel` forwards each call to
// the one KioskSys wrapper that makes it; KioskFakeKernel ships the scripted fake.
//
// Descriptors are plain `Int32` across the seam and in every backend that uses it. One type, and
// this one because every edge already speaks it: pollfd, libinput's open_restricted (returns an
// int), the DRM/fbdev ioctls, pidfds, systemd's passed sockets, and the fakes' numbering (their
// own descriptors from `FakeKernel.fakeBase` up, the real ones passed through). A wrapper type
// would be unwrapped at each of those edges and wrapped again after. `FileDescriptor` stays
// KioskSys's own helper behind `LinuxKernel` (its methods are where each call is made once);
// code outside KioskSys holds an `Int32` and calls a `Kernel` (KernelSeamGuardTests checks).
import CKioskSys
import Glibc

/// A Unix socket peer's process credentials, as the kernel recorded them when it connected
/// (SO_PEERCRED, SO_PEERGROUPS): who the peer is, never read again from /proc (a pid can be
/// reused).
public struct PeerCredentials: Sendable, Equatable {
    public var pid: Int32, uid: UInt32, gid: UInt32
    /// The supplementary groups (SO_PEERGROUPS; empty where the kernel has none to tell).
    public var groups: [UInt32]
    public init(pid: Int32, uid: UInt32, gid: UInt32, groups: [UInt32] = []) {
        self.pid = pid; self.uid = uid; self.gid = gid; self.groups = groups
    }

    /// Whether the peer is in group `g`, as its primary group or a supplementary one.
    public func isMember(of g: UInt32) -> Bool { gid == g || groups.contains(g) }
}

/// Calls on descriptors: reads, writes, ioctls and mappings of what is open (a DRM card, an fbdev
/// device, a sysfs attribute, a pipe).
public protocol KernelDescriptors: AnyObject {
    /// open(2); O_CLOEXEC is always added.
    func open(_ path: String, flags: Int32, mode: UInt32) throws(SysError) -> Int32
    /// close(2); errors are ignored (nothing useful can be done about them).
    func close(_ fd: Int32)
    /// One read(2); 0 at end of file; a non-blocking descriptor with nothing to read throws EAGAIN.
    func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SysError) -> Int
    /// One write(2) (it may be short); a full non-blocking descriptor throws EAGAIN.
    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SysError) -> Int
    /// One ioctl(2) attempt with a pointer argument. Throws `SysError(call: "ioctl(NAME)")`.
    func ioctl(_ fd: Int32, _ request: UInt, _ arg: UnsafeMutableRawPointer?, name: String) throws(SysError)
    /// mmap(2), shared, read/write.
    func mmap(_ fd: Int32, length: Int, offset: Int) throws(SysError) -> UnsafeMutableRawPointer
    /// munmap(2).
    func munmap(_ address: UnsafeMutableRawPointer, length: Int)
    /// fstat(2): the kind of file and its size.
    func status(_ fd: Int32) throws(SysError) -> FileStatus
    /// poll(2); `timeoutMs` −1 waits forever. EINTR counts as a timeout.
    func poll(_ fds: inout [pollfd], timeoutMs: Int32) throws(SysError) -> Int
    /// One pread(2) at `offset` (a sysfs attribute re-read from 0); the bytes read.
    func pread(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(SysError) -> Int
    /// fcntl(2) F_SETFL O_NONBLOCK on `fd`.
    func setNonBlocking(_ fd: Int32) throws(SysError)
    /// Sets or clears FD_CLOEXEC on `fd`: a descriptor the next program image keeps.
    func setCloseOnExec(_ fd: Int32, _ on: Bool) throws(SysError)
    /// dup2(2): `target` becomes another descriptor of what `fd` is (e.g. stderr onto the journal).
    func duplicate(_ fd: Int32, to target: Int32) throws(SysError)
    /// pipe2(2), close-on-exec both ends.
    func pipe() throws(SysError) -> (read: Int32, write: Int32)
    /// A new anonymous file in memory (memfd_create(2), close-on-exec): state handed to the next
    /// program image of this process through a descriptor, whatever its size.
    func makeMemoryFile(_ name: String) throws(SysError) -> Int32
}

/// Calls by path: what is at a path, whole small files, and the changes a cache, a socket file or a
/// marker makes.
public protocol KernelFiles: AnyObject {
    /// stat(2) of `path`, symbolic links followed: what is there, without opening it.
    func fileStatus(_ path: String) throws(SysError) -> FileStatus
    /// lstat(2) of `path`: a symbolic link is described itself (`.symbolicLink`), not followed —
    /// who owns a socket or FIFO file, asked before it is trusted.
    func linkStatus(_ path: String) throws(SysError) -> FileStatus
    /// The regular file at `path` opened for reading (non-blocking, close-on-exec) and its
    /// status, with the rights of `user` when given (its uid, gid and groups; nil: this
    /// process's own). Nothing but a regular file is ever opened (a FIFO, a device, a socket is
    /// refused from its status alone: EINVAL "not a regular file (…)"), and what is checked is
    /// what is read. The default: KioskSys's `openRegularFile(_:as:)`.
    func openRegularFile(_ path: String, as user: PeerCredentials?) throws(SysError) -> (fd: Int32, status: FileStatus)
    /// Directory entries (sorted, without . and ..), nil if it cannot be read.
    func listDirectory(_ path: String) -> [String]?
    /// A small text file (sysfs attribute), nil if it cannot be read.
    func readTextFile(_ path: String) -> String?
    /// The bytes of the regular file at `path` (anything else is refused without blocking); a
    /// file of more than `limit` bytes is refused (EFBIG). The default: KioskSys's `readFileBytes`.
    func readFileBytes(_ path: String, limit: Int) throws(SysError) -> [UInt8]
    /// readlink(2) of `path` (e.g. /proc/PID/exe), nil when it is not a link or cannot be read.
    func readLink(_ path: String) -> String?
    /// unlink(2) of `path`.
    func removeFile(_ path: String) throws(SysError)
    /// rename(2) of `from` to `to` (replacing what is at `to`).
    func renameFile(_ from: String, to: String) throws(SysError)
    /// mkdir(2) of `path` and any missing parents (0755); an existing directory is fine.
    func makeDirectories(_ path: String) throws(SysError)
    /// chmod(2) of `path`.
    func setMode(_ path: String, _ mode: UInt32) throws(SysError)
    /// chown(2) of `path` to `uid` (nil: unchanged) and `gid`.
    func setOwner(_ path: String, uid: UInt32?, gid: UInt32) throws(SysError)
    /// mkfifo(2) of `path` with `mode`; an existing FIFO is fine, anything else there is an error.
    func makeFIFO(_ path: String, mode: UInt32) throws(SysError)
    /// An exclusive flock(2) on `path` (created 0600 when missing), held while the returned
    /// descriptor stays open; EWOULDBLOCK when another process holds it.
    func lockFile(_ path: String) throws(SysError) -> Int32
}

/// What wakes the event loop besides descriptors it reads: signals, other threads, the kernel's
/// uevents.
public protocol KernelEvents: AnyObject {
    /// Blocks `signals` (sigprocmask) and returns a non-blocking signalfd that reads exactly
    /// them: a new one, or `fd` changed to read them.
    func signalDescriptor(_ signals: [Int32], updating fd: Int32?) throws(SysError) -> Int32
    /// Unblocks `signals` again.
    func unblockSignals(_ signals: [Int32])
    /// Whether one of `signals` is pending (blocked and not read yet: sigpending).
    func isPending(_ signals: [Int32]) -> Bool
    /// A non-blocking eventfd(2): another thread's write makes it readable.
    func eventDescriptor() throws(SysError) -> Int32
    /// A non-blocking netlink socket for kernel uevents.
    func ueventDescriptor() throws(SysError) -> Int32
}

/// Unix sockets: the control socket, Plymouth's abstract one, systemd's passed ones, and who the
/// peer is.
public protocol KernelSockets: AnyObject {
    /// A listening non-blocking Unix stream socket at `path` (socket, bind, listen).
    func listenUnix(_ path: String, backlog: Int32) throws(SysError) -> Int32
    /// A connected Unix stream socket to `path` (blocking).
    func connectUnix(_ path: String) throws(SysError) -> Int32
    /// A non-blocking Unix stream socket connected to `path`: never waits (EAGAIN when the
    /// listener's backlog is full, ENOENT or ECONNREFUSED when nobody listens).
    func connectUnixWithoutWaiting(_ path: String) throws(SysError) -> Int32
    /// accept4(2), non-blocking and close-on-exec; nil when nobody is waiting (EAGAIN).
    func accept(_ fd: Int32) throws(SysError) -> Int32?
    /// SO_PEERCRED of a connected Unix socket.
    func peerCredentials(_ fd: Int32) throws(SysError) -> PeerCredentials
    /// One send(2) with MSG_NOSIGNAL (a gone peer is EPIPE, not SIGPIPE); may be short; a full
    /// non-blocking socket throws EAGAIN.
    func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SysError) -> Int
    /// One send(2) with MSG_NOSIGNAL | MSG_DONTWAIT: what fits now, 0 when nothing does.
    func sendWithoutWaiting(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SysError) -> Int
    /// A listening non-blocking Unix stream socket on the abstract name `name` (no leading NUL;
    /// Plymouth's socket). The default: KioskSys's `unixAbstractListener`.
    func listenUnixAbstract(_ name: String, backlog: Int32) throws(SysError) -> Int32
    /// A connected Unix stream socket to the abstract name `name` (blocking).
    func connectUnixAbstract(_ name: String) throws(SysError) -> Int32
    /// The listening sockets systemd passed (socket activation), non-blocking and close-on-exec.
    func activationSockets() -> [Int32]
    /// The group (nil: unchanged) and mode of the socket file this process bound at `path`,
    /// changed without following a symbolic link (a path swapped for a link is refused).
    func setSocketFileAccess(_ path: String, group: UInt32?, mode: UInt32) throws(SysError)
    /// The file the Unix socket `fd` is bound to (getsockname(2)); nil for an abstract or
    /// unnamed one, or when `fd` is not a Unix socket.
    func boundPath(ofUnixSocket fd: Int32) -> String?
}

/// This process and others: children spawned, signalled and reaped, the process table, its own ids,
/// the program image replaced, the service manager told.
public protocol KernelProcesses: AnyObject {
    /// kill(2): `pid` > 0 a process, < 0 a process group.
    func kill(_ pid: Int32, _ signal: Int32) throws(SysError)
    /// fork(2) (for the retain keeper): 0 in the child.
    func fork() throws(SysError) -> Int32
    /// In a forked keeper: own session, stdio on /dev/null, default signal handling, every other
    /// descriptor but `keeping` closed.
    func becomeKeeper(keeping: Set<Int32>)
    /// Sleeps (the keeper's poll interval).
    func sleep(_ seconds: Double)
    /// Ends the process now (the keeper).
    func exit(_ status: Int32) -> Never
    /// posix_spawnp(3) of `request` (see `spawnProcess`): the child's pid.
    func spawn(_ request: SpawnRequest) throws(SysError) -> Int32
    /// pidfd_open(2): a descriptor that polls readable when process `pid` has ended.
    func processDescriptor(_ pid: Int32) throws(SysError) -> Int32
    /// waitpid(-1, WNOHANG): every child that has ended, reaped.
    func reapChildren() -> [(pid: Int32, exit: ChildExit)]
    /// waitpid(pid, WNOHANG): how child `pid` ended if it has (reaped), nil while it runs.
    func reapChild(_ pid: Int32) -> ChildExit?
    /// The processes below `pid` (its children, theirs, and so on; zombies left out), from /proc.
    func descendants(of pid: Int32) -> [Int32]
    /// When process `pid` started (/proc/PID/stat's starttime): with the pid it names one
    /// process; nil when it has ended.
    func processStartTime(_ pid: Int32) -> UInt64?
    /// prctl(PR_SET_CHILD_SUBREAPER): an orphaned descendant becomes this process's child.
    func becomeChildSubreaper() throws(SysError)
    /// This process's id (getpid(2)).
    func processID() -> Int32
    /// This process's effective user id (geteuid(2)).
    func effectiveUserID() -> UInt32
    /// The id of the group called `name` (getgrnam), nil when there is no such group.
    func groupID(_ name: String) -> UInt32?
    /// Ignores SIGPIPE: a write nobody reads fails with EPIPE instead of ending this process.
    func ignoreBrokenPipes()
    /// setpriority(2) of every thread of this process (`setProcessNice`): the shutdown screens'
    /// daemon runs at 19 once its first frame is on screen (`daemon --idle-after-first-frame`).
    func setNice(_ nice: Int32) throws(SysError)
    /// chroot(2) to `path`, then chdir(2) to the new "/".
    func changeRoot(_ path: String) throws(SysError)
    /// execve(2): this process becomes `path` with `arguments` (argv[0] first) and
    /// `environment` ("NAME=value"). Returns only when the call failed, with why.
    func replaceImage(_ path: String, arguments: [String], environment: [String]) -> SysError
    /// sd_notify: `state` ("READY=1\nSTATUS=…") to the service manager's socket `name` (nil or
    /// empty: false, nothing sent). `notifyServiceManager(_:)` takes $NOTIFY_SOCKET.
    func notifyServiceManager(_ state: String, socket name: String?) throws(SysError) -> Bool
}
/// The system calls the loop and the backends make. Calls are single attempts where a caller
/// must decide (a non-blocking read that would block throws EAGAIN; `ioctl` throws EINTR for
/// the caller's retry loop, so a fake can return EINTR and see the retry); where retrying is
/// always right (open, poll, write) the real implementation retries EINTR itself.
///
/// One value a caller passes down, made of five parts by concern (descriptors, paths, event
/// sources, sockets, processes) that a backend may take alone: `any KernelFiles &
/// KernelDescriptors` for one that only reads files (board detection, the IIO sensor).
public protocol Kernel: KernelDescriptors, KernelFiles, KernelEvents, KernelSockets, KernelProcesses {}

extension KernelDescriptors {
    // The calls added to the seam after its first release, with the real system's behaviour for a
    // conformer written before them (a fake records them by implementing them); and conveniences.
    public func makeMemoryFile(_ name: String) throws(SysError) -> Int32 { try KioskSys.makeMemoryFile(name).rawValue }
    public func setCloseOnExec(_ fd: Int32, _ on: Bool) throws(SysError) { try KioskSys.setCloseOnExec(fd, on) }
    public func duplicate(_ fd: Int32, to target: Int32) throws(SysError) {
        _ = try retrying("dup2") { dup2(fd, target) }
    }
    public func pipe() throws(SysError) -> (read: Int32, write: Int32) {
        let p = try makePipe()
        return (p.read.rawValue, p.write.rawValue)
    }
    public func setNonBlocking(_ fd: Int32) throws(SysError) {
        _ = try retrying("fcntl") { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }
    public func pread(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(SysError) -> Int {
        try FileDescriptor(rawValue: fd).pread(into: buffer, at: offset)
    }
    /// open(2) with no creation mode.
    public func open(_ path: String, flags: Int32) throws(SysError) -> Int32 { try open(path, flags: flags, mode: 0) }
    /// One read(2) into `buffer` (from its start); the bytes read.
    public func read(_ fd: Int32, into buffer: inout [UInt8]) throws(SysError) -> Int {
        let r: Result<Int, SysError> = buffer.withUnsafeMutableBytes { b in Result { () throws(SysError) in try read(fd, into: b) } }
        return try r.get()
    }
}

extension KernelFiles {
    // As in KernelDescriptors' extension: later calls' real behaviour, and conveniences.
    public func fileStatus(_ path: String) throws(SysError) -> FileStatus { try KioskSys.fileStatus(path) }
    public func linkStatus(_ path: String) throws(SysError) -> FileStatus { try KioskSys.linkStatus(path) }
    public func openRegularFile(_ path: String, as user: PeerCredentials?) throws(SysError) -> (fd: Int32, status: FileStatus) {
        let (fd, st) = try KioskSys.openRegularFile(path, as: user)
        return (fd.rawValue, st)
    }
    public func readLink(_ path: String) -> String? { KioskSys.readLink(path) }
    public func removeFile(_ path: String) throws(SysError) { try KioskSys.removeFile(path) }
    public func renameFile(_ from: String, to: String) throws(SysError) {
        if Glibc.rename(from, to) != 0 { throw SysError(call: "rename", errno: Glibc.errno, target: to) }
    }
    public func makeDirectories(_ path: String) throws(SysError) { try KioskSys.makeDirectories(path) }
    public func setMode(_ path: String, _ mode: UInt32) throws(SysError) { try KioskSys.setMode(path, mode) }
    public func setOwner(_ path: String, uid: UInt32?, gid: UInt32) throws(SysError) { try KioskSys.setOwner(path, uid: uid, gid: gid) }
    public func readFileBytes(_ path: String, limit: Int) throws(SysError) -> [UInt8] { try KioskSys.readFileBytes(path, limit: limit) }
    public func makeFIFO(_ path: String, mode: UInt32) throws(SysError) { try KioskSys.makeFIFO(path, mode: mode_t(mode)) }
    public func lockFile(_ path: String) throws(SysError) -> Int32 { try KioskSys.lockFile(path).rawValue }
}

extension KernelSockets {
    // As in KernelDescriptors' extension: later calls' real behaviour, and conveniences.
    public func setSocketFileAccess(_ path: String, group: UInt32?, mode: UInt32) throws(SysError) {
        try KioskSys.setSocketFileAccess(path, group: group, mode: mode)
    }
    public func boundPath(ofUnixSocket fd: Int32) -> String? { KioskSys.boundPath(ofUnixSocket: fd) }
    public func activationSockets() -> [Int32] { KioskSys.activationSockets().map(\.rawValue) }
    public func connectUnixAbstract(_ name: String) throws(SysError) -> Int32 { try unixAbstractConnection(name).rawValue }
    public func sendWithoutWaiting(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SysError) -> Int {
        try FileDescriptor(rawValue: fd).sendWithoutWaiting(bytes)
    }
    /// One send(2) of `bytes` (MSG_NOSIGNAL); the bytes sent.
    public func send(_ fd: Int32, _ bytes: ArraySlice<UInt8>) throws(SysError) -> Int {
        let r: Result<Int, SysError> = bytes.withUnsafeBytes { b in Result { () throws(SysError) in try send(fd, b) } }
        return try r.get()
    }
}

extension KernelProcesses {
    // As in KernelDescriptors' extension: later calls' real behaviour, and conveniences.
    public func changeRoot(_ path: String) throws(SysError) { try KioskSys.changeRoot(path) }
    public func replaceImage(_ path: String, arguments: [String], environment: [String]) -> SysError {
        KioskSys.replaceImage(path, arguments: arguments, environment: environment)
    }
    public func setNice(_ nice: Int32) throws(SysError) { try setProcessNice(nice) }
    public func groupID(_ name: String) -> UInt32? { KioskSys.groupID(name) }
    public func processID() -> Int32 { KioskSys.processID() }
    public func effectiveUserID() -> UInt32 { KioskSys.effectiveUserID() }
    public func ignoreBrokenPipes() { KioskSys.ignoreBrokenPipes() }
    public func becomeChildSubreaper() throws(SysError) { try KioskSys.becomeChildSubreaper() }
    public func descendants(of pid: Int32) -> [Int32] { KioskSys.descendants(of: pid) }
    public func processStartTime(_ pid: Int32) -> UInt64? { KioskSys.processStartTime(pid) }
    public func reapChildren() -> [(pid: Int32, exit: ChildExit)] { KioskSys.reapChildren() }
    public func reapChild(_ pid: Int32) -> ChildExit? { KioskSys.reapChild(pid) }
    @discardableResult
    public func notifyServiceManager(_ state: String, socket name: String?) throws(SysError) -> Bool {
        try KioskSys.notifyServiceManager(state, socket: name)
    }
    /// `notifyServiceManager(_:socket:)` to $NOTIFY_SOCKET: false, nothing sent, when this
    /// process was not started as a systemd notify service.
    @discardableResult
    public func notifyServiceManager(_ state: String) throws(SysError) -> Bool {
        try notifyServiceManager(state, socket: environmentValue("NOTIFY_SOCKET"))
    }
    public func spawn(_ request: SpawnRequest) throws(SysError) -> Int32 { try spawnProcess(request) }
    public func processDescriptor(_ pid: Int32) throws(SysError) -> Int32 { try openProcessDescriptor(pid).rawValue }
}

extension KernelSockets where Self: KernelDescriptors {
    /// The connection made by `connectUnix`, then made non-blocking: for a conformer written
    /// before this call existed (a full backlog waits there, where LinuxKernel's returns EAGAIN).
    public func connectUnixWithoutWaiting(_ path: String) throws(SysError) -> Int32 {
        let fd = try connectUnix(path)
        do { try setNonBlocking(fd) } catch { close(fd); throw error }
        return fd
    }
    /// The next connection waiting on the listening socket `fd`, with its peer's credentials
    /// (SO_PEERCRED); nil when none waits. A connection whose credentials cannot be read is
    /// closed and the next one taken (the control socket and Plymouth's both need the peer).
    public func acceptWithCredentials(_ fd: Int32) throws(SysError) -> (fd: Int32, credentials: PeerCredentials)? {
        while let c = try accept(fd) {
            do { return (c, try peerCredentials(c)) } catch { close(c) }
        }
        return nil
    }
}

/// The real kernel, through KioskSys's wrappers (each system call is made in one place). It
/// holds nothing, so one may be shared between threads (the IIO sampler's).
public final class LinuxKernel: Kernel, Sendable {
    public init() {}

    public func open(_ path: String, flags: Int32, mode: UInt32) throws(SysError) -> Int32 {
        try FileDescriptor.open(path, flags, mode: mode_t(mode)).rawValue
    }

    public func close(_ fd: Int32) { try? FileDescriptor(rawValue: fd).close() }

    public func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SysError) -> Int {
        try FileDescriptor(rawValue: fd).read(into: buffer)
    }

    public func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SysError) -> Int {
        try FileDescriptor(rawValue: fd).writeOnce(bytes)
    }

    public func ioctl(_ fd: Int32, _ request: UInt, _ arg: UnsafeMutableRawPointer?, name: String) throws(SysError) {
        try FileDescriptor(rawValue: fd).ioctl(request, arg, name: name)
    }

    public func mmap(_ fd: Int32, length: Int, offset: Int) throws(SysError) -> UnsafeMutableRawPointer {
        try FileDescriptor(rawValue: fd).mmap(length: length, offset: offset)
    }

    public func munmap(_ address: UnsafeMutableRawPointer, length: Int) { try? unmap(address, length: length) }

    public func status(_ fd: Int32) throws(SysError) -> FileStatus { try FileDescriptor(rawValue: fd).status() }

    public func poll(_ fds: inout [pollfd], timeoutMs: Int32) throws(SysError) -> Int {
        try KioskSys.poll(&fds, timeoutMs: timeoutMs)
    }

    public func listDirectory(_ path: String) -> [String]? { KioskSys.listDirectory(path) }

    public func readTextFile(_ path: String) -> String? { try? readSmallFile(path) }

    public func signalDescriptor(_ signals: [Int32], updating fd: Int32?) throws(SysError) -> Int32 {
        try KioskSys.signalDescriptor(signals, updating: fd.map(FileDescriptor.init(rawValue:))).rawValue
    }

    public func unblockSignals(_ signals: [Int32]) { KioskSys.unblockSignals(signals) }

    public func isPending(_ signals: [Int32]) -> Bool { KioskSys.isSignalPending(signals) }

    public func eventDescriptor() throws(SysError) -> Int32 { try eventCounter().rawValue }

    public func ueventDescriptor() throws(SysError) -> Int32 { try ueventSocket().rawValue }

    public func listenUnix(_ path: String, backlog: Int32) throws(SysError) -> Int32 {
        try unixListener(path, backlog: backlog).rawValue
    }

    public func connectUnix(_ path: String) throws(SysError) -> Int32 { try unixConnection(path).rawValue }
    public func connectUnixWithoutWaiting(_ path: String) throws(SysError) -> Int32 { try unixConnection(path, nonBlocking: true).rawValue }

    public func accept(_ fd: Int32) throws(SysError) -> Int32? { try FileDescriptor(rawValue: fd).accept()?.rawValue }

    public func peerCredentials(_ fd: Int32) throws(SysError) -> PeerCredentials {
        try FileDescriptor(rawValue: fd).peerCredentials()
    }

    public func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SysError) -> Int {
        try FileDescriptor(rawValue: fd).sendNoSignal(bytes)
    }

    public func kill(_ pid: Int32, _ signal: Int32) throws(SysError) { try sendSignal(signal, to: pid) }

    public func fork() throws(SysError) -> Int32 { try forkProcess() }

    public func becomeKeeper(keeping: Set<Int32>) {
        newSession()
        detachStandardStreams()
        closeDescriptors(except: keeping)
        unblockSignals([SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2])
    }

    public func sleep(_ seconds: Double) { sleepFor(seconds) }

    public func exit(_ status: Int32) -> Never { exitImmediately(status) }
}
