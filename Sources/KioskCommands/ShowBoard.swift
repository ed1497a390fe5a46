import KioskBoards
import KioskCLI
import KioskDRM
import KioskHUD
import KioskRaster
import KioskSession
import KioskSys

// `--board auto` at boot. Detection runs before the display is opened (it chooses which display
// to open, and how), but at boot the board's display driver often loads seconds after the
// splash has started: on a Raspberry Pi, vc4 and its DSI panel come after simpledrm, and a
// profile that matches on connector DSI-1 and mode 800x480 cannot match before them. So when
// a more specific profile failed on its display rules alone (BoardDetection.awaitingDisplay),
// each DRM card the run opens — at start, when a waited-for display appears, at each display
// switch — is followed by detection again, now that the card has probed its connectors. When
// the answer changes, the card just opened is closed before anything is drawn on it (the old
// device still shows the HUD, so nothing goes dark) and opened again with the new profile's
// [display]; the session takes the new look, timing, underlay, logo, scale and keys, keeping
// what it shows; input starts again with the new [touch]. One log line says which profile and
// why, as at start. Cost: one more detection per card opened (≈0.2 ms, BoardDetection's header)
// and only while a profile waits for the display.

/// The board profile a display run follows (see the file's header): one per run, shared by
/// the closures that open devices.
final class BoardFollow {
    /// The settings in effect (the profile chosen, the options over it).
    private(set) var settings: HUDSettings?
    /// When the profile in effect was chosen: "at start", "when card1 (vc4) opened".
    private(set) var decided = "at start"
    /// The session (once it exists) and the input restart, told of a new profile.
    var changed: ((_ old: HUDSettings, _ new: HUDSettings) -> Void)?
    private var arguments: ParsedArguments?

    init() {}

    func start(_ s: HUDSettings, arguments a: ParsedArguments) { settings = s; arguments = a }

    /// Whether the profile may still change when a display appears.
    var awaitsDisplay: Bool {
        guard let a = arguments, a.string(.board) ?? "auto" == "auto", !a.given(.offscreen) else { return false }
        return SettingOptions.chosen?.selection.detection?.mayChangeWithDisplay == true
    }

    /// Detects again now that `device` has opened; the new settings when the profile changed
    /// (the change is made: `settings`, the frame cache's board files, the log), else nil.
    func detectAgain(after device: String) -> HUDSettings? {
        guard awaitsDisplay, let a = arguments, let old = settings else { return nil }
        let before = SettingOptions.chosen?.selection.name
        let selection: BoardSelection
        do { selection = try SettingOptions.selectBoard(.auto, again: true) } catch {
            showLog("board: cannot detect again after \(device) opened: \(error); keeping \(before ?? "the profile")")
            return nil
        }
        guard selection.name != before else {
            if !selection.detection!.mayChangeWithDisplay { showLog("board: \(selection.name) stands now that \(device) is open") }
            return nil
        }
        var s: HUDSettings
        do { s = try HUDSettings.resolved(profile: selection.profile, arguments: a) } catch {
            showLog("board: \(selection.name) detected after \(device) opened, but the options do not apply over it (\(error)); keeping \(before ?? "the profile")")
            return nil
        }
        s.words = s.profile.localize(system: systemLanguage())
        for note in selection.notes { showLog(note) }
        showLog(selection.line + " (detected again when \(device) opened)")
        decided = "when \(device) opened"
        SettingOptions.decided = decided
        settings = s
        changed?(old, s)
        return s
    }
}

extension SettingOptions {
    /// When the board in effect was chosen ("at start", "when /dev/dri/card1 opened"): the
    /// daemon's `status` says it beside the name.
    nonisolated(unsafe) static var decided = "at start"

    /// `selectBoard`, detecting anew (`again`: the display has changed since the last time).
    static func selectBoard(_ request: BoardSelection.Request, again: Bool) throws -> BoardSelection {
        if again { chosen = nil }
        return try selectBoard(request)
    }
}

extension HUDSession {
    /// Takes the look of a new board profile: style, timing, scale, keys, and the underlay
    /// colour and logo where the new profile's differ from the old one's (a client's own stay);
    /// what the HUDs show stays. What cannot be laid out is logged and left as it was.
    func takeBoard(from old: BoardProfile, to p: BoardProfile, logo: Bitmap?, underlay: Bitmap?) {
        do { try setScale(p.scale) } catch { showLog("board: the new profile's scale does not fit (\(error)); keeping the old one") }
        do { try update(style: { $0 = p.style }) } catch { showLog("board: the new profile's style does not fit (\(error)); keeping the old one") }
        update(timing: p.timing)
        if p.underlayColor != old.underlayColor || p.underlayFit != old.underlayFit || p.underlayImage != old.underlayImage {
            setUnderlay(color: p.underlayColor, image: p.underlayImage != old.underlayImage ? underlay : configuration.underlay, fit: p.underlayFit)
        }
        if p.logo != old.logo { setLogo(logo) }
        setButtonKeys(p.touch.keys, tapOutside: p.touch.tapOutside)
    }
}
