// `kiosk-hud theme --preview FILE.png`: the boot's splash with the new theme, drawn offscreen
// as `kiosk-hud render` draws — the profile's canvas, its look, underlay and logo, and what the
// boot shows (KIOSK_HUD_ARGS's content, else Plymouth's boot-up look: "Starting…" on a bar).
import KioskBoards
import KioskCLI
import KioskHUD
import KioskText

enum ThemePreview {
    /// Draws `s` into the PNG at `path`.
    static func render(_ s: HUDSettings, to path: String) throws {
        try checkOutputPath(path, what: "--preview")
        var settings = s
        if settings.content.label.isEmpty, settings.content.mode == .indeterminate {
            let look = settings.profile.plymouth.look(.bootUp)
            settings.content.mode = look.mode
            settings.content.label = look.label
            settings.content.progress = 0.4
        }
        let (content, underlay) = try loadPictures(settings)
        let p = settings.profile
        let fonts: FontLibrary
        do { fonts = try FontLibrary() } catch { throw UsageError("\(error)") }
        let r: HUDRenderer
        do {
            r = try HUDRenderer(width: p.width, height: p.height, format: p.format, fonts: fonts, style: p.style, content: content, keepsBackdrop: false)
        } catch { throw UsageError("\(error)") }
        r.setUnderlay(color: p.underlayColor, image: underlay, fit: p.underlayFit)
        r.setLogo(try loadLogo(settings))
        r.render(HUDFrameState(progress: content.progress, spinnerPhase: 0, motionX: 0, motionY: 0, buttonPressed: false))
        try writePNG(r.shadow, to: path, what: "--preview")
    }
}
