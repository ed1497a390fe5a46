import KioskBoards
import KioskSeams
import KioskHUD
import KioskProtocol
import KioskRaster
import KioskSession
import KioskSettings
import KioskSys

/// What the daemon does with requests: it drives the session's HUDs and answers with a reply
/// object. Owned by the loop's thread (as everything here).
public final class Daemon {
    public let session: HUDSession
    /// The settings in effect (what `status` reports; `update` and `style` change them).
    public private(set) var settings: HUDSettings
    /// Reads a picture for `update`'s image within the screen's limit (KioskPNG, by the owner),
    /// with the daemon's own rights: a picture the daemon itself, root or the daemon's user names.
    public var loadPicture: (String) throws -> Bitmap
    /// Reads a picture another client names, with that client's rights (its uid and groups), so
    /// that it can show only what it could read itself. Nil: such a picture is refused.
    public var loadClientPicture: ((String, PeerCredentials) throws -> Bitmap)?
    /// The daemon is asked to quit (retain the last frame or not), after the reply is sent.
    public var onQuit: (Bool) -> Void = { _ in }
    /// Extra state for `status` (input devices, the tilt), filled by the owner.
    public var statusExtras: () -> [(String, JSONValue)] = { [] }
    /// A front end that owns the progress (the Plymouth front end's boot estimate) sees each
    /// progress a client's `update` sends and says what to show instead.
    public var progressFilter: ((Double) -> Double)?
    /// The initramfs stage (`daemon --initramfs`), filled by the owner: `new_root` and `adopt`
    /// are refused without it.
    public var initramfs: InitramfsStage?
    /// The seam the daemon asks who it runs as (its effective user, whose rights its own
    /// pictures are read with): the real kernel unless the owner gives its own.
    public var kernel: any Kernel = LinuxKernel()
    private var noticeTimer: LoopToken?
    private var trimTimer: LoopToken?
    /// When a request last changed content or style (the idle time counts from it).
    private var lastChange: Seconds = 0
    /// When the running burst began, or its heap was last given back.
    private var burstStart: Seconds = 0

    public init(session: HUDSession, settings: HUDSettings, loadPicture: @escaping (String) throws -> Bitmap) {
        self.session = session; self.settings = settings; self.loadPicture = loadPicture
    }

    /// The request being handled comes from (the pictures it names are read with its rights).
    private var requester: Requester = .daemon

    /// Handles one request from `requester` (by default the daemon itself); the reply's fields
    /// (besides "v", "ok" and "id", which the server adds). Throws `RequestError` for an error
    /// reply — `permission_denied` for an op the requester may not ask for (`DaemonOp.authority`),
    /// before anything is done.
    public func handle(_ r: DaemonRequest, from requester: Requester = .daemon) throws(RequestError) -> [(String, JSONValue)] {
        guard requester.may(r.op) else {
            throw RequestError("\(r.op.rawValue): only root may ask for it", code: .permissionDenied)
        }
        self.requester = requester
        defer { self.requester = .daemon }
        switch r {
        case .update, .style, .notice: giveBackMemoryWhenIdle()
        default: break
        }
        switch r {
        case .ping: return [("version", .number(Double(protocolVersion)))]
        case let .show(animated): cancelNotice(); session.show(animated: animated); changed(r)
        case let .hide(animated, delay): cancelNotice(); session.hide(animated: animated, afterDelay: delay); changed(r)
        case let .update(fields, animated): try update(fields, animated: animated, filtered: true)
        case let .style(fields): try style(fields); changed(r)
        case let .notice(kind, text, duration): try notice(kind, text, duration); changed(r)
        case .push: session.pushActivity(); changed(r)
        case .pop: session.popActivity(); changed(r)
        case .press:
            guard session.pressButton() else { throw RequestError("press: no button on screen") }
        case .status: return status()
        case .subscribe: break   // the server keeps the subscription
        case let .quit(retain): session.loop.execute { [weak self] in self?.onQuit(retain) }
        case let .newRoot(path):
            guard let stage = initramfs else { throw RequestError("new_root: this daemon did not start in the initramfs (daemon --initramfs)") }
            try stage.newRoot(path)
        case .adopt:
            guard let stage = initramfs else { throw RequestError("adopt: this daemon did not start in the initramfs (daemon --initramfs)") }
            let carryOn = try stage.prepareAdoption()
            // After the reply has gone out.
            session.loop.execute { carryOn() }
        case .overlay: return mirroredState()   // the server adds the connection to the overlays
        }
        return []
    }

    // MARK: Overlays (RequestMirror.swift)

    /// Which screen shows the HUD: this daemon's own, or an overlay's while another program
    /// (the compositor) has this one.
    var servingScreen: String {
        if !session.screen.isActive, let o = overlays().first { return o.rawValue }
        return session.screen.backend.rawValue
    }

    /// Hears each change of the HUD as the request that makes it, as carried out (the progress
    /// a front end's filter chose; pictures only where an overlay may read them): the control
    /// server sends it to the overlays as `changed`.
    public var onChange: ((DaemonRequest) -> Void)?
    /// The screens of the overlays following the HUD (the control server's): with one, and this
    /// daemon's own screen given up to another program, `status` says the overlay's screen.
    public var overlays: () -> [OverlayScreen] = { [] }

    private func changed(_ r: DaemonRequest) {
        guard let onChange else { return }
        // A picture read with a client's rights is that client's: an overlay runs as another
        // user (the compositor's) and would read the path with its own, so it is not sent there.
        let clients = r.picturesNamed.contains { pictureRights[$0] != nil }
        if clients { if let rest = r.withoutPictures { onChange(rest) } } else { onChange(r) }
    }

    /// The state for an overlay: `status`'s visible, content and style, without the pictures
    /// clients named (read with their rights: `changed`).
    public func mirroredState() -> [(String, JSONValue)] {
        status().compactMap { key, value in
            guard ["visible", "content", "style"].contains(key) else { return nil }
            guard case let .object(o) = value else { return (key, value) }
            return (key, .object(JSONObject(o.members.filter { !(DaemonRequest.pictureKeys.contains($0.key) && pictureRights[$0.key] != nil) })))
        }
    }

    // MARK: Content and style

    /// Changes content settings named by their keys (a front end's update: psplash's, Plymouth's),
    /// as an `update` request would, but with the progress as given (no `progressFilter`).
    public func apply(_ content: [(String, SettingValue)], animated: Bool = false) throws(RequestError) {
        try update(try DaemonRequest.contentFields(content), animated: animated, filtered: false)
    }

    private func update(_ fields: [(Setting<HUDSettings>, SettingValue)], animated: Bool, filtered: Bool) throws(RequestError) {
        var next = settings
        for (s, v) in fields { s.set(&next, v) }
        if filtered, let f = progressFilter, fields.contains(where: { $0.0.key == "progress" }) {
            next.content.progress = min(max(f(next.content.progress), 0), 1)
        }
        if next.content.mode == .custom && next.image == nil { throw RequestError.bad("mode custom needs an image") }
        var content = next.content
        if let image = next.image, content.mode == .custom {
            if fields.contains(where: { $0.0.key == "image" }) || settings.content.mode != .custom {
                do { content.image = HUDImage(bitmap: try picture(image, for: "image")) } catch { throw RequestError("image \(error)") }
            } else {
                content.image = session.configuration.content.image
            }
        } else {
            content.image = nil
        }
        let progress = content.progress
        if fields.allSatisfy({ $0.0.key == "progress" }) {
            session.setProgress(progress, animated: animated)
        } else {
            // With "animated", the rest changes at once and the progress eases to its value.
            if animated { content.progress = session.configuration.content.progress }
            do { try session.update(content: { $0 = content }) } catch { throw RequestError("\(error)") }
            if animated { session.setProgress(progress, animated: true) }
        }
        settings = next
        // As carried out: the progress a filter chose.
        changed(.update(fields.map { $0.0.key == "progress" ? ($0.0, SettingValue.number(progress)) : $0 }, animated: animated))
    }

    private func style(_ fields: [(Setting<HUDSettings>, SettingValue)]) throws(RequestError) {
        var next = settings
        for (s, v) in fields { s.set(&next, v) }
        let p = next.profile
        // A new logo is read first: a picture that cannot be read changes nothing. (An empty
        // path cleared it: nil.)
        var logo: Bitmap?
        let newLogo = p.logo != settings.profile.logo
        if newLogo, let path = p.logo {
            do { logo = try picture(path, for: "logo") } catch { throw RequestError("logo \(error)") }
        }
        do { try session.update(style: { $0 = p.style }) } catch { throw RequestError("\(error)") }
        if newLogo { session.setLogo(logo) }
        if p.timing != settings.profile.timing { session.update(timing: p.timing) }
        if p.motion.reduceMotion != settings.profile.motion.reduceMotion { session.tiltTracker?.config.reduceMotion = p.motion.reduceMotion }
        if p.underlayColor != settings.profile.underlayColor || next.underlayImage != settings.underlayImage || p.underlayFit != settings.profile.underlayFit {
            // A new colour under the same picture keeps the picture as read: reading it again
            // cost a decode and a freed picture per request.
            var picture: Bitmap? = next.underlayImage == settings.underlayImage ? session.configuration.underlay : nil
            if picture == nil, let u = next.underlayImage {
                do { picture = try self.picture(u, for: "underlay_image") } catch { throw RequestError("underlay_image \(error)") }
            }
            session.setUnderlay(color: p.underlayColor, image: picture, fit: p.underlayFit)
        }
        settings = next
    }

    /// The rights each picture on the HUD was read with, by its setting's key (`image`, `logo`,
    /// `underlay_image`); absent: the daemon's own. Handed over with the state (`adopt`), so that
    /// the next image reads each picture again as whoever named it — not as root a path the
    /// client has since pointed elsewhere.
    public var pictureRights: [String: PeerCredentials] = [:]

    /// The picture at `path` for setting `key`, read with the rights of whoever asks
    /// (`requester`); a request of the daemon's own (the state handed over) reads it as whoever
    /// named it last (`pictureRights`).
    private func picture(_ path: String, for key: String) throws -> Bitmap {
        let rights: PeerCredentials?
        switch requester {
        case .daemon: rights = pictureRights[key]
        case .client: rights = requester.fileRights(daemonUser: kernel.effectiveUserID())
        }
        let bitmap: Bitmap
        if let rights {
            guard let load = loadClientPicture else { throw RequestError("\(path): pictures from uid \(rights.uid) are not read by this daemon") }
            bitmap = try load(path, rights)
        } else {
            bitmap = try loadPicture(path)
        }
        pictureRights[key] = rights
        return bitmap
    }

    // MARK: success / error / info

    /// SVProgressHUD's display time for a message: 0.06 s a character plus 0.5 s, at least 5 s.
    public static func displayDuration(for text: String) -> Double { max(Double(text.count) * 0.06 + 0.5, 5) }

    private func notice(_ kind: NoticeKind, _ text: String, _ duration: Double?) throws(RequestError) {
        let mode: HUDMode = kind == .success ? .success : kind == .error ? .error : .text
        do {
            try session.update(content: { c in
                c.mode = mode; c.label = text; c.details = ""; c.buttonTitle = ""; c.buttonHasAction = false; c.image = nil
            })
        } catch { throw RequestError("\(error)") }
        settings.content = session.configuration.content
        settings.image = nil
        cancelNotice()
        session.show(animated: true)
        let wait = duration ?? Daemon.displayDuration(for: text)
        noticeTimer = session.loop.schedule(after: wait) { [weak self] in
            self?.noticeTimer = nil
            self?.session.hide(animated: true)
        }
    }

    /// Seconds without a request that changes content or style before free heap pages are
    /// given back (`Heap.giveBackFreeMemory`): after a burst, not within it.
    public static let idleBeforeGivingBackMemory = 1.0

    /// The longest a busy daemon keeps freed heap pages: a client that never pauses (a progress
    /// line ten times a second for an hour) still has them given back this often. Measured
    /// (kiosk-hud-bench --daemon-soak, 800x480, ten mixed requests a second): without it the
    /// anonymous memory rose 10–12 MB over the start between idle times, freed glyphs and
    /// pictures the heap kept (docs/measurements.md, "The daemon over months").
    public static let longestWithoutGivingBackMemory = 5.0

    /// A request may have freed pictures, frames or glyphs: once the daemon has been idle for
    /// `idleBeforeGivingBackMemory`, the glyphs beyond the last frames' are let go
    /// (`FontLibrary.releaseGlyphs`) and the heap's free pages go back to the kernel; within a
    /// burst longer than `longestWithoutGivingBackMemory`, the heap's free pages only (the
    /// glyphs in use stay).
    private func giveBackMemoryWhenIdle() {
        // One timer for a burst: each request only moves the time it waits for, and the timer,
        // when it fires early, waits again for the rest (not a cancel and a new timer a request).
        lastChange = session.loop.now
        if trimTimer == nil {
            burstStart = lastChange
            armTrimTimer(at: lastChange + Daemon.idleBeforeGivingBackMemory)
        }
    }

    private func armTrimTimer(at time: Seconds) {
        trimTimer = session.loop.schedule(at: time) { [weak self] in
            guard let self else { return }
            self.trimTimer = nil
            let now = self.session.loop.now
            let idleAt = self.lastChange + Daemon.idleBeforeGivingBackMemory
            if now < idleAt {
                let longest = self.burstStart + Daemon.longestWithoutGivingBackMemory
                if now >= longest {
                    Heap.giveBackFreeMemory()
                    self.burstStart = now
                }
                self.armTrimTimer(at: min(idleAt, self.burstStart + Daemon.longestWithoutGivingBackMemory))
                return
            }
            self.session.fonts.releaseGlyphs()
            Heap.giveBackFreeMemory()
        }
    }

    private func cancelNotice() {
        if let t = noticeTimer { session.loop.cancel(t) }
        noticeTimer = nil
    }

    // MARK: Status

    /// Everything the HUD shows now (visible or not), its look, the displays and the devices.
    public func status() -> [(String, JSONValue)] {
        var content: [(String, JSONValue)] = []
        var look: [(String, JSONValue)] = []
        for s in HUDSettings.table.settings where s.live {
            guard let v = s.get(settings) else { continue }
            // A setting with an earlier (deprecated) name under that name too, for clients that read it so.
            let fields = [(s.key, v.json)] + (s.formerKey.map { [($0, v.json)] } ?? [])
            if DaemonRequest.contentKeys.contains(s.key) { content += fields } else { look += fields }
        }
        let displays: [JSONValue] = session.displays.map { (d, _) -> JSONValue in
            .object(JSONObject([("name", .string(d.name)), ("width", .number(Double(d.width))), ("height", .number(Double(d.height))),
                                ("rotation", .number(Double(d.transform.rotation.rawValue))), ("scale", .number(d.scale))]))
        }
        return [("visible", .bool(session.isVisible)), ("content", .object(JSONObject(content))), ("style", .object(JSONObject(look))),
                ("displays", .array(displays)), ("first_frame", .bool(session.firstFrameShown)), ("active", .bool(session.screen.isActive)),
                ("screen", .string(servingScreen))] + statusExtras()
    }
}

extension SettingValue {
    /// As a client reads it: numbers and booleans as such, lists as arrays, the rest as the text
    /// the option takes.
    public var json: JSONValue {
        switch self {
        case let .number(v): .number(v)
        case let .integer(i): .number(Double(i))
        case let .bool(b): .bool(b)
        case let .text(s): .string(s)
        case let .texts(t): .array(t.map { .string($0) })
        case let .integers(i): .array(i.map { .number(Double($0)) })
        default: .string(text)
        }
    }
}
