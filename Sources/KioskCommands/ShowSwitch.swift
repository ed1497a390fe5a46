import KioskBoards
import KioskSeams
import KioskDRM
import KioskSys

// `show` and `daemon` without --card/--fbdev/--offscreen: the display followed from the
// firmware's framebuffer to the board's own driver (KioskDRM's SwitchingScreen, #19), by the
// rule of `--display-switch` (the board profile's [display] switch; the Pi's profiles name vc4).
// Each device is opened as `--card`/`--fbdev` would open it, with the same log lines.
extension ShowCommand {
    func openSwitching(profile: BoardProfile, rotation: Rotation?, request: ModeRequest?, scale: Double?) throws -> Screen {
        var o = DisplaySwitchOptions()
        // The table's rule has checked the text already.
        o.rule = DisplaySwitchRule(profile.display.switchRule) ?? .first
        o.realTimeout = profile.display.realTimeout
        o.log = showLog
        let startProfile = profile
        return try SwitchingScreen(options: o, requireDisplay: true) { d in
            // The profile detected again since the start (ShowBoard.swift), else the one given.
            let now = self.board.settings?.profile
            let profile = now ?? startProfile
            let (rotation, request, scale) = now.map { p in (p.display.rotation, p.display.mode.flatMap(ModeRequest.init(parsing:)), p.scale) } ?? (rotation, request, scale)
            switch d.kind {
            case .drm:
                return try self.openDRM(profile: profile, card: d.path, rotation: rotation, request: request, scale: scale, firmware: !d.isReal)
            case .fbdev:
                return try self.openFBDev(d.path, rotation: rotation, scale: scale)
            }
        }
    }
}
