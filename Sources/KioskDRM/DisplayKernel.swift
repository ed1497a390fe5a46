import CKioskSys
import Glibc
import KioskSys

/// The system calls the display backends make — the seam where tests "play the kernel".
///
/// `DRMCard`, `DRMScreen`, `FBDevScreen` and `VTSwitcher` talk only to this protocol; the real
/// implementation (`LinuxDisplayKernel`) forwards each call to KioskSys, the scripted fake in
/// Tests/KioskDRMTests answers DRM ioctls from a model of a card. `ioctl` is one attempt:
/// callers retry EINTR/EAGAIN themselves (`DRMCard.ioctl` is the one place that does), so a fake
/// can return EINTR and see the retry.
public protocol DisplayKernel: AnyObject {
    /// open(2); O_CLOEXEC is always added.
    func open(_ path: String, flags: Int32) throws(SysError) -> Int32
    /// close(2); errors are ignored (nothing useful can be done about them).
    func close(_ fd: Int32)
    /// One ioctl(2) attempt with a pointer argument. Throws `SysError(call: "ioctl(NAME)")`.
    func ioctl(_ fd: Int32, _ request: UInt, _ arg: UnsafeMutableRawPointer?, name: String) throws(SysError)
    /// mmap(2), shared, read/write.
    func mmap(_ fd: Int32, length: Int, offset: Int) throws(SysError) -> UnsafeMutableRawPointer
    /// munmap(2).
    func munmap(_ address: UnsafeMutableRawPointer, length: Int)
    /// read(2); returns 0 when a non-blocking descriptor has nothing (EAGAIN).
    func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SysError) -> Int
    /// poll(2); `timeoutMs` −1 waits forever. EINTR counts as a timeout.
    func poll(_ fds: inout [pollfd], timeoutMs: Int32) throws(SysError) -> Int
    /// Directory entries (sorted, without . and ..), nil if it cannot be read.
    func listDirectory(_ path: String) -> [String]?
    /// A small text file (sysfs attribute), nil if it cannot be read.
    func readTextFile(_ path: String) -> String?
    /// A signalfd for `signals` (they are blocked), non-blocking.
    func signalDescriptor(_ signals: [Int32]) throws(SysError) -> Int32
    /// A non-blocking netlink socket for kernel uevents.
    func ueventDescriptor() throws(SysError) -> Int32
    /// fork(2) (for the retain keeper): 0 in the child.
    func fork() throws(SysError) -> Int32
    /// In a forked keeper: own session, stdio on /dev/null, default signal handling.
    func becomeKeeper()
    /// Sleeps (the keeper's poll interval).
    func sleep(_ seconds: Double)
    /// Ends the process now (the keeper).
    func exit(_ status: Int32) -> Never
}

/// The real kernel, through KioskSys.
public final class LinuxDisplayKernel: DisplayKernel {
    public init() {}

    public func open(_ path: String, flags: Int32) throws(SysError) -> Int32 {
        try FileDescriptor.open(path, flags).rawValue
    }

    public func close(_ fd: Int32) { try? FileDescriptor(rawValue: fd).close() }

    public func ioctl(_ fd: Int32, _ request: UInt, _ arg: UnsafeMutableRawPointer?, name: String) throws(SysError) {
        try FileDescriptor(rawValue: fd).ioctl(request, arg, name: name)
    }

    public func mmap(_ fd: Int32, length: Int, offset: Int) throws(SysError) -> UnsafeMutableRawPointer {
        try FileDescriptor(rawValue: fd).mmap(length: length, offset: offset)
    }

    public func munmap(_ address: UnsafeMutableRawPointer, length: Int) { try? unmap(address, length: length) }

    public func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SysError) -> Int {
        do {
            return try FileDescriptor(rawValue: fd).read(into: buffer)
        } catch where error.errno == EAGAIN {
            return 0
        }
    }

    public func poll(_ fds: inout [pollfd], timeoutMs: Int32) throws(SysError) -> Int {
        try KioskSys.poll(&fds, timeoutMs: timeoutMs)
    }

    public func listDirectory(_ path: String) -> [String]? { KioskSys.listDirectory(path) }

    public func readTextFile(_ path: String) -> String? { try? readSmallFile(path) }

    public func signalDescriptor(_ signals: [Int32]) throws(SysError) -> Int32 {
        try KioskSys.signalDescriptor(signals).rawValue
    }

    public func ueventDescriptor() throws(SysError) -> Int32 { try ueventSocket().rawValue }

    public func fork() throws(SysError) -> Int32 { try forkProcess() }

    public func becomeKeeper() {
        newSession()
        detachStandardStreams()
        unblockSignals([SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2])
    }

    public func sleep(_ seconds: Double) { sleepFor(seconds) }

    public func exit(_ status: Int32) -> Never { exitImmediately(status) }
}
