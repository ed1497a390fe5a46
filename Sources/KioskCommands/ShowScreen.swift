import KioskBoards
import KioskSeams
import KioskSession
import KioskDRM
import KioskOffscreen
import KioskRaster
import KioskSys
import KioskWayland

// `show`'s screen: offscreen (PNGs), an fbdev device, a named DRM card, or — the default — the
// display followed from the firmware's framebuffer to the board's driver (ShowSwitch.swift).
extension ShowCommand {
    /// Without --card the display is followed (`openSwitching`): the first usable one, the
    /// firmware's framebuffer included (the fbdev fallback), then the board's driver at the
    /// display switch.
    func openScreen(profile: BoardProfile, rotation: Rotation?, request: ModeRequest?, scale: Double?) throws -> Screen {
        if let dir = offscreen {
            let d = try OffscreenDisplay(width: profile.width, height: profile.height, format: profile.format,
                                         rotation: rotation ?? .none, scale: scale ?? 1, keepsPicture: dir != "-")
            d.timeSource = monotonicSeconds
            showLog("output offscreen \(profile.width)x\(profile.height) format=\(profile.format) dir=\(dir)")
            return OffscreenScreen(d)
        }
        if let path = arguments.string(.fbdev) { return try openFBDev(path, rotation: rotation, scale: scale) }
        if let socket = arguments.string(.wayland) { return try openWayland(socket, scale: scale) }
        guard let card = profile.display.card else {
            return try openSwitching(profile: profile, rotation: rotation, request: request, scale: scale)
        }
        return try openDRM(profile: profile, card: card, rotation: rotation, request: request, scale: scale)
    }

    /// The DRM screen on `card`.
    /// `firmware`: the firmware's framebuffer as a card (simpledrm), shown whole until the
    /// display switches to the board's own driver — the profile's connectors and mode are that driver's
    /// (a Pi's DSI-1 at 800x480), not the one connector simpledrm has.
    func openDRM(profile: BoardProfile, card: String, rotation: Rotation?, request: ModeRequest?, scale: Double?, firmware: Bool = false) throws -> Screen {
        var o = DRMOptions()
        o.card = card
        o.connectors = firmware ? [] : profile.display.connectors
        o.mode = firmware ? nil : request
        o.rotation = rotation
        o.format = profile.format
        o.scale = scale
        o.fractionalScale = arguments.flag(.fractionalScale)
        o.hotplug = !arguments.flag(.noHotplug)
        o.vt = !arguments.flag(.noVt)
        o.checkScanout = arguments.flag(.checkScanout)
        o.log = showLog
        o.earlyFrame = ShowCommand.takeEarlyFrame() ?? cachedFrame(on: card, firmware: firmware)
        let s = try DRMScreen(options: o)
        // With the card open (its connectors probed), a profile that waited for the display
        // may match now: then this card is opened again as that profile says, before anything
        // is drawn on it (ShowBoard.swift).
        if let again = board.detectAgain(after: card) {
            s.close(retain: false)
            let p = again.profile
            return try openDRM(profile: p, card: card, rotation: p.display.rotation, request: p.display.mode.flatMap(ModeRequest.init(parsing:)),
                               scale: p.scale, firmware: firmware)
        }
        for out in s.drmDisplays { showLog("output " + s.describe(out)) }
        if let use = s.earlyFrameUse { showLog("frame cache: the early frame was \(use)") }
        return s
    }

    /// The frame cache's picture put on `card` as it opens, when the constructor could not at
    /// exec (no card yet: the initramfs) and nothing is on screen: not on the firmware's
    /// framebuffer (the frame is for the board's driver), not after a first frame (it would go
    /// back to the start), not while the board profile may still change with this card (it would
    /// be let go at once), not in a daemon carried over (its picture is the boot's middle).
    func cachedFrame(on card: String, firmware: Bool) -> EarlyFrame? {
        guard !firmware, !firstFrame.shown, !board.awaitsDisplay, extras?.frameKeeping != .carriedOver else { return nil }
        return ShowCommand.showCachedFrame(card)
    }

    /// The overlay over a running compositor (KioskWayland): `socket` "auto" is $WAYLAND_DISPLAY.
    func openWayland(_ socket: String, scale: Double?) throws -> Screen {
        var o = WaylandOptions(socket: socket == "auto" ? nil : socket, scale: scale)
        o.log = { showLog($0) }
        let s = try WaylandScreen(options: o, timeSource: monotonicSeconds)
        showLog("output wayland socket=\(socket) outputs=\(s.waylandDisplays.map { "\($0.name):\($0.width)x\($0.height)" }.joined(separator: ","))")
        return s
    }

    /// `--until-window`: the run ends (exit 0) once the compositor has a window of `wanted`
    /// ("any": any window), one already there included.
    func endAtWindow(_ wanted: String, screen: Screen, session: HUDSession) throws {
        guard let windows = screen.windows else { throw ShowError("--until-window: this screen cannot tell other programs' windows") }
        try windows.watchWindows { appID in
            guard wanted == "any" || appID == wanted else { return }
            showLog("window \(appID.isEmpty ? "without an app id" : appID) is on screen: the HUD ends")
            session.end(.exit(0))
        }
    }

    func openFBDev(_ path: String, rotation: Rotation?, scale: Double?) throws -> Screen {
        var f = FBDevOptions()
        f.path = path
        f.rotation = rotation
        f.scale = scale
        f.fractionalScale = arguments.flag(.fractionalScale)
        f.vt = !arguments.flag(.noVt)
        f.log = showLog
        let s = try FBDevScreen(options: f)
        showLog("output fbdev=\(path) size=\(s.width)x\(s.height) rotation=\(s.transform.rotation.rawValue) format=\(s.preferredFormat) " +
            "scale=\(s.scale) double_buffered=\(s.doubleBuffered)")
        return s
    }
}
