import CKioskSys
import Glibc
import KioskBoards
import KioskCLI
import KioskDaemon
import KioskSeams
import KioskDRM
import KioskProtocol
import KioskSettings
import KioskSys

// The daemon started in the initramfs (`daemon --initramfs`, by dist/initramfs-tools' init-top
// script) is carried over after switch-root, the same process: docs/initramfs.md.
//
// 1. init-bottom (the real root mounted at /root, before run-init empties the initramfs) sends
//    `new_root /root`: the daemon chroots there, so nothing of the initramfs stays its root or its
//    working directory. Its program file still is the initramfs's: run-init deletes it, but a
//    mapped file's pages stay in memory as long as it runs — the whole binary, 8–9 MB.
// 2. In the real root, kiosk-hud.service starts `kiosk-hud daemon` as on any boot; that program
//    finds the initramfs's daemon (the marker beside the socket) and, instead of a second
//    daemon, sends it `adopt`: the daemon execve()s the new root's kiosk-hud (the same path,
//    now in the real root) with the descriptors that matter kept open — the control socket and
//    its lock, and the DRM card (master, the frame on screen) — and its state in
//    $KIOSK_HUD_RESUME. The same pid, no modeset, no black frame; the initramfs's file is let go.
//    The starter then makes the daemon the unit's main process (MAINPID=, READY=1 once it is on
//    screen: one taken over while it still waits for its display is waited for) and ends.
// Plymouth does step 1 the same way (plymouthd chroots on `--newroot`) but keeps running from
// the initramfs's binary for the whole boot; systemd re-executes itself the way step 2 does.

/// The initramfs stage of a daemon started with --initramfs: carries out `new_root` and `adopt`.
final class InitramfsDaemon: InitramfsStage {
    let kernel: Kernel
    let socket: ControlSocket
    let screen: Screen
    /// The daemon's state now (`status`'s fields), carried to the next image.
    let status: () -> [(String, JSONValue)]
    private(set) var rootChanged = false

    init(kernel: Kernel, socket: ControlSocket, screen: Screen, status: @escaping () -> [(String, JSONValue)]) {
        self.kernel = kernel; self.socket = socket; self.screen = screen; self.status = status
    }

    func newRoot(_ path: String) throws(RequestError) {
        guard !rootChanged else { throw RequestError("new_root: the root was changed already") }
        guard let st = try? kernel.fileStatus(path), st.kind == .directory else { throw RequestError("new_root: \(shown(path)) is not a directory") }
        do { try kernel.changeRoot(path) } catch { throw RequestError("new_root: \(error)") }
        rootChanged = true
        showLog("initramfs: the new root is \(path); this daemon's root now")
    }

    func prepareAdoption() throws(RequestError) -> () -> Void {
        adoptionFailure = nil
        guard rootChanged else { throw RequestError("adopt: no new root yet (new_root comes first, from the initramfs's init-bottom)") }
        let program = CommandLine.arguments[0]
        guard program.hasPrefix("/") else { throw RequestError("adopt: started as \(shown(program)), not by an absolute path: the new root's program cannot be found") }
        guard let st = try? kernel.fileStatus(program), st.kind == .regular else {
            throw RequestError("adopt: the new root has no \(program)")
        }
        guard st.permissions & 0o111 != 0 else { throw RequestError("adopt: the new root's \(program) is not executable") }
        let source = screen.carryOver
        if let why = source?.carryOverRefusal { throw RequestError("adopt: \(why)", code: why.transient ? .busy : .cannot) }
        // The state is written now, before the reply: whatever its size, a failure to keep it is
        // this request's error, not a daemon that answered ok and then could not be carried over.
        let snapshot = JSONObject(status())
        let stateFD: Int32
        do { stateFD = try DaemonResume.writeState(snapshot, kernel: kernel) } catch { throw RequestError("adopt: the state cannot be kept: \(error)") }
        // Another screen (fbdev, offscreen, none yet) is opened again by the next image: fbdev
        // memory keeps its picture until the next frame is written over it.
        let control = DaemonResume.Control(fd: socket.fd, lock: socket.lockDescriptor, path: socket.path)
        return { [weak self, kernel, status] in
            var state = stateFD
            // A request answered between the reply and now changed the state: kept again
            // (the first copy stays if this one cannot be made: it is the state `adopt` saw).
            let now = JSONObject(status())
            if now != snapshot, let fresh = try? DaemonResume.writeState(now, kernel: kernel) {
                kernel.close(state)
                state = fresh
            }
            var carryOver: ScreenCarryOver?
            if let source {
                // The resume carries a DRM card's record: the one screen whose picture stays
                // with its descriptor across execve (any other is opened again by the next image).
                do throws(CarryOverRefusal) { carryOver = try source.carryOverRecord() as? ScreenCarryOver } catch {
                    kernel.close(state)
                    self?.failed("cannot carry on now: \(error)")
                    return
                }
            }
            let failure = Self.replace(program: program, resume: DaemonResume(control: control, screen: carryOver, stateFD: state), kernel: kernel)
            kernel.close(state)
            self?.failed("cannot carry on as \(program): \(failure)")
        }
    }

    /// Why the last `adopt` did not carry the daemon over (after its ok), for `status` (the starter waits
    /// for the new image no longer once it reads this); nil while none failed.
    private(set) var adoptionFailure: String?

    private func failed(_ why: String) {
        adoptionFailure = why
        showLog("initramfs: \(why); this program goes on")
    }

    /// execve() with the descriptors kept; back to normal if it fails: the reason.
    static func replace(program: String, resume: DaemonResume, kernel: Kernel) -> SysError {
        let kept = resume.descriptors
        for fd in kept { try? kernel.setCloseOnExec(fd, false) }
        var environment = currentEnvironment().filter { !$0.hasPrefix(DaemonResume.variable + "=") }
        environment.append(DaemonResume.variable + "=" + JSON.encode(.object(resume.encoded)))
        showLog("initramfs: carrying on as \(program) (same process, the screen and the socket kept)")
        let failure = kernel.replaceImage(program, arguments: CommandLine.arguments, environment: environment)
        for fd in kept { try? kernel.setCloseOnExec(fd, true) }
        return failure
    }

    /// The marker beside the control socket while the initramfs's daemon has not been taken over:
    /// its pid. kiosk-hud.socket does not start while it is there (its socket is this daemon's).
    static func markerPath(socket: String) -> String {
        let dir = socket.lastIndex(of: "/").map { String(socket[..<$0]) } ?? "."
        return dir + "/initramfs.pid"
    }
}

/// The carried-over daemon's output: the initramfs's daemon logged to the kernel's log (all there
/// was); under systemd its stdout and stderr become a journal stream, as a unit's own output is —
/// attributed to kiosk-hud.service, whose control group the starter moved it into first.
func logToJournal(kernel: Kernel) {
    let path = "/run/systemd/journal/stdout"
    guard let st = try? kernel.fileStatus(path), st.kind == .socket, let fd = try? kernel.connectUnix(path) else { return }
    defer { kernel.close(fd) }
    // The stream's header: identifier, unit, priority, level prefix, to syslog, to kmsg, to console.
    let header = Array("kiosk-hud\n\n6\n0\n0\n0\n0\n".utf8)
    do {
        _ = try header.withUnsafeBytes { b throws(SysError) in try kernel.write(fd, b) }
        try kernel.duplicate(fd, to: 1)
        try kernel.duplicate(fd, to: 2)
    } catch {
        showLog("initramfs: the log stays the kernel's: \(error)")
    }
}

/// `environ` as "NAME=value" strings.
func currentEnvironment() -> [String] {
    var out: [String] = []
    var p = environ
    while let s = p.pointee {
        out.append(String(cString: s))
        p += 1
    }
    return out
}

/// What the daemon carries over to the next program image in the same process (the initramfs's
/// daemon taken over after switch-root). The descriptors and the screen, a few hundred bytes of fixed
/// size, go in $KIOSK_HUD_RESUME as JSON; the HUD's state (`status`, whose texts a client sets,
/// escaped up to six-fold in JSON) in a memory file whose descriptor the variable names: the
/// environment is bounded (128 KiB a string: execve's E2BIG), a descriptor is not, and the file
/// is written before `adopt` answers. Read once and removed at start.
struct DaemonResume {
    static let variable = "KIOSK_HUD_RESUME"
    /// The largest state read back (a status is tens of KiB at most; this only bounds a
    /// descriptor that is not what the previous image wrote).
    static let maxStateBytes = 16 << 20

    struct Control {
        var fd: Int32
        var lock: Int32?
        var path: String?
    }

    var control: Control
    var screen: ScreenCarryOver?
    /// `status`'s fields: `content`, `style`, `visible`.
    var status: JSONObject
    /// The memory file holding `status` (the image carrying it over; nil in the image that read it).
    var stateFD: Int32?

    var descriptors: [Int32] { [control.fd] + (control.lock.map { [$0] } ?? []) + (screen.map { [$0.fd] } ?? []) + (stateFD.map { [$0] } ?? []) }

    init(control: Control, screen: ScreenCarryOver?, stateFD: Int32) {
        self.control = control; self.screen = screen; self.stateFD = stateFD; status = JSONObject([])
    }

    /// A new memory file holding `state` (JSON): its descriptor, close-on-exec (cleared for the
    /// execve by `replace`).
    static func writeState(_ state: JSONObject, kernel: Kernel) throws(SysError) -> Int32 {
        let fd = try kernel.makeMemoryFile("kiosk-hud-state")
        let bytes = Array(JSON.encode(.object(state)).utf8)
        let r: Result<Void, SysError> = bytes.withUnsafeBytes { b in Result { () throws(SysError) in try kernel.writeAll(fd, b) } }
        if case let .failure(e) = r {
            kernel.close(fd)
            throw e
        }
        return fd
    }

    /// The state in the memory file `fd` (read from its start, then closed).
    static func readState(_ fd: Int32, kernel: Kernel) throws(ShowError) -> JSONObject {
        defer { kernel.close(fd) }
        guard let st = try? kernel.status(fd), st.kind == .regular, st.size <= maxStateBytes else {
            throw ShowError("\(variable): descriptor \(fd) is not the state a kiosk-hud daemon hands over")
        }
        var bytes = [UInt8](repeating: 0, count: st.size)
        var done = 0
        while done < bytes.count {
            let r: Result<Int, SysError> = bytes.withUnsafeMutableBytes { b in
                Result { () throws(SysError) in try kernel.pread(fd, into: UnsafeMutableRawBufferPointer(rebasing: b[done...]), at: done) }
            }
            guard case let .success(n) = r, n > 0 else { throw ShowError("\(variable): the state cannot be read (descriptor \(fd))") }
            done += n
        }
        return try parseState(bytes)
    }

    /// The state's bytes as JSON (at most `maxStateBytes`).
    static func parseState(_ bytes: [UInt8]) throws(ShowError) -> JSONObject {
        let v: JSONValue
        do { v = try JSON.parse(bytes[...], limits: JSONLimits(maxBytes: maxStateBytes)) } catch {
            throw ShowError("\(variable): the state handed over is not JSON: \(error)")
        }
        guard let o = v.object else { throw ShowError("\(variable): the state handed over is not a JSON object") }
        return o
    }

    var encoded: JSONObject {
        var c: [(String, JSONValue)] = [("fd", .number(Double(control.fd)))]
        if let l = control.lock { c.append(("lock", .number(Double(l)))) }
        if let p = control.path { c.append(("path", .string(p))) }
        var fields: [(String, JSONValue)] = [("control", .object(JSONObject(c)))]
        if let s = stateFD { fields.append(("state", .number(Double(s)))) }
        if let s = screen {
            func n(_ v: some BinaryInteger) -> JSONValue { .number(Double(v)) }
            let saved: [(String, JSONValue)] = [("crtc", n(s.saved.id)), ("fb", n(s.saved.fbID)), ("x", n(s.saved.x)), ("y", n(s.saved.y))]
                + (s.saved.mode.map { [("mode", .string(hex($0)))] } ?? [])
            fields.append(("screen", .object(JSONObject([
                ("fd", n(s.fd)), ("card", .string(s.card)), ("connector", n(s.connectorID)), ("crtc", n(s.crtcID)),
                ("mode", .string(hex(s.mode))), ("format", .string(s.format == .rgb565 ? "rgb565" : "xrgb8888")),
                ("handle", n(s.buffer.handle)), ("pitch", n(s.buffer.pitch)), ("size", n(s.buffer.size)), ("fb", n(s.fbID)),
                ("saved", .object(JSONObject(saved))),
                ("released", .array(s.released.map { .array([n($0.fbID), n($0.handle)]) })),
            ]))))
        }
        return JSONObject(fields)
    }

    /// Reads and removes $KIOSK_HUD_RESUME, and the state its descriptor holds; nil when it is
    /// not set. Throws for a value that is not what `encoded` writes (nothing of it is used
    /// then). A 0.1.0 image's variable held the state itself (`status`): read as well.
    static func take(kernel: Kernel = LinuxKernel()) throws(ShowError) -> DaemonResume? {
        guard let text = environmentValue(variable) else { return nil }
        unsetenv(variable)
        var r = try decode(environment: text)
        if let fd = r.stateFD {
            r.stateFD = nil
            r.status = try readState(fd, kernel: kernel)
        }
        return r
    }

    /// $KIOSK_HUD_RESUME's value read (the state's descriptor not yet).
    static func decode(environment text: String) throws(ShowError) -> DaemonResume {
        guard text.utf8.count <= 64 << 10, let v = try? JSON.parse(Array(text.utf8)), let o = v.object, let r = DaemonResume(o) else {
            throw ShowError("\(variable): not the state a kiosk-hud daemon hands over")
        }
        return r
    }

    init?(_ o: JSONObject) {
        func u32(_ v: JSONValue?) -> UInt32? { v?.int.flatMap { UInt32(exactly: $0) } }
        func i32(_ v: JSONValue?) -> Int32? { v?.int.flatMap { Int32(exactly: $0) } }
        guard let c = o["control"]?.object, let fd = i32(c["fd"]) else { return nil }
        control = Control(fd: fd, lock: i32(c["lock"]), path: c["path"]?.string)
        // The state's descriptor (this version), or the state itself (0.1.0's images).
        if let s = o["state"] { guard let sfd = i32(s), sfd >= 0 else { return nil }; stateFD = sfd; status = JSONObject([]) } else {
            guard let status = o["status"]?.object else { return nil }
            self.status = status
            stateFD = nil
        }
        guard let s = o["screen"]?.object else { screen = nil; return }
        guard let sfd = i32(s["fd"]), let card = s["card"]?.string, let conn = u32(s["connector"]), let crtc = u32(s["crtc"]),
              let mode = s["mode"]?.string.flatMap(modeInfo), let handle = u32(s["handle"]), let pitch = s["pitch"]?.int,
              let size = s["size"]?.int, let fb = u32(s["fb"]), let saved = s["saved"]?.object,
              let sc = u32(saved["crtc"]), let sfb = u32(saved["fb"]), let sx = u32(saved["x"]), let sy = u32(saved["y"]),
              let released = s["released"]?.array else { return nil }
        var freed: [ScreenCarryOver.Released] = []
        for r in released {
            guard let pair = r.array, pair.count == 2, let f = u32(pair[0]), let h = u32(pair[1]) else { return nil }
            freed.append(.init(fbID: f, handle: h))
        }
        let savedMode = saved["mode"]?.string.flatMap(modeInfo)
        screen = ScreenCarryOver(fd: sfd, card: card, connectorID: conn, crtcID: crtc, mode: mode,
                               format: s["format"]?.string == "rgb565" ? .rgb565 : .xrgb8888,
                               buffer: DumbBufferInfo(handle: handle, pitch: pitch, size: size), fbID: fb,
                               saved: CRTCInfo(id: sc, fbID: sfb, x: sx, y: sy, mode: savedMode), released: freed)
    }

    /// The state's field holding `Daemon.pictureRights`.
    static let pictureRightsKey = "picture_rights"

    /// `Daemon.pictureRights` as the state holds it: {key: {uid, gid, groups}}.
    static func encode(_ rights: [String: PeerCredentials]) -> JSONValue {
        .object(JSONObject(rights.sorted { $0.key < $1.key }.map { key, c in
            (key, .object(JSONObject([("uid", .number(Double(c.uid))), ("gid", .number(Double(c.gid))),
                                      ("groups", .array(c.groups.map { .number(Double($0)) }))])))
        }))
    }

    /// The picture rights in a carried-over state (none in a 0.1.0 image's).
    static func pictureRights(in status: JSONObject) -> [String: PeerCredentials] {
        func u32(_ v: JSONValue?) -> UInt32? { v?.int.flatMap { UInt32(exactly: $0) } }
        var out: [String: PeerCredentials] = [:]
        for (key, v) in status[pictureRightsKey]?.object?.members ?? [] {
            guard let o = v.object, let uid = u32(o["uid"]), let gid = u32(o["gid"]) else { continue }
            out[key] = PeerCredentials(pid: 0, uid: uid, gid: gid, groups: (o["groups"]?.array ?? []).compactMap(u32))
        }
        return out
    }

    /// `request` without its pictures (and without mode `custom`, which needs one: the mode
    /// stays the one this image started in), nil when it names none.
    static func withoutPictures(_ request: DaemonRequest) -> DaemonRequest? { request.withoutPictures }

    /// The content and look to apply, as `update` and `style` requests, and whether the HUD was shown.
    var requests: [DaemonRequest] { DaemonRequest.restoring(status) }
}

/// The carried-over state as the next program image reads it — $KIOSK_HUD_RESUME's value and the
/// bytes of the memory file it names — decoded into what that image would apply: the requests
/// and the pictures' rights. Throws as the image would (it then ends, leaving no marker). For the
/// fuzzer (`kiosk-hud-fuzz carryover`): bytes a previous image wrote are parsed as a peer's.
public func decodeCarriedOverState(environment: String, state: [UInt8]) throws(ShowError) -> (requests: [DaemonRequest], pictureRights: [String: PeerCredentials]) {
    var r = try DaemonResume.decode(environment: environment)
    if r.stateFD != nil { r.status = try DaemonResume.parseState(state) }
    return (r.requests, DaemonResume.pictureRights(in: r.status))
}

/// `decodeCarriedOverState(environment:state:)`'s earlier name.
@available(*, deprecated, renamed: "decodeCarriedOverState(environment:state:)")
public func decodeHandover(environment: String, state: [UInt8]) throws(ShowError) -> (requests: [DaemonRequest], pictureRights: [String: PeerCredentials]) {
    try decodeCarriedOverState(environment: environment, state: state)
}

private func hex(_ m: ModeInfo) -> String {
    withUnsafeBytes(of: m.raw) { b in b.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }
}

private func modeInfo(_ s: String) -> ModeInfo? {
    let bytes = Array(s.utf8)
    var raw = drm_mode_modeinfo()
    guard bytes.count == MemoryLayout<drm_mode_modeinfo>.size * 2 else { return nil }
    var ok = true
    withUnsafeMutableBytes(of: &raw) { b in
        for i in 0..<b.count {
            guard let v = UInt8(String(decoding: bytes[2 * i ..< 2 * i + 2], as: UTF8.self), radix: 16) else { ok = false; return }
            b[i] = v
        }
    }
    return ok ? ModeInfo(raw) : nil
}

/// The real root's `kiosk-hud daemon` when the initramfs's daemon is still running: it takes that
/// daemon over instead of starting a second one (which could not take the socket or the screen).
enum InitramfsTakeover {
    /// The initramfs's daemon's pid, when its marker is beside `socket` and can be trusted; nil
    /// (with one log line when a marker was there) otherwise. The real root's start moves that
    /// process into its unit and names it systemd's main pid, so a marker is believed only when
    /// nobody but root could have written it and the process is what it claims: the marker a
    /// regular file of root's (or this user's) that no one else may write, in a directory of
    /// root's that no one else may write; its pid a process running a kiosk-hud program
    /// (/proc/PID/exe); and that process the one listening on `socket` (SO_PEERCRED of a
    /// connection to it). Nothing is moved or announced before all of this holds.
    static func waitingDaemon(socket: String, kernel: Kernel, log: (String) -> Void = showLog) -> Int32? {
        let marker = InitramfsDaemon.markerPath(socket: socket)
        guard let st = try? kernel.linkStatus(marker) else { return nil }
        switch trustedPid(marker: marker, status: st, socket: socket, kernel: kernel) {
        case let .success(pid): return pid
        case let .failure(why):
            log("initramfs: \(marker) is not believed (\(why.description)); starting a daemon of this system's own")
            return nil
        }
    }

    /// Why a marker is not believed.
    struct Distrust: Error, CustomStringConvertible { var description: String }

    static func trustedPid(marker: String, status st: FileStatus, socket: String, kernel: Kernel) -> Result<Int32, Distrust> {
        let me = kernel.effectiveUserID()
        guard st.kind == .regular else { return .failure(Distrust(description: "not a regular file (\(st.kind))")) }
        guard st.isWritableOnly(byRootOr: me) else {
            return .failure(Distrust(description: "owned by uid \(st.ownerID), mode \(String(st.permissions, radix: 8)): not root's alone"))
        }
        let dir = parentDirectory(of: marker)
        guard let d = try? kernel.fileStatus(dir), d.kind == .directory, d.isWritableOnly(byRootOr: me) else {
            return .failure(Distrust(description: "its directory \(dir) may be written by others than root"))
        }
        guard let text = kernel.readTextFile(marker),
              let pid = Int32(text.split(separator: "\n").first.map(String.init) ?? ""), pid > 1, pid != kernel.processID() else {
            return .failure(Distrust(description: "no pid in it"))
        }
        do { try kernel.kill(pid, 0) } catch { return .failure(Distrust(description: "pid \(pid) does not run")) }
        // The program it runs: a kiosk-hud (the initramfs's, deleted by run-init, reads
        // "/usr/bin/kiosk-hud (deleted)").
        func name(_ link: String?) -> Substring? {
            guard var l = link else { return nil }
            if l.hasSuffix(" (deleted)") { l.removeLast(10) }
            return l.split(separator: "/").last
        }
        guard let theirs = name(kernel.readLink("/proc/\(pid)/exe")), theirs == name(kernel.readLink("/proc/self/exe")) ?? "kiosk-hud" else {
            return .failure(Distrust(description: "pid \(pid) is not a kiosk-hud program"))
        }
        // And it is the daemon answering on the socket.
        let peer: PeerCredentials
        do {
            let fd = try kernel.connectUnix(socket)
            defer { kernel.close(fd) }
            peer = try kernel.peerCredentials(fd)
        } catch {
            return .failure(Distrust(description: "nobody answers on \(socket): \(error)"))
        }
        guard peer.pid == pid, peer.uid == 0 || peer.uid == me else {
            return .failure(Distrust(description: "pid \(peer.pid) (uid \(peer.uid)) listens on \(socket), not pid \(pid)"))
        }
        return .success(pid)
    }

    /// Asks the daemon at `socket` to be carried over as this system's program (`adopt`, tried
    /// again while it is busy for a moment), waits until the new image answers, and makes it this
    /// service's main process. A daemon that cannot be carried over (an error reply) is made the main
    /// process as it is: it still shows the boot and answers, from the initramfs's program.
    static func run(pid: Int32, socket: String, kernel: Kernel) throws {
        showLog("initramfs: its daemon (pid \(pid)) is running: taking it over")
        // Under systemd (a notify unit) the daemon joins the unit's control group first: what
        // it logs from now on, and the unit's stop, are the unit's.
        if environmentValue("NOTIFY_SOCKET") != nil { joinOwnCgroup(pid, kernel: kernel) }
        // Within the unit's TimeoutStartSec= (90 s): under QEMU's TCG on a loaded host the new
        // image took 15 s to answer.
        let deadline = monotonicSeconds() + 75
        var carriedOn = false
        while monotonicSeconds() < deadline {
            let reply: JSONObject
            do { reply = try DaemonClient(path: socket, kernel: kernel).reply(.adopt, [], timeout: 10) } catch {
                throw ShowError("initramfs: its daemon does not answer on \(socket): \(error)")
            }
            if reply["ok"]?.bool == true { carriedOn = true; break }
            let why = reply["error"]?.string ?? "refused"
            if reply["code"]?.string == ReplyCode.busy.rawValue { kernel.sleep(0.05); continue }
            showLog("initramfs: its daemon cannot carry on as this system's program (\(why)); it goes on as it is")
            break
        }
        if carriedOn {
            // The new image answers once its loop runs; its status says it was carried over.
            var answered = false
            var failure: String?
            while !answered && failure == nil && monotonicSeconds() < deadline {
                if let c = try? DaemonClient(path: socket, kernel: kernel), let s = try? c.request(.status, [], timeout: 5) {
                    answered = s["initramfs"]?.string == InitramfsState.carriedOver.rawValue
                    // The daemon answered ok, then could not be carried over: it says why, at once.
                    failure = s["adopt_error"]?.string
                }
                if !answered && failure == nil { kernel.sleep(0.05) }
            }
            if answered {
                showLog("initramfs: its daemon carries on as \(CommandLine.arguments[0]) (pid \(pid))")
                if startedHidden(pid, kernel: kernel) == false, !waitUntilShown(socket: socket, kernel: kernel, until: deadline) {
                    // As a daemon started here that found no display: the unit fails (its log says why).
                    throw ShowError("initramfs: its daemon (pid \(pid)) ended while it waited for its display")
                }
            } else if let failure {
                showLog("initramfs: its daemon could not carry on as this system's program (\(failure)); it goes on as it is")
            } else {
                showLog("initramfs: its daemon did not say it carries on as \(CommandLine.arguments[0]); it goes on as it is")
            }
        }
        // systemd takes a main pid outside the unit's control group from root (as here).
        do { try kernel.notifyServiceManager("MAINPID=\(pid)\nREADY=1\nSTATUS=The initramfs's splash, taken over\n") } catch {
            showLog("cannot tell systemd the daemon's pid: \(error)")
        }
    }

    /// A daemon taken over while it still waits for its display (the root was found before a
    /// display driver that probes late: vc4, a DSI panel) is not on screen yet. A daemon started
    /// by the unit says READY=1 only once its first frame is on screen (or it gave up waiting), so
    /// that sysinit.target comes with the HUD visible; the same holds for this one: while its
    /// status names no display, this waits until a display is there and its status says the
    /// first frame is on it (`first_frame`; a daemon whose status has no such field: until it
    /// answers a `ping`, once the frame is drawn), the daemon is gone, or `deadline` (within the
    /// unit's start timeout; READY=1 then all the same). Seen under load (a CI host's TCG guest):
    /// the display there 9.4 s before the drawn frame, so "a display" alone was not "shown". Not for a daemon started hidden
    /// (`startedHidden`), which opens no display until asked to show. False when the daemon
    /// ended meanwhile (it closed the connection: no display within its own wait).
    static func waitUntilShown(socket: String, kernel: Kernel, until deadline: Double) -> Bool {
        guard let client = try? DaemonClient(path: socket, kernel: kernel) else { return true }
        var waited = false
        while monotonicSeconds() < deadline {
            let s: JSONObject
            do { s = try client.request(.status, [], timeout: 10) } catch {
                if case .timedOut = error { return true }   // busy (drawing): not waited for longer
                return !waited
            }
            // On screen, or another program has the screen (no frame comes until it lets go: the
            // daemon is up all the same, as one the unit started says READY=1 then).
            if !(s["displays"]?.array ?? []).isEmpty && s["first_frame"]?.bool != false || s["active"]?.bool == false {
                if waited {
                    if s["first_frame"] == nil { _ = try? client.request(.ping, [], timeout: max(1, deadline - monotonicSeconds())) }
                    showLog("initramfs: its daemon shows on its display now")
                }
                return true
            }
            if !waited {
                waited = true
                showLog("initramfs: its daemon waits for its display: ready once it shows")
                _ = try? kernel.notifyServiceManager("STATUS=The initramfs's splash, taken over: waiting for a display\n")
            }
            kernel.sleep(0.1)
        }
        showLog("initramfs: its daemon still waits for its display; ready all the same")
        return true
    }

    /// Whether the daemon `pid` was started hidden (--hidden, or --swupdate with
    /// --show-when-updating: it opens no display until asked to show), from its own command
    /// line; nil when that cannot be read as `kiosk-hud daemon`'s.
    static func startedHidden(_ pid: Int32, kernel: Kernel) -> Bool? {
        guard let text = kernel.readTextFile("/proc/\(pid)/cmdline") else { return nil }
        let words = text.split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
        guard words.count >= 3, words[1] == "daemon", words.last == "",
              case let .run(_, a)? = try? parseCommandLine(Array(words[2 ..< words.count - 1]), root: DaemonCommand.spec) else { return nil }
        return a.flag(.hidden) || (a.given(.swupdate) && a.flag(.showWhenUpdating))
    }

    /// Moves `pid` into this process's cgroup (v2), so the unit's stop and KillMode reach it.
    static func joinOwnCgroup(_ pid: Int32, kernel: Kernel) {
        guard let text = kernel.readTextFile("/proc/self/cgroup"),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("0::") }) else { return }
        let path = "/sys/fs/cgroup" + line.dropFirst(3) + "/cgroup.procs"
        do {
            let fd = try kernel.open(path, flags: O_WRONLY, mode: 0)
            defer { kernel.close(fd) }
            let bytes = Array("\(pid)\n".utf8)
            _ = try bytes.withUnsafeBytes { b throws(SysError) in try kernel.write(fd, b) }
        } catch {
            showLog("initramfs: cannot move its daemon into \(path): \(error)")
        }
    }
}

/// Where the daemon is in the initramfs's life (`status`'s "initramfs" field).
enum InitramfsState: String {
    /// Started in the initramfs, its root not changed yet.
    case started
    /// Its root is the real root (after `new_root`), the initramfs's program still running.
    case newRoot = "new-root"
    /// Carried over as the real root's program (after `adopt`).
    case carriedOver = "carried-over"
}
