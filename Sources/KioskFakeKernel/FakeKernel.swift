import CKioskSys
import Glibc
import KioskSys

/// A kernel played by the test: a DRM card (connectors, encoders, CRTCs, properties, dumb
/// buffers, framebuffers, page flips and their events, master), an fbdev device, virtual
/// terminals, a signalfd and a uevent socket — enough to run `DRMScreen`, `FBDevScreen` and a
/// `PollEventLoop` with every call recorded, failures and EINTR injected at any call, and leaks
/// and scanout writes detected. Everything else (eventfds, pipes, sockets, files) passes through
/// to the real kernel, recorded and failable the same way, so one loop can wait on both.
///
/// The fake's descriptors are numbered from `fakeBase` up, where the real kernel never hands
/// out numbers, so the two never mix.
public final class FakeKernel: Kernel {
    /// Where the fake's own descriptor numbers start.
    public static let fakeBase: Int32 = 1_000_000
    /// The real kernel, for everything that is not modelled.
    public let real = LinuxKernel()
    // MARK: Model

    public struct Connector {
        public var id: UInt32
        public var type: UInt32 = 15   // Virtual
        public var typeID: UInt32 = 1
        public var connected = true
        public var modes: [drm_mode_modeinfo]
        public var encoder: UInt32
        public var mmWidth: UInt32 = 320, mmHeight: UInt32 = 200
        public var props: [(UInt32, UInt64)] = []
    }
    public struct CRTC {
        public var fb: UInt32 = 0
        public var mode: drm_mode_modeinfo?
        public var connectors: [UInt32] = []
    }
    public struct Dumb {
        public var memory: UnsafeMutableRawPointer
        public var size: Int
        public var pitch: Int
        public var width: Int, height: Int, bpp: Int
    }
    public struct Property {
        public var name: String
        public var enums: [(UInt64, String)] = []
    }

    public var connectors: [Connector] = []
    public var encoders: [UInt32: (crtc: UInt32, possible: UInt32)] = [:]
    public var crtcIDs: [UInt32] = []
    public var crtcs: [UInt32: CRTC] = [:]
    public var properties: [UInt32: Property] = [:]
    public var dumbs: [UInt32: Dumb] = [:]
    public var fbs: [UInt32: UInt32] = [:]          // fb id -> dumb handle (0 for the console's)
    public var maps: [UnsafeMutableRawPointer: Int] = [:]
    public var openFDs: Set<Int32> = []
    public var masterFD: Int32?
    public var nextID: UInt32 = 200
    public var nextFD: Int32 = FakeKernel.fakeBase
    public var driverName = "fakedrm"
    public var dumbCapable = true
    public var refuseFlips: Int32?                  // errno for PAGE_FLIP (EINVAL: driver cannot flip)
    public var dirtyErrno: Int32?                   // errno for DIRTYFB (ENOSYS like bochs)
    public var setCRTCErrno: Int32?                 // errno for SETCRTC with a framebuffer (a modeset that fails)
    public var supportedFormats: Set<UInt32> = [KIOSK_DRM_FORMAT_XRGB8888, KIOSK_DRM_FORMAT_RGB565]
    /// A flip's event is held back this many polls (0: the next poll sees it).
    public var flipLatencyPolls = 0
    public var deliverFlipEvents = true
    public var cardPaths = ["card0"]
    public var cardDumbCapable: [String: Bool] = [:]
    public var cardFDs: [Int32: String] = [:]
    public let consoleFB: UInt32 = 100

    // Queued flips: crtc -> (fb, user data, polls left)
    public var pendingFlips: [UInt32: (fb: UInt32, userData: UInt64, wait: Int)] = [:]
    public var readyEvents: [(crtc: UInt32, userData: UInt64)] = []
    public var signalsQueued: [Int32] = []
    /// The uevent socket's messages, in order; an empty one stands for an overrun of its buffer
    /// (read throws ENOBUFS there, as the kernel reports uevents it dropped).
    public var ueventsQueued: [[UInt8]] = []
    public var signalFD: Int32 = -1, ueventFD: Int32 = -1
    public var forkResult: Int32 = 4242
    public var forks = 0

    // MARK: Recording and injection

    /// Every call, e.g. "open /dev/dri/card0", "ioctl(DRM_IOCTL_MODE_SETCRTC)", "mmap", "munmap", "close".
    public var calls: [String] = []
    /// Fail call number N (0-based index into `calls`) with this errno.
    public var failAt: (index: Int, errno: Int32)?
    /// Answer the first call with this name with EINTR (then succeed).
    public var eintrOnce: Set<String> = []
    /// Frames written into a buffer while it was on screen (checked with checksums).
    public var scanoutWrites = 0
    public var flipsDone = 0
    public var setCRTCs = 0
    public var dirtyCalls: [[drm_clip_rect]] = []
    public var onScreenHash: [UInt32: UInt64] = [:]   // fb -> hash when it went on screen

    // Virtual terminals
    public var hasVT = false
    public var activeVT = 1
    public var ttyFDs: Set<Int32> = []
    public var vtMode = vt_mode()
    public var vtReldisp: [Int] = []
    public var kdMode = 0

    // fbdev
    public var fbVar = fb_var_screeninfo()
    public var fbFix = fb_fix_screeninfo()
    public var fbMemory: UnsafeMutableRawPointer?
    public var fbPath = "/dev/fb0"
    public var fbFDs: Set<Int32> = []
    public var fbPans: [UInt32] = []
    public var fbCanPan = true
    public var fbVsync = true

    public init() {}

    deinit {
        for d in dumbs.values { d.memory.deallocate() }
        fbMemory?.deallocate()
    }

    /// A card with `n` virtual connectors, each with its own CRTC and encoder, showing the console.
    public static func card(heads n: Int = 1, modes: [(Int, Int, Bool)] = [(64, 48, true), (32, 24, false)]) -> FakeKernel {
        let k = FakeKernel()
        k.properties[1] = Property(name: "DPMS", enums: [(0, "On"), (3, "Off")])
        k.properties[2] = Property(name: "non-desktop")
        k.properties[3] = Property(name: "panel orientation",
                                   enums: [(0, "Normal"), (1, "Upside Down"), (2, "Left Side Up"), (3, "Right Side Up")])
        for i in 0..<n {
            let crtc = UInt32(30 + i), enc = UInt32(40 + i), conn = UInt32(50 + i)
            k.crtcIDs.append(crtc)
            k.encoders[enc] = (crtc, 1 << UInt32(i))
            let ms = modes.map { FakeKernel.mode($0.0, $0.1, preferred: $0.2) }
            k.connectors.append(Connector(id: conn, typeID: UInt32(i + 1), modes: ms, encoder: enc,
                                          props: [(1, 0), (2, 0)]))
            k.crtcs[crtc] = CRTC(fb: k.consoleFB, mode: ms[0], connectors: [conn])
        }
        k.fbs[k.consoleFB] = 0
        return k
    }

    public static func mode(_ w: Int, _ h: Int, preferred: Bool = false, hz: Int = 60) -> drm_mode_modeinfo {
        var m = drm_mode_modeinfo()
        m.hdisplay = UInt16(w); m.vdisplay = UInt16(h)
        m.htotal = UInt16(w + 100); m.vtotal = UInt16(h + 20)
        m.clock = UInt32((w + 100) * (h + 20) * hz / 1000)
        m.vrefresh = UInt32(hz)
        if preferred { m.type = UInt32(DRM_MODE_TYPE_PREFERRED) }
        let name = Array("\(w)x\(h)".utf8)
        withUnsafeMutableBytes(of: &m.name) { b in for (i, c) in name.enumerated() where i < 31 { b[i] = c } }
        return m
    }

    /// Nothing of ours is left: descriptors, buffers, framebuffers, mappings, master.
    public var leaks: [String] {
        var l: [String] = []
        if !openFDs.isEmpty { l.append("open fds \(openFDs.sorted())") }
        if !dumbs.isEmpty { l.append("dumb buffers \(dumbs.keys.sorted())") }
        let ours = fbs.keys.filter { $0 != consoleFB }
        if !ours.isEmpty { l.append("framebuffers \(ours.sorted())") }
        if !maps.isEmpty { l.append("mappings \(maps.count)") }
        if masterFD != nil { l.append("master held") }
        return l
    }

    /// Every CRTC shows the console again.
    public var consoleRestored: Bool { crtcs.values.allSatisfy { $0.fb == consoleFB } }
    /// No CRTC shows a framebuffer of ours (console or off).
    public var nothingOfOursOnScreen: Bool { crtcs.values.allSatisfy { $0.fb == consoleFB || $0.fb == 0 } }

    public func count(_ name: String) -> Int { calls.filter { $0 == name }.count }

    /// Records a call; throws what `failAt` or `eintrOnce` asks for.
    public func record(_ name: String) throws(SysError) {
        let i = calls.count
        calls.append(name)
        if let f = failAt, f.index == i { throw SysError(call: name, errno: f.errno) }
        if eintrOnce.contains(name) {
            eintrOnce.remove(name)
            throw SysError(call: name, errno: EINTR)
        }
    }

    // MARK: Kernel

    /// Whether `fd` is one of the fake's own descriptors.
    public func isFake(_ fd: Int32) -> Bool { fd >= FakeKernel.fakeBase }

    public func open(_ path: String, flags: Int32, mode: UInt32) throws(SysError) -> Int32 {
        try record("open \(path)")
        if path.hasPrefix("/dev/dri/card"), cardPaths.contains(String(path.dropFirst(9))) {
            let fd = nextFD; nextFD += 1
            openFDs.insert(fd)
            cardFDs[fd] = String(path.dropFirst(9))
            if masterFD == nil { masterFD = fd }   // the first opener becomes master
            return fd
        }
        if hasVT, path == "/dev/tty0" || path == "/dev/tty\(activeVT)" {
            let fd = nextFD; nextFD += 1
            openFDs.insert(fd); ttyFDs.insert(fd)
            return fd
        }
        if path == fbPath, fbMemory != nil {
            let fd = nextFD; nextFD += 1
            openFDs.insert(fd); fbFDs.insert(fd)
            return fd
        }
        if path.hasPrefix("/dev/") { throw SysError(call: "open", errno: ENOENT, target: path) }
        return try real.open(path, flags: flags, mode: mode)
    }

    public func close(_ fd: Int32) {
        calls.append("close")
        guard isFake(fd) else { real.close(fd); return }
        openFDs.remove(fd)
        ttyFDs.remove(fd)
        fbFDs.remove(fd)
        if cardFDs[fd] != nil {
            cardFDs[fd] = nil
            if masterFD == fd { masterFD = nil }
            // The kernel removes a closed file's framebuffers (turning off CRTCs showing them) —
            // unless a forked keeper still has the file open.
            if cardFDs.isEmpty && forks == 0 {
                for (id, h) in fbs where id != consoleFB {
                    for (c, v) in crtcs where v.fb == id { crtcs[c]?.fb = 0 }
                    fbs[id] = nil
                    _ = h
                }
                for (h, d) in dumbs { d.memory.deallocate(); dumbs[h] = nil }
            }
        }
    }

    public func mmap(_ fd: Int32, length: Int, offset: Int) throws(SysError) -> UnsafeMutableRawPointer {
        try record("mmap")
        if unplugged { throw SysError(call: "mmap", errno: ENODEV) }
        if fbFDs.contains(fd), let m = fbMemory { maps[m] = length; return m }
        guard let d = dumbs[UInt32(offset >> 12)], length <= d.size else { throw SysError(call: "mmap", errno: EINVAL) }
        maps[d.memory] = length
        return d.memory
    }

    public func munmap(_ address: UnsafeMutableRawPointer, length: Int) {
        calls.append("munmap")
        maps[address] = nil
    }

    public func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SysError) -> Int {
        guard isFake(fd) else {
            try record("read")
            return try real.read(fd, into: buffer)
        }
        if fd == signalFD {
            guard let s = signalsQueued.first else { throw SysError(call: "read", errno: EAGAIN) }
            signalsQueued.removeFirst()
            let size = MemoryLayout<signalfd_siginfo>.size
            for i in 0..<size { buffer[i] = 0 }
            buffer.storeBytes(of: UInt32(s), toByteOffset: 0, as: UInt32.self)
            return size
        }
        if fd == ueventFD {
            guard let u = ueventsQueued.first else { throw SysError(call: "read", errno: EAGAIN) }
            ueventsQueued.removeFirst()
            if u.isEmpty { throw SysError(call: "read", errno: ENOBUFS) }
            for (i, b) in u.enumerated() { buffer[i] = b }
            return u.count
        }
        guard cardFDs[fd] != nil else { throw SysError(call: "read", errno: EAGAIN) }
        try record("read")
        guard !readyEvents.isEmpty else { throw SysError(call: "read", errno: EAGAIN) }
        var n = 0
        while let e = readyEvents.first, n + 32 <= buffer.count {
            readyEvents.removeFirst()
            var words: [UInt32] = [UInt32(DRM_EVENT_FLIP_COMPLETE), 32, UInt32(truncatingIfNeeded: e.userData),
                                   UInt32(truncatingIfNeeded: e.userData >> 32), 1, 0, UInt32(flipsDone), e.crtc]
            withUnsafeBytes(of: &words) { _ in }
            for (i, w) in words.enumerated() { buffer.storeBytes(of: w, toByteOffset: n + i * 4, as: UInt32.self) }
            n += 32
        }
        return n
    }

    public func poll(_ fds: inout [pollfd], timeoutMs: Int32) throws(SysError) -> Int {
        calls.append("poll")
        advanceFlips()
        var n = 0
        var realIndices: [Int] = []
        for i in fds.indices {
            let fd = fds[i].fd
            guard isFake(fd) else { realIndices.append(i); continue }
            let ready = isReadable(fd)
            fds[i].revents = ready ? Int16(POLLIN) : 0
            if ready { n += 1 }
        }
        // Nothing in the model changes while the real kernel waits, except flips still held
        // back: wait only when none is, and never longer than 10 s (a test must not hang).
        let wait: Int32 = n > 0 || !pendingFlips.isEmpty ? 0 : (timeoutMs < 0 ? 10_000 : min(timeoutMs, 10_000))
        var realFDs = realIndices.map { fds[$0] }
        let r = try real.poll(&realFDs, timeoutMs: wait)
        for (k, i) in realIndices.enumerated() { fds[i].revents = realFDs[k].revents }
        return n + r
    }

    /// Time passes (one poll): held-back flips get closer; due ones complete (the buffer goes on
    /// screen) and their events become readable.
    public func advanceFlips() {
        for (crtc, f) in pendingFlips {
            if f.wait > 0 { pendingFlips[crtc]!.wait -= 1; continue }
            pendingFlips[crtc] = nil
            crtcs[crtc]?.fb = f.fb
            flipsDone += 1
            onScreenHash[f.fb] = hash(f.fb)
            if deliverFlipEvents { readyEvents.append((crtc, f.userData)) }
        }
        checkScanout()
    }

    /// Whether one of the fake's own descriptors has something to read.
    public func isReadable(_ fd: Int32) -> Bool {
        (cardFDs[fd] != nil && !readyEvents.isEmpty) || (fd == signalFD && !signalsQueued.isEmpty)
            || (fd == ueventFD && !ueventsQueued.isEmpty)
    }

    /// The device was unplugged (a driver taking the hardware over removes the firmware's
    /// framebuffer device): calls on its open descriptors fail with ENODEV, as the kernel's do;
    /// flips in flight never complete; closing them still frees what they held.
    public var unplugged = false

    public func unplug() {
        unplugged = true
        pendingFlips = [:]
        readyEvents = []
    }

    /// /dev/dri: the fake's cards; the host's /dev, /sys and /proc: nothing (a test never sees
    /// the machine it runs on there); any other directory (a test's own, a cache): the real one.
    public func listDirectory(_ path: String) -> [String]? {
        if path == "/dev/dri" { return cardPaths + ["renderD128"] }
        if ["/dev", "/sys", "/proc"].contains(where: { path == $0 || path.hasPrefix($0 + "/") }) { return nil }
        return real.listDirectory(path)
    }
    public func readTextFile(_ path: String) -> String? { nil }

    /// The signals the signalfd reads (a test delivers them with `signalsQueued`).
    public var signalsRead: [Int32] = []

    public func signalDescriptor(_ signals: [Int32], updating fd: Int32?) throws(SysError) -> Int32 {
        try record("signalfd")
        signalsRead = signals
        if let fd, fd == signalFD { return fd }
        signalFD = nextFD; nextFD += 1
        openFDs.insert(signalFD)
        return signalFD
    }

    public func unblockSignals(_ signals: [Int32]) {}

    public func isPending(_ signals: [Int32]) -> Bool { signalsQueued.contains(where: signals.contains) }

    public func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SysError) -> Int {
        try record("write")
        guard isFake(fd) else { return try real.write(fd, bytes) }
        throw SysError(call: "write", errno: EBADF)
    }

    public func status(_ fd: Int32) throws(SysError) -> FileStatus {
        try record("fstat")
        guard isFake(fd) else { return try real.status(fd) }
        return FileStatus(kind: .characterDevice, size: 0)
    }

    public func eventDescriptor() throws(SysError) -> Int32 {
        try record("eventfd")
        return try real.eventDescriptor()
    }

    public func listenUnix(_ path: String, backlog: Int32) throws(SysError) -> Int32 {
        try record("listen \(path)")
        return try real.listenUnix(path, backlog: backlog)
    }

    public func connectUnix(_ path: String) throws(SysError) -> Int32 {
        try record("connect \(path)")
        return try real.connectUnix(path)
    }

    public func accept(_ fd: Int32) throws(SysError) -> Int32? {
        try record("accept")
        return try real.accept(fd)
    }

    public func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SysError) -> Int {
        try record("send")
        return try real.send(fd, bytes)
    }

    public func peerCredentials(_ fd: Int32) throws(SysError) -> PeerCredentials {
        try record("peercred")
        return try real.peerCredentials(fd)
    }

    /// Signals "sent" with `kill` (the fake sends none).
    public var kills: [(pid: Int32, signal: Int32)] = []

    public func kill(_ pid: Int32, _ signal: Int32) throws(SysError) {
        try record("kill")
        kills.append((pid, signal))
    }

    public func ueventDescriptor() throws(SysError) -> Int32 {
        try record("uevent socket")
        ueventFD = nextFD; nextFD += 1
        openFDs.insert(ueventFD)
        return ueventFD
    }

    public func fork() throws(SysError) -> Int32 {
        try record("fork")
        forks += 1
        return forkResult
    }
    public func becomeKeeper(keeping: Set<Int32>) {}
    public func sleep(_ seconds: Double) {}
    /// The nice values set with `setNice` (the fake changes no priority).
    public var niceValues: [Int32] = []
    public func setNice(_ nice: Int32) throws(SysError) {
        try record("setpriority")
        niceValues.append(nice)
    }
    public func exit(_ status: Int32) -> Never { fatalError("the fake kernel never runs the keeper") }
    // Pipes and children are the real system's (a test's command runs), recorded.
    public func pipe() throws(SysError) -> (read: Int32, write: Int32) {
        try record("pipe")
        return try real.pipe()
    }
    public func spawn(_ request: SpawnRequest) throws(SysError) -> Int32 {
        try record("spawn \(request.arguments.first ?? "")")
        return try real.spawn(request)
    }
    public func setNonBlocking(_ fd: Int32) throws(SysError) {
        try record("fcntl O_NONBLOCK")
        guard isFake(fd) else { return try real.setNonBlocking(fd) }
    }
    public func processDescriptor(_ pid: Int32) throws(SysError) -> Int32 {
        try record("pidfd_open")
        return try real.processDescriptor(pid)
    }

    // Files by offset, locks and the other sockets: the real system's, recorded and failable.
    public func pread(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(SysError) -> Int {
        try record("pread")
        guard isFake(fd) else { return try real.pread(fd, into: buffer, at: offset) }
        throw SysError(call: "pread", errno: ESPIPE)
    }
    public func lockFile(_ path: String) throws(SysError) -> Int32 {
        try record("flock \(path)")
        return try real.lockFile(path)
    }
    // Calls by path: the real system's, recorded ("stat P", "unlink P", "rename A B",
    // "mkdir -p P", "chmod P", "chown P") and failable.
    public func fileStatus(_ path: String) throws(SysError) -> FileStatus {
        try record("stat \(path)")
        return try real.fileStatus(path)
    }
    public func linkStatus(_ path: String) throws(SysError) -> FileStatus {
        try record("lstat \(path)")
        return try real.linkStatus(path)
    }
    /// Recorded as "open P" (one call: looked up, checked and opened), the real system's file.
    public func openRegularFile(_ path: String, as user: PeerCredentials?) throws(SysError) -> (fd: Int32, status: FileStatus) {
        try record("open \(path)")
        return try real.openRegularFile(path, as: user)
    }
    public func makeMemoryFile(_ name: String) throws(SysError) -> Int32 {
        try record("memfd \(name)")
        return try real.makeMemoryFile(name)
    }
    public func setSocketFileAccess(_ path: String, group: UInt32?, mode: UInt32) throws(SysError) {
        try record("chmod \(path)")
        try real.setSocketFileAccess(path, group: group, mode: mode)
    }
    public func removeFile(_ path: String) throws(SysError) {
        try record("unlink \(path)")
        try real.removeFile(path)
    }
    public func renameFile(_ from: String, to: String) throws(SysError) {
        try record("rename \(from) \(to)")
        try real.renameFile(from, to: to)
    }
    public func makeDirectories(_ path: String) throws(SysError) {
        try record("mkdir -p \(path)")
        try real.makeDirectories(path)
    }
    public func setMode(_ path: String, _ mode: UInt32) throws(SysError) {
        try record("chmod \(path)")
        try real.setMode(path, mode)
    }
    public func setOwner(_ path: String, uid: UInt32?, gid: UInt32) throws(SysError) {
        try record("chown \(path)")
        try real.setOwner(path, uid: uid, gid: gid)
    }
    /// The sockets systemd "passed" (none unless a test sets them).
    public var activationSocketsPassed: [Int32] = []
    public func activationSockets() -> [Int32] {
        calls.append("activation sockets")
        return activationSocketsPassed
    }
    public func connectUnixAbstract(_ name: String) throws(SysError) -> Int32 {
        try record("connect @\(name)")
        return try real.connectUnixAbstract(name)
    }
    public func connectUnixWithoutWaiting(_ path: String) throws(SysError) -> Int32 {
        try record("connect \(path) without waiting")
        return try real.connectUnixWithoutWaiting(path)
    }
    public func sendWithoutWaiting(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SysError) -> Int {
        try record("send")
        return try real.sendWithoutWaiting(fd, bytes)
    }

    // MARK: Scanout integrity

    public func hash(_ fb: UInt32) -> UInt64 {
        guard let h = fbs[fb], h != 0, let d = dumbs[h] else { return 0 }
        var x: UInt64 = 0xcbf2_9ce4_8422_2325
        let p = d.memory.assumingMemoryBound(to: UInt64.self)
        for i in 0..<(d.size / 8) { x = (x ^ p[i]) &* 0x100_0000_01b3 }
        return x
    }

    /// A buffer on screen (or queued to go on screen) must not change.
    public func checkScanout() {
        var onScreen = Set(crtcs.values.map(\.fb))
        for f in pendingFlips.values { onScreen.insert(f.fb) }
        for fb in onScreen where fb != 0 && fb != consoleFB {
            if let h = onScreenHash[fb], h != hash(fb) {
                scanoutWrites += 1
                onScreenHash[fb] = hash(fb)
            }
        }
    }

    // MARK: ioctl

    public func ioctl(_ fd: Int32, _ request: UInt, _ arg: UnsafeMutableRawPointer?, name: String) throws(SysError) {
        try record("ioctl(\(name))")
        if unplugged && (fbFDs.contains(fd) || cardFDs[fd] != nil) { throw SysError(call: "ioctl(\(name))", errno: ENODEV) }
        if fbFDs.contains(fd) { return try fbdev(request, arg!, name) }
        if ttyFDs.contains(fd) {
            switch request {
            case KIOSK_VT_GETSTATE: arg!.assumingMemoryBound(to: vt_stat.self).pointee.v_active = UInt16(activeVT)
            case KIOSK_VT_GETMODE: arg!.assumingMemoryBound(to: vt_mode.self).pointee = vtMode
            case KIOSK_VT_SETMODE: vtMode = arg!.assumingMemoryBound(to: vt_mode.self).pointee
            case KIOSK_VT_RELDISP: vtReldisp.append(Int(bitPattern: arg))
            case KIOSK_KDSETMODE: kdMode = Int(bitPattern: arg)
            default: throw SysError(call: "ioctl(\(name))", errno: ENOTTY)
            }
            return
        }
        guard cardFDs[fd] != nil else { throw SysError(call: "ioctl(\(name))", errno: ENOTTY) }
        checkScanout()
        let fail = { (e: Int32) in SysError(call: "ioctl(\(name))", errno: e) }
        let isMaster = masterFD == fd
        switch request {
        case KIOSK_DRM_IOCTL_VERSION:
            let v = arg!.assumingMemoryBound(to: drm_version.self)
            let bytes = Array(driverName.utf8)
            if let p = v.pointee.name {
                for (i, b) in bytes.prefix(Int(v.pointee.name_len)).enumerated() { p[i] = CChar(bitPattern: b) }
            }
            v.pointee.name_len = UInt(bytes.count)
        case KIOSK_DRM_IOCTL_GET_CAP:
            let c = arg!.assumingMemoryBound(to: drm_get_cap.self)
            let capable = cardDumbCapable[cardFDs[fd]!] ?? dumbCapable
            c.pointee.value = c.pointee.capability == UInt64(DRM_CAP_DUMB_BUFFER) ? (capable ? 1 : 0) : 0
        case KIOSK_DRM_IOCTL_SET_MASTER:
            if masterFD != nil && masterFD != fd { throw fail(EBUSY) }
            masterFD = fd
        case KIOSK_DRM_IOCTL_DROP_MASTER:
            if masterFD != fd { throw fail(EINVAL) }
            masterFD = nil
        case KIOSK_DRM_IOCTL_MODE_GETRESOURCES:
            let r = arg!.assumingMemoryBound(to: drm_mode_card_res.self)
            let conns = connectors.map(\.id), encs = Array(encoders.keys).sorted()
            fill(r.pointee.crtc_id_ptr, r.pointee.count_crtcs, crtcIDs)
            fill(r.pointee.connector_id_ptr, r.pointee.count_connectors, conns)
            fill(r.pointee.encoder_id_ptr, r.pointee.count_encoders, encs)
            r.pointee.count_crtcs = UInt32(crtcIDs.count); r.pointee.count_connectors = UInt32(conns.count)
            r.pointee.count_encoders = UInt32(encs.count); r.pointee.count_fbs = 0
            r.pointee.max_width = 4096; r.pointee.max_height = 4096
        case KIOSK_DRM_IOCTL_MODE_GETCONNECTOR:
            let c = arg!.assumingMemoryBound(to: drm_mode_get_connector.self)
            guard let con = connectors.first(where: { $0.id == c.pointee.connector_id }) else { throw fail(ENOENT) }
            let modes = con.connected ? con.modes : []
            if Int(c.pointee.count_modes) >= modes.count && c.pointee.modes_ptr != 0 {
                let p = UnsafeMutablePointer<drm_mode_modeinfo>(bitPattern: UInt(c.pointee.modes_ptr))!
                for (i, m) in modes.enumerated() { p[i] = m }
            }
            if Int(c.pointee.count_props) >= con.props.count && c.pointee.props_ptr != 0 {
                let p = UnsafeMutablePointer<UInt32>(bitPattern: UInt(c.pointee.props_ptr))!
                let v = UnsafeMutablePointer<UInt64>(bitPattern: UInt(c.pointee.prop_values_ptr))!
                for (i, pr) in con.props.enumerated() { p[i] = pr.0; v[i] = pr.1 }
            }
            fill(c.pointee.encoders_ptr, c.pointee.count_encoders, [con.encoder])
            c.pointee.count_modes = UInt32(modes.count); c.pointee.count_props = UInt32(con.props.count)
            c.pointee.count_encoders = 1
            c.pointee.encoder_id = con.connected ? con.encoder : 0
            c.pointee.connector_type = con.type; c.pointee.connector_type_id = con.typeID
            c.pointee.connection = con.connected ? 1 : 2
            c.pointee.mm_width = con.mmWidth; c.pointee.mm_height = con.mmHeight
        case KIOSK_DRM_IOCTL_MODE_GETENCODER:
            let e = arg!.assumingMemoryBound(to: drm_mode_get_encoder.self)
            guard let enc = encoders[e.pointee.encoder_id] else { throw fail(ENOENT) }
            e.pointee.crtc_id = enc.crtc; e.pointee.possible_crtcs = enc.possible
        case KIOSK_DRM_IOCTL_MODE_GETCRTC:
            let c = arg!.assumingMemoryBound(to: drm_mode_crtc.self)
            guard let crtc = crtcs[c.pointee.crtc_id] else { throw fail(ENOENT) }
            c.pointee.fb_id = crtc.fb
            if let m = crtc.mode { c.pointee.mode = m; c.pointee.mode_valid = 1 } else { c.pointee.mode_valid = 0 }
        case KIOSK_DRM_IOCTL_MODE_SETCRTC:
            guard isMaster else { throw fail(EACCES) }
            let c = arg!.assumingMemoryBound(to: drm_mode_crtc.self)
            guard crtcs[c.pointee.crtc_id] != nil else { throw fail(ENOENT) }
            if c.pointee.fb_id != 0 && fbs[c.pointee.fb_id] == nil { throw fail(ENOENT) }
            if c.pointee.fb_id != 0, let e = setCRTCErrno { throw fail(e) }
            let ids = c.pointee.count_connectors == 0 ? [] :
                Array(UnsafeBufferPointer(start: UnsafePointer<UInt32>(bitPattern: UInt(c.pointee.set_connectors_ptr)),
                                          count: Int(c.pointee.count_connectors)))
            crtcs[c.pointee.crtc_id] = CRTC(fb: c.pointee.fb_id, mode: c.pointee.mode_valid != 0 ? c.pointee.mode : nil, connectors: ids)
            pendingFlips[c.pointee.crtc_id] = nil
            if c.pointee.fb_id != 0 { onScreenHash[c.pointee.fb_id] = hash(c.pointee.fb_id) }
            setCRTCs += 1
        case KIOSK_DRM_IOCTL_MODE_GETPROPERTY:
            let p = arg!.assumingMemoryBound(to: drm_mode_get_property.self)
            guard let prop = properties[p.pointee.prop_id] else { throw fail(ENOENT) }
            withUnsafeMutableBytes(of: &p.pointee.name) { b in
                for i in 0..<b.count { b[i] = 0 }
                for (i, c) in prop.name.utf8.enumerated() where i < 31 { b[i] = c }
            }
            p.pointee.flags = prop.enums.isEmpty ? UInt32(DRM_MODE_PROP_RANGE) : UInt32(DRM_MODE_PROP_ENUM)
            if Int(p.pointee.count_enum_blobs) >= prop.enums.count && p.pointee.enum_blob_ptr != 0 {
                let e = UnsafeMutablePointer<drm_mode_property_enum>(bitPattern: UInt(p.pointee.enum_blob_ptr))!
                for (i, en) in prop.enums.enumerated() {
                    e[i].value = en.0
                    withUnsafeMutableBytes(of: &e[i].name) { b in
                        for j in 0..<b.count { b[j] = 0 }
                        for (j, c) in en.1.utf8.enumerated() where j < 31 { b[j] = c }
                    }
                }
            }
            p.pointee.count_enum_blobs = UInt32(prop.enums.count)
            p.pointee.count_values = prop.enums.isEmpty ? 2 : UInt32(prop.enums.count)
        case KIOSK_DRM_IOCTL_MODE_CREATE_DUMB:
            let c = arg!.assumingMemoryBound(to: drm_mode_create_dumb.self)
            let w = Int(c.pointee.width), h = Int(c.pointee.height), bpp = Int(c.pointee.bpp)
            guard w > 0, h > 0, bpp == 16 || bpp == 32 else { throw fail(EINVAL) }
            let pitch = (w * bpp / 8 + 63) & ~63   // padded, like real drivers
            let size = pitch * h
            let mem = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 4096)
            mem.initializeMemory(as: UInt8.self, repeating: 0, count: size)
            let handle = nextID; nextID += 1
            dumbs[handle] = Dumb(memory: mem, size: size, pitch: pitch, width: w, height: h, bpp: bpp)
            c.pointee.handle = handle; c.pointee.pitch = UInt32(pitch); c.pointee.size = UInt64(size)
        case KIOSK_DRM_IOCTL_MODE_MAP_DUMB:
            let m = arg!.assumingMemoryBound(to: drm_mode_map_dumb.self)
            guard dumbs[m.pointee.handle] != nil else { throw fail(ENOENT) }
            m.pointee.offset = UInt64(m.pointee.handle) << 12
        case KIOSK_DRM_IOCTL_MODE_DESTROY_DUMB:
            let d = arg!.assumingMemoryBound(to: drm_mode_destroy_dumb.self)
            guard let dumb = dumbs[d.pointee.handle] else { throw fail(ENOENT) }
            if fbs.values.contains(d.pointee.handle) || maps[dumb.memory] != nil {
                // The kernel keeps the memory until FB and mapping are gone; for the test a leak.
            }
            if maps[dumb.memory] == nil { dumb.memory.deallocate() } else { leakedDumbMemory.append(dumb.memory) }
            dumbs[d.pointee.handle] = nil
        case KIOSK_DRM_IOCTL_MODE_ADDFB2:
            let f = arg!.assumingMemoryBound(to: drm_mode_fb_cmd2.self)
            guard dumbs[f.pointee.handles.0] != nil else { throw fail(ENOENT) }
            guard supportedFormats.contains(f.pointee.pixel_format) else { throw fail(EINVAL) }
            let id = nextID; nextID += 1
            fbs[id] = f.pointee.handles.0
            f.pointee.fb_id = id
        case KIOSK_DRM_IOCTL_MODE_RMFB:
            let id = arg!.assumingMemoryBound(to: UInt32.self).pointee
            guard fbs[id] != nil else { throw fail(ENOENT) }
            for (c, v) in crtcs where v.fb == id { crtcs[c]?.fb = 0 }   // the kernel turns it off
            fbs[id] = nil
            onScreenHash[id] = nil
        case KIOSK_DRM_IOCTL_MODE_PAGE_FLIP:
            guard isMaster else { throw fail(EACCES) }
            if let e = refuseFlips { throw fail(e) }
            let f = arg!.assumingMemoryBound(to: drm_mode_crtc_page_flip.self)
            guard let crtc = crtcs[f.pointee.crtc_id], crtc.fb != 0 else { throw fail(EINVAL) }
            guard fbs[f.pointee.fb_id] != nil else { throw fail(ENOENT) }
            if pendingFlips[f.pointee.crtc_id] != nil { throw fail(EBUSY) }
            pendingFlips[f.pointee.crtc_id] = (f.pointee.fb_id, f.pointee.user_data, flipLatencyPolls)
            onScreenHash[f.pointee.fb_id] = hash(f.pointee.fb_id)
        case KIOSK_DRM_IOCTL_MODE_DIRTYFB:
            guard isMaster else { throw fail(EACCES) }
            if let e = dirtyErrno { throw fail(e) }
            let d = arg!.assumingMemoryBound(to: drm_mode_fb_dirty_cmd.self)
            let clips = d.pointee.num_clips == 0 ? [] :
                Array(UnsafeBufferPointer(start: UnsafePointer<drm_clip_rect>(bitPattern: UInt(d.pointee.clips_ptr)), count: Int(d.pointee.num_clips)))
            dirtyCalls.append(clips)
        default:
            throw fail(ENOTTY)
        }
    }
    public var leakedDumbMemory: [UnsafeMutableRawPointer] = []

    private func fill(_ ptr: UInt64, _ capacity: UInt32, _ values: [UInt32]) {
        guard ptr != 0, Int(capacity) >= values.count else { return }
        let p = UnsafeMutablePointer<UInt32>(bitPattern: UInt(ptr))!
        for (i, v) in values.enumerated() { p[i] = v }
    }

    // MARK: fbdev

    /// An fbdev device `w`×`h` at `bpp` (32: XRGB8888, 16: RGB565) with room for two screens.
    public func addFBDev(width w: Int, height h: Int, bpp: Int, canPan: Bool = true, id: String = "fakefb") {
        fbVar = fb_var_screeninfo()
        fbVar.xres = UInt32(w); fbVar.yres = UInt32(h); fbVar.xres_virtual = UInt32(w); fbVar.yres_virtual = UInt32(h)
        fbVar.bits_per_pixel = UInt32(bpp)
        if bpp == 32 {
            fbVar.red = fb_bitfield(offset: 16, length: 8, msb_right: 0)
            fbVar.green = fb_bitfield(offset: 8, length: 8, msb_right: 0)
            fbVar.blue = fb_bitfield(offset: 0, length: 8, msb_right: 0)
        } else {
            fbVar.red = fb_bitfield(offset: 11, length: 5, msb_right: 0)
            fbVar.green = fb_bitfield(offset: 5, length: 6, msb_right: 0)
            fbVar.blue = fb_bitfield(offset: 0, length: 5, msb_right: 0)
        }
        fbFix = fb_fix_screeninfo()
        withUnsafeMutableBytes(of: &fbFix.id) { b in for (i, c) in id.utf8.prefix(15).enumerated() { b[i] = c } }
        fbFix.line_length = UInt32((w * bpp / 8 + 63) & ~63)
        fbFix.smem_len = fbFix.line_length * UInt32(h) * 2
        fbFix.ypanstep = canPan ? 1 : 0
        fbCanPan = canPan
        fbMemory = .allocate(byteCount: Int(fbFix.smem_len), alignment: 4096)
        fbMemory!.initializeMemory(as: UInt8.self, repeating: 0, count: Int(fbFix.smem_len))
    }

    private func fbdev(_ request: UInt, _ arg: UnsafeMutableRawPointer, _ name: String) throws(SysError) {
        switch request {
        case KIOSK_FBIOGET_VSCREENINFO: arg.assumingMemoryBound(to: fb_var_screeninfo.self).pointee = fbVar
        case KIOSK_FBIOGET_FSCREENINFO: arg.assumingMemoryBound(to: fb_fix_screeninfo.self).pointee = fbFix
        case KIOSK_FBIOPUT_VSCREENINFO:
            let v = arg.assumingMemoryBound(to: fb_var_screeninfo.self).pointee
            guard fbCanPan || v.yres_virtual == fbVar.yres else { throw SysError(call: "ioctl(\(name))", errno: EINVAL) }
            fbVar.yres_virtual = v.yres_virtual; fbVar.yoffset = v.yoffset
        case KIOSK_FBIOPAN_DISPLAY:
            let v = arg.assumingMemoryBound(to: fb_var_screeninfo.self).pointee
            guard v.yoffset + fbVar.yres <= fbVar.yres_virtual else { throw SysError(call: "ioctl(\(name))", errno: EINVAL) }
            fbVar.yoffset = v.yoffset
            fbPans.append(v.yoffset)
        case KIOSK_FBIO_WAITFORVSYNC:
            if !fbVsync { throw SysError(call: "ioctl(\(name))", errno: ENOTTY) }
        default: throw SysError(call: "ioctl(\(name))", errno: ENOTTY)
        }
    }

    /// The fbdev half now on screen, as a surface's bytes row by row (for comparisons).
    public func fbVisibleRow(_ y: Int) -> UnsafeMutableRawPointer {
        fbMemory! + (Int(fbVar.yoffset) + y) * Int(fbFix.line_length)
    }

    /// The dumb buffer on `crtc` (its memory, pitch) for comparisons.
    public func scanout(_ crtc: UInt32) -> Dumb? {
        guard let fb = crtcs[crtc]?.fb, let h = fbs[fb], let d = dumbs[h] else { return nil }
        return d
    }
}
