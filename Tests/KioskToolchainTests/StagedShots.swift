import KioskPNG
import KioskTestSupport

/// The screenshots a compositor's test in the Debian 13 root left in its stage (`rt/NAME-N.png`,
/// grim's), against what they should show: `kiosk-hud render --overlay` blended over the screen
/// before the HUD (`rt/before.png`), as the compositor blends it. LabwcOverlayTests' and
/// CageOverlayTests' one reference.
struct StagedShots {
    let stage: String
    /// The screen before the HUD.
    let before: PNGImage
    /// `render --overlay` of the HUD's options over `before`.
    let expected: PNGImage

    struct Failure: Error, CustomStringConvertible { var description: String }

    init(stage: String, hud args: [String]) throws {
        self.stage = stage
        before = try PNG.read(path: stage + "/rt/before.png")
        let path = stage + "/overlay.png"
        let r = Proc.run([Proc.kioskHUD, "render", "--size", "\(before.width)x\(before.height)", "--overlay", "-o", path] + args)
        guard r.status == 0 else { throw Failure(description: "kiosk-hud render --overlay: \(r.err)") }
        var e = before
        e.rgba = OverlayBlend.blend(try PNG.read(path: path).rgba, over: before.rgba)
        expected = e
    }

    /// The fewest pixels by which one of the shots `name`-1…5 differs from `picture` (Int.max
    /// when none could be read).
    func fewestDiffering(_ name: String, from picture: PNGImage) -> Int {
        (1...5).map { n in (try? PNG.read(path: stage + "/rt/\(name)-\(n).png")).map { OverlayBlend.differing($0.rgba, picture.rgba) } ?? Int.max }.min() ?? Int.max
    }
}
