import CKioskSys
import Glibc
import KioskSys

/// A machine whose display devices come and go, as at boot: the firmware's framebuffer (efifb
/// as /dev/fb0, or simpledrm as a card) is there first, the real driver (vc4, bochs, …) loads
/// later, claims the hardware and the firmware's device is unplugged (the display switch). Each device is a
/// `FakeKernel` of its own (its card or fbdev, its master, its buffers); the machine routes
/// each call to the device a path or descriptor belongs to, and broadcasts the kernel's uevents
/// for what is added and removed to every uevent socket opened (as NETLINK_KOBJECT_UEVENT does).
/// Signals, ttys and everything real go to `system`.
public final class FakeMachine: Kernel {
    /// Signals, the event loop's own descriptors, and everything passed through to the real kernel.
    public let system = FakeKernel()
    /// The DRM cards now present, by name ("card0").
    public private(set) var cards: [String: FakeKernel] = [:]
    /// The fbdev devices now present, by path ("/dev/fb0").
    public private(set) var fbdevs: [String: FakeKernel] = [:]
    /// Every device ever added (removed ones too: their descriptors stay open until closed).
    public private(set) var devices: [FakeKernel] = []
    private var ueventQueues: [Int32: [[UInt8]]] = [:]
    private var nextOwnFD = FakeKernel.fakeBase + 900_000
    /// Every uevent sent, as "ACTION DEVNAME".
    public private(set) var uevents: [String] = []

    public init() {
        system.cardPaths = []
    }

    private func own(_ k: FakeKernel) {
        k.nextFD = FakeKernel.fakeBase + Int32(devices.count + 1) * 10_000
        devices.append(k)
    }

    /// Adds a DRM card named `name` ("card1") played by `kernel` (its driver name is the
    /// kernel's `driverName`), and sends its "add" uevent (unless `uevent` is false: it was lost).
    public func addCard(_ name: String, _ kernel: FakeKernel, devpath: String? = nil, uevent send: Bool = true) {
        kernel.cardPaths = [name]
        own(kernel)
        cards[name] = kernel
        guard send else { return }
        uevent("add", devpath ?? "/devices/platform/\(kernel.driverName).0/drm/\(name)",
               ["SUBSYSTEM=drm", "DEVNAME=dri/\(name)", "DEVTYPE=drm_minor"])
    }

    /// Adds an fbdev device at `path` ("/dev/fb0") played by `kernel` (made with `addFBDev`).
    public func addFBDev(_ path: String, _ kernel: FakeKernel) {
        kernel.fbPath = path
        kernel.cardPaths = []
        own(kernel)
        fbdevs[path] = kernel
        let name = String(path.split(separator: "/").last ?? "fb0")
        uevent("add", "/devices/platform/fake-framebuffer.0/graphics/\(name)", ["SUBSYSTEM=graphics", "DEVNAME=\(name)"])
    }

    /// Unplugs the card: its descriptors fail with ENODEV from now on; "remove" uevent (unless
    /// `uevent` is false: the uevent is late, the calls find out first).
    public func removeCard(_ name: String, uevent send: Bool = true) {
        guard let k = cards.removeValue(forKey: name) else { return }
        k.unplug()
        guard send else { return }
        uevent("remove", "/devices/platform/\(k.driverName).0/drm/\(name)", ["SUBSYSTEM=drm", "DEVNAME=dri/\(name)", "DEVTYPE=drm_minor"])
    }

    /// Unregisters the fbdev device (a DRM driver took the hardware over).
    public func removeFBDev(_ path: String, uevent send: Bool = true) {
        guard let k = fbdevs.removeValue(forKey: path) else { return }
        k.unplug()
        guard send else { return }
        let name = String(path.split(separator: "/").last ?? "fb0")
        uevent("remove", "/devices/platform/fake-framebuffer.0/graphics/\(name)", ["SUBSYSTEM=graphics", "DEVNAME=\(name)"])
    }

    /// Sends a uevent to every uevent socket open now.
    public func uevent(_ action: String, _ devpath: String, _ properties: [String]) {
        var bytes = Array("\(action)@\(devpath)".utf8) + [0]
        for p in ["ACTION=\(action)", "DEVPATH=\(devpath)"] + properties { bytes += Array(p.utf8) + [0] }
        for fd in ueventQueues.keys { ueventQueues[fd]!.append(bytes) }
        uevents.append("\(action) \(properties.first { $0.hasPrefix("DEVNAME=") }?.dropFirst(8) ?? "")")
    }

    /// Every uevent socket open now overran its buffer (a storm of uevents): its next read
    /// throws ENOBUFS, as the kernel says it dropped some.
    public func overrun() {
        for fd in ueventQueues.keys { ueventQueues[fd]!.append([]) }
    }

    /// What is left open or allocated on any device, named by the device.
    public var leaks: [String] {
        var l = devices.flatMap { k in k.leaks.map { "\(k.cardPaths.first ?? k.fbPath): \($0)" } }
        if !ueventQueues.isEmpty { l.append("uevent sockets \(ueventQueues.keys.sorted())") }
        return l
    }

    /// The device a descriptor of the fake's belongs to.
    private func owner(_ fd: Int32) -> FakeKernel? {
        guard fd >= FakeKernel.fakeBase + 10_000, fd < FakeKernel.fakeBase + 900_000 else { return nil }
        let i = Int((fd - FakeKernel.fakeBase) / 10_000) - 1
        return i < devices.count ? devices[i] : nil
    }

    private func route(_ fd: Int32) -> Kernel { owner(fd) ?? system }

    // MARK: Kernel

    public func open(_ path: String, flags: Int32, mode: UInt32) throws(SysError) -> Int32 {
        if path.hasPrefix("/dev/dri/card") {
            guard let k = cards[String(path.dropFirst(9))] else { throw SysError(call: "open", errno: ENOENT, target: path) }
            return try k.open(path, flags: flags, mode: mode)
        }
        if path.hasPrefix("/dev/fb") {
            guard let k = fbdevs[path] else { throw SysError(call: "open", errno: ENOENT, target: path) }
            return try k.open(path, flags: flags, mode: mode)
        }
        return try system.open(path, flags: flags, mode: mode)
    }

    public func close(_ fd: Int32) {
        if ueventQueues.removeValue(forKey: fd) != nil { return }
        route(fd).close(fd)
    }

    public func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SysError) -> Int {
        if let q = ueventQueues[fd] {
            guard let u = q.first else { throw SysError(call: "read", errno: EAGAIN) }
            ueventQueues[fd]!.removeFirst()
            if u.isEmpty { throw SysError(call: "read", errno: ENOBUFS) }   // overrun()
            let n = min(u.count, buffer.count)
            for i in 0..<n { buffer[i] = u[i] }
            return n
        }
        return try route(fd).read(fd, into: buffer)
    }

    public func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SysError) -> Int { try route(fd).write(fd, bytes) }

    public func ioctl(_ fd: Int32, _ request: UInt, _ arg: UnsafeMutableRawPointer?, name: String) throws(SysError) {
        try route(fd).ioctl(fd, request, arg, name: name)
    }

    public func mmap(_ fd: Int32, length: Int, offset: Int) throws(SysError) -> UnsafeMutableRawPointer {
        try route(fd).mmap(fd, length: length, offset: offset)
    }

    public func munmap(_ address: UnsafeMutableRawPointer, length: Int) {
        (devices.first { $0.maps[address] != nil } ?? system).munmap(address, length: length)
    }

    public func status(_ fd: Int32) throws(SysError) -> FileStatus { try route(fd).status(fd) }

    public func poll(_ fds: inout [pollfd], timeoutMs: Int32) throws(SysError) -> Int {
        for k in devices { k.advanceFlips() }
        var n = 0
        var rest: [Int] = []
        for i in fds.indices {
            let fd = fds[i].fd
            if let q = ueventQueues[fd] {
                fds[i].revents = q.isEmpty ? 0 : Int16(POLLIN)
            } else if let k = owner(fd) {
                fds[i].revents = k.isReadable(fd) ? Int16(POLLIN) : 0
            } else { rest.append(i); continue }
            if fds[i].revents != 0 { n += 1 }
        }
        let held = devices.contains { !$0.pendingFlips.isEmpty }
        var others = rest.map { fds[$0] }
        let r = try system.poll(&others, timeoutMs: n > 0 || held ? 0 : timeoutMs)
        for (k, i) in rest.enumerated() { fds[i].revents = others[k].revents }
        return n + r
    }

    public func listDirectory(_ path: String) -> [String]? {
        switch path {
        case "/dev/dri": return cards.keys.sorted() + ["renderD128"]
        case "/dev": return fbdevs.keys.map { String($0.dropFirst(5)) }.sorted() + ["null", "tty0"]
        default: return nil
        }
    }

    public func readTextFile(_ path: String) -> String? { nil }
    public func signalDescriptor(_ signals: [Int32], updating fd: Int32?) throws(SysError) -> Int32 {
        try system.signalDescriptor(signals, updating: fd)
    }
    public func unblockSignals(_ signals: [Int32]) {}
    public func isPending(_ signals: [Int32]) -> Bool { system.isPending(signals) }
    public func eventDescriptor() throws(SysError) -> Int32 { try system.eventDescriptor() }

    public func ueventDescriptor() throws(SysError) -> Int32 {
        try system.record("uevent socket")
        let fd = nextOwnFD
        nextOwnFD += 1
        ueventQueues[fd] = []
        return fd
    }

    public func listenUnix(_ path: String, backlog: Int32) throws(SysError) -> Int32 { try system.listenUnix(path, backlog: backlog) }
    public func connectUnix(_ path: String) throws(SysError) -> Int32 { try system.connectUnix(path) }
    public func accept(_ fd: Int32) throws(SysError) -> Int32? { try system.accept(fd) }
    public func peerCredentials(_ fd: Int32) throws(SysError) -> PeerCredentials { try system.peerCredentials(fd) }
    public func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SysError) -> Int { try system.send(fd, bytes) }
    public func kill(_ pid: Int32, _ signal: Int32) throws(SysError) { try system.kill(pid, signal) }
    public func fork() throws(SysError) -> Int32 { try system.fork() }
    public func becomeKeeper(keeping: Set<Int32>) {}
    public func sleep(_ seconds: Double) {}
    /// The nice values set with `setNice` (the fake machine changes no priority).
    public var niceValues: [Int32] = []
    public func setNice(_ nice: Int32) throws(SysError) { niceValues.append(nice) }
    public func exit(_ status: Int32) -> Never { fatalError("the fake machine never runs the keeper") }
    public func pipe() throws(SysError) -> (read: Int32, write: Int32) { try system.pipe() }
    public func spawn(_ request: SpawnRequest) throws(SysError) -> Int32 { try system.spawn(request) }
    public func setNonBlocking(_ fd: Int32) throws(SysError) { try route(fd).setNonBlocking(fd) }
    public func processDescriptor(_ pid: Int32) throws(SysError) -> Int32 { try system.processDescriptor(pid) }
    public func pread(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(SysError) -> Int {
        try route(fd).pread(fd, into: buffer, at: offset)
    }
    public func lockFile(_ path: String) throws(SysError) -> Int32 { try system.lockFile(path) }
    public func activationSockets() -> [Int32] { system.activationSockets() }
    public func connectUnixAbstract(_ name: String) throws(SysError) -> Int32 { try system.connectUnixAbstract(name) }
    public func connectUnixWithoutWaiting(_ path: String) throws(SysError) -> Int32 { try system.connectUnixWithoutWaiting(path) }
    public func sendWithoutWaiting(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SysError) -> Int {
        try system.sendWithoutWaiting(fd, bytes)
    }
}
