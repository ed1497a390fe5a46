import Glibc
import KioskBoards
import KioskCLI
import KioskDaemon
import KioskHUD
import KioskSeams
import KioskProtocol
import KioskSession
import KioskSettings
import KioskSys

/// What the daemon adds to a display run: the control socket, the protocol, psplash's FIFO,
/// Plymouth's socket, RAUC's installer.
final class DaemonParts: ShowExtras {
    let arguments: ParsedArguments
    let startHidden: Bool
    var socket: ControlSocket?
    var server: ControlServer?
    var psplash: PsplashFIFO?
    var daemon: Daemon?
    /// Plymouth's socket (--plymouth): the listener, its server, the controller, the estimate.
    var plymouth: PlymouthFrontEnd?
    /// RAUC's installer followed (--rauc).
    var rauc: RaucSource?
    /// SWUpdate's progress socket (--swupdate).
    var swupdate: SWUpdateProgress?
    var retainOnQuit: Bool?
    var inputDevices: [String] = []

    let group: UInt32?
    /// The previous image's state (the initramfs's daemon carried over), applied once at attach.
    var resume: DaemonResume?
    /// Started with --initramfs: the stage that takes new_root and adopt (nil once carried over).
    var initramfsStage: InitramfsDaemon?
    /// The initramfs's daemon's marker beside the control socket (InitramfsDaemon.markerPath).
    let initramfsMarker: String
    /// Whether this process wrote `initramfsMarker` (--initramfs) and it still stands for it: a
    /// run that ends without being carried over removes it (`detach`, else `deinit`), so that the
    /// real root's kiosk-hud.socket (ConditionPathExists=!) and daemon start as without it.
    private var wroteMarker = false
    private let kernel: Kernel
    /// `--plymouth-mode`: the Plymouth mode the daemon starts in (nil: boot-up, the options' look).
    let startMode: PlymouthMode?
    /// `--idle-after-first-frame` (nil without it).
    let idle: IdleAfterFirstFrame?
    /// Where the first frame goes: the initramfs's daemon's to /run, the carried-over one's none
    /// of its own (FrameCacheSupport.swift).
    let frameKeeping: FrameKeeping

    /// Checks the options and takes the control socket — before the display is touched, so a
    /// second daemon on the same socket refuses without disturbing the screen.
    init(_ a: ParsedArguments, kernel: Kernel, resume: DaemonResume? = nil, idle: IdleAfterFirstFrame? = nil) throws {
        arguments = a
        self.kernel = kernel
        self.resume = resume
        self.idle = idle
        frameKeeping = resume != nil ? .carriedOver : a.flag(.initramfs) ? .initramfs : .cache
        // Started on systemd's socket after the boot's handover (a later client activated it):
        // hidden, as with --hidden, so a `ctl status` never puts the splash over the app.
        let afterHandover = BootHandover.isDaemonAfterHandover(CommandLine.arguments)
        // --show-when-updating: hidden until an update starts.
        startHidden = a.flag(.hidden) || afterHandover || (a.given(.swupdate) && a.flag(.showWhenUpdating))
        if afterHandover && !a.flag(.hidden) { showLog("socket-activated after the boot's handover: starting hidden (until show)") }
        if let f = a.string(.psplashFifo), !f.isEmpty, f.utf8.contains(0) || f.utf8.count > 4095 {
            throw UsageError(optionError("psplash-fifo", f, expected: "a path"))
        }
        group = try a.string(.group).map { name in
            guard let g = kernel.groupID(name) else { throw UsageError("--group \(shown(name)): no such group") }
            return g
        }
        startMode = try DaemonParts.startMode(a)
        plymouth = try DaemonParts.plymouthFrontEnd(a, kernel: kernel)
        let path = a.string(.socket) ?? ControlSocket.defaultPath
        initramfsMarker = InitramfsDaemon.markerPath(socket: path)
        if let c = resume?.control {
            socket = ControlSocket.resumed(fd: c.fd, path: c.path, lock: c.lock, kernel: kernel)
            try? kernel.removeFile(initramfsMarker)
        } else {
            do { socket = try ControlSocket.open(path, group: group) } catch {
                plymouth?.close()
                throw ShowError("control socket: \(error)")
            }
            if a.flag(.initramfs) {
                // While this is there, kiosk-hud.socket does not take the path (the unit's
                // ConditionPathExists=), and the real root's daemon start takes this one over.
                do {
                    try kernel.replaceFile(initramfsMarker, with: Array("\(kernel.processID())\n".utf8))
                    wroteMarker = true
                } catch {
                    showLog("initramfs: cannot write \(initramfsMarker): \(error)")
                }
            } else if socket?.lockDescriptor != nil, (try? kernel.linkStatus(initramfsMarker)) != nil {
                // The socket's lock is ours: no daemon serves this socket, so a marker beside it
                // was left by an initramfs's daemon that is gone (it ended before it was taken
                // over, without removing it). It would keep kiosk-hud.socket off.
                do {
                    try kernel.removeFile(initramfsMarker)
                    showLog("initramfs: removed \(initramfsMarker): its daemon is gone (this one serves \(path))")
                } catch {
                    showLog("initramfs: cannot remove \(initramfsMarker), left by a daemon that is gone: \(error)")
                }
            }
        }
    }

    func firstFrameShown() { idle?.drop("the first frame is on screen") }

    func attach(session: HUDSession, loop: EventLoop, kernel: Kernel, screen: Screen, settings: HUDSettings) throws {
        let a = arguments
        guard let s = socket else { return }
        // The limit of the screen at the time (a display waited for appears later).
        let d = Daemon(session: session, settings: settings) { [unowned screen] path in
            let first = screen.displays.first
            let limit = pictureLimit(canvasWidth: first?.width ?? settings.profile.width, canvasHeight: first?.height ?? settings.profile.height)
            return try loadPNG(path, what: "", limit: limit)
        }
        // A picture another client names is opened with that client's rights: it can show
        // only what it could read itself, and its errors tell it nothing more (docs/security.md).
        d.kernel = kernel
        d.loadClientPicture = { [unowned screen] path, client in
            let first = screen.displays.first
            let limit = pictureLimit(canvasWidth: first?.width ?? settings.profile.width, canvasHeight: first?.height ?? settings.profile.height)
            return try loadPNG(path, what: "", limit: limit, as: client)
        }
        d.onQuit = { [weak self] retain in self?.quit(session, retain: retain) }
        d.statusExtras = { [weak self] in self?.statusFields() ?? [] }
        daemon = d
        if let r = resume {
            resume = nil
            d.pictureRights = DaemonResume.pictureRights(in: r.status)
            for request in r.requests {
                do throws(RequestError) { _ = try d.handle(request) } catch {
                    showLog("initramfs: the state handed over: \(error)")
                    // A picture that cannot be read again (its client's rights no longer reach
                    // it) costs the picture, not the texts and the progress beside it.
                    if let rest = DaemonResume.withoutPictures(request) { _ = try? d.handle(rest) }
                }
            }
        } else if a.flag(.initramfs) {
            let stage = InitramfsDaemon(kernel: kernel, socket: s, screen: screen) { [unowned d] in
                d.status() + [(DaemonResume.pictureRightsKey, DaemonResume.encode(d.pictureRights))]
            }
            d.initramfs = stage
            initramfsStage = stage
        }
        let uids = try a.value(.allowUid)?.ints.map { UInt32($0) } ?? []
        // Under systemd the socket unit's SocketGroup= is the group let in (--group wins).
        let activated = group == nil ? s.activationGroup : nil
        if let g = activated { showLog("control socket: group \(g) may use it (the socket unit's SocketGroup=)") }
        let server = ControlServer(kernel: kernel, loop: loop, listener: s.fd, daemon: d,
                                   access: AccessRule(group: group ?? activated, allowedUIDs: Set(uids)), log: showLog)
        self.server = server
        session.addObserver { event in
            switch event {
            case .hud(.buttonPressed, _): server.publish(.button)
            case .hud(.tappedOutside, _): server.publish(.tapOutside)
            case .hud(.hidden, _): server.publish(.hidden)
            case .screen(.deactivated): server.publish(.displayLost)
            case .screen(.activated): server.publish(.displayRegained)
            case .screen(.displaysChanged): server.publish(.displaysChanged)
            default: break
            }
        }
        showLog("control socket: listening on \(s.path ?? "the socket systemd passed")")
        plymouth?.attach(daemon: d, loop: loop) { [weak self] retain in self?.quit(session, retain: retain) }
        try attachSWUpdate(daemon: d, loop: loop, kernel: kernel, words: settings.words)
        if let m = startMode { startIn(m, daemon: d, settings: settings) }
        if let f = a.string(.psplashFifo) {
            let fifo = f.isEmpty ? PsplashFIFO.defaultPath : f
            do {
                psplash = try PsplashFIFO(path: fifo, kernel: kernel, loop: loop, log: showLog) { [weak self] c in
                    self?.psplashCommand(c, session: session)
                }
                showLog("psplash: reading \(fifo)")
            } catch { showLog("psplash: not reading the FIFO: \(error)") }   // the other sources go on (PsplashFIFOError)
        }
        if let address = a.string(.rauc) {
            do {
                rauc = try RaucSource(address: address.isEmpty ? RaucFollower.systemBus : address, daemon: d, words: settings.words, log: showLog)
            } catch { throw ShowError("rauc: \(error)") }
        }
    }

    /// `status`'s fields beyond the daemon's own: the input devices, the clients, the initramfs
    /// stage, Plymouth's front end, what drives the HUD, and the update sources' state. (One
    /// append at a time: as one expression Swift 6.0's type checker gave up on it.)
    func statusFields() -> [(String, JSONValue)] {
        var out: [(String, JSONValue)] = []
        out.append(("input", .object(JSONObject([("devices", .array(inputDevices.map { .string($0) }))]))))
        out.append(("clients", .number(Double(server?.clientCount ?? 0))))
        out.append(("overlays", .array((server?.overlays ?? []).map { o in
            .object(JSONObject([("pid", .number(Double(o.pid))), ("uid", .number(Double(o.uid))), ("screen", .string(o.screen.rawValue))]))
        })))
        if let c = SettingOptions.chosen {
            out.append(("board", .object(JSONObject([("name", .string(c.selection.name)), ("decided", .string(SettingOptions.decided))]))))
        }
        if let state = initramfsStatus { out.append(("initramfs", .string(state.rawValue))) }
        if let why = initramfsStage?.adoptionFailure { out.append(("adopt_error", .string(why))) }
        if let fields = plymouth?.statusFields { out.append(("plymouth", .object(JSONObject(fields)))) }
        let sources = updateSources
        let source = sources.first(where: \.drivesTheHUD)?.source ?? .control
        out.append(("source", .string(source.rawValue)))
        out += sources.map(\.statusEntry).reversed()
        return out
    }

    /// The update frameworks followed, SWUpdate first (while followed it is the source).
    var updateSources: [UpdateSource] { [swupdate as UpdateSource?, rauc].compactMap { $0 } }

    /// Where a daemon started with --initramfs is in the initramfs's life; nil without it.
    var initramfsStatus: InitramfsState? {
        guard arguments.flag(.initramfs) else { return nil }
        guard let stage = initramfsStage else { return .carriedOver }
        return stage.rootChanged ? .newRoot : .started
    }

    /// `--plymouth-mode`: the mode's look (label and HUD mode; progress 0 but at boot-up) on
    /// the HUD before its first frame, through Plymouth's front end when it runs (its mode is
    /// then this one too).
    private func startIn(_ m: PlymouthMode, daemon d: Daemon, settings: HUDSettings) {
        if let splash = plymouth?.splash {
            _ = splash.handle(.changeMode(m))
            return
        }
        do { try d.apply(PlymouthSplash.startFields(m, plymouth: settings.profile.plymouth, quiet: false)) } catch {
            showLog("--plymouth-mode \(m.rawValue): \(error)")
        }
    }

    /// The daemon's end asked by a client (`quit`), Plymouth's `quit` or psplash's QUIT: the
    /// handover remembered, the frame still owed drawn, the loop ended; `retain` (nil: as the
    /// arguments said) leaves the last frame on screen.
    private func quit(_ session: HUDSession, retain: Bool? = nil) {
        if let retain { retainOnQuit = retain }
        handedOver()
        session.drawPendingFrame()
        session.end(.exit(0))
    }

    /// A quit is the boot's handover: a daemon socket-activated later in this boot starts hidden.
    private func handedOver() {
        do { try BootHandover.mark(CommandLine.arguments) } catch { showLog("cannot remember the handover: \(error)") }
    }

    private func psplashCommand(_ c: PsplashFIFO.Command, session: HUDSession) {
        guard let d = daemon else { return }
        do {
            switch c {
            case let .progress(p):
                let mode = session.configuration.content.mode
                var fields: [(String, SettingValue)] = [("progress", .number(p))]
                if !mode.showsProgress { fields.append(("mode", .text(HUDMode.bar.rawValue))) }
                _ = try d.handle(try .update(fields))
            case let .message(text):
                _ = try d.handle(try .update([("label", .text(text))]))
            case .quit:
                quit(session)
            }
        } catch {
            showLog("psplash: \(error)")
        }
    }

    func inputChanged(_ name: String, added: Bool) {
        if added { inputDevices.append(name) } else if let i = inputDevices.firstIndex(of: name) { inputDevices.remove(at: i) }
        server?.publish(added ? .inputAdded : .inputRemoved, [("device", .string(name))])
    }

    deinit {
        // A run that ended before attach (a picture that cannot be read, no display, bad options).
        removeMarker()
        socket?.close(); plymouth?.close()
    }

    /// Removes the marker this process wrote (ended before being taken over: the real root's
    /// daemon start has nothing to take).
    private func removeMarker() {
        guard wroteMarker else { return }
        wroteMarker = false
        do { try kernel.removeFile(initramfsMarker) } catch where error.errno == ENOENT {} catch {
            showLog("initramfs: cannot remove \(initramfsMarker): \(error)")
        }
    }

    func detach() -> Bool? {
        removeMarker()
        psplash?.close(); psplash = nil
        for s in updateSources { s.close() }
        rauc = nil; swupdate = nil
        plymouth?.detach()
        server?.close()
        socket?.close(); socket = nil
        if let s = server { showLog("control socket: \(s.served) requests, \(s.refused) refused, \(s.dropped) dropped") }
        return retainOnQuit
    }

    /// The display is let go: a Plymouth quit is acknowledged now (the next program can take
    /// the display when `plymouth quit` returns, as with plymouthd).
    func screenClosed() {
        plymouth?.close()
        plymouth = nil
    }
}
