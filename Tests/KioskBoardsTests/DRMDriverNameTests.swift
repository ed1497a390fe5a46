// `[match] drm_driver` takes either name of a card's driver: the one its device is bound to in
// sysfs (`vc4-drm`, read from /sys/class/drm/cardN/device/driver) or the DRM driver's own
// (`vc4`, DRM_IOCTL_VERSION, the name `[display] switch` and the log use).
import KioskBoards
import KioskSys
import KioskTestSupport
import Testing

@Suite struct DRMDriverNameTests {
    /// Counts the cards asked for their DRM name.
    final class Asked { var paths: [String] = [] }

    /// A Pi 4 on HDMI: card0 is v3d (no display), card1 vc4 (sysfs: vc4-drm).
    static func machine() -> FakeBoardRoot {
        FakeBoardRoot().deviceTree(model: "Raspberry Pi 4 Model B Rev 1.4", compatible: ["raspberrypi,4-model-b", "brcm,bcm2711"])
            .card(0, driver: "v3d")
            .card(1, driver: "vc4-drm", [("HDMI-A-1", "connected", ["1920x1080"])])
    }

    /// The machine's cards answering DRM_IOCTL_VERSION as the kernel's would.
    static func facts(_ m: FakeBoardRoot, _ asked: Asked) -> BoardFacts {
        BoardFacts(root: m.root, drmDriverName: { path in
            asked.paths.append(path)
            switch path {
            case m.root + "/dev/dri/card0": return "v3d"
            case m.root + "/dev/dri/card1": return "vc4"
            default: return nil
            }
        })
    }

    static func profile(_ drivers: String) -> String {
        "name = \"my-kiosk\"\n[match]\ndrm_driver = [\(drivers)]\nconnector = [\"HDMI-A-1\"]\n"
    }

    @Test(arguments: ["vc4-drm", "vc4"])
    func eitherNameMatches(_ name: String) throws {
        let m = Self.machine()
        m.userProfile("my-kiosk", Self.profile("\"\(name)\""))
        let asked = Asked()
        let s = try BoardSelection.select(.init("auto"), catalog: m.catalog, facts: Self.facts(m, asked))
        #expect(s.name == "my-kiosk", "\(s.line)")
        #expect(s.line.contains("DRM driver \(name), connector HDMI-A-1 (connected)"), "\(s.line)")
        // The sysfs name is read from a link: no card is opened for it.
        if name == "vc4-drm" { #expect(asked.paths.isEmpty) }
    }

    /// Neither name: the profile does not match, and `boards detect`'s reason shows both names of
    /// each card; each card is asked once however many profiles look.
    @Test func neitherNameSaysBoth() throws {
        let m = Self.machine()
        m.userProfile("my-kiosk", Self.profile("\"vc4-kms\", \"vc4-fkms\""))
        m.userProfile("other-kiosk", Self.profile("\"simpledrm\"").replacingName("other-kiosk"))
        let asked = Asked()
        let facts = Self.facts(m, asked)
        let d = BoardDetection.detect(m.catalog, facts: facts, explain: true)
        #expect(d.chosen?.name == nil, "no profile matches")
        let mine = d.results.first { $0.entry.name == "my-kiosk" }
        #expect(mine?.why == "drm_driver: none of vc4-kms, vc4-fkms (DRM drivers: v3d, vc4-drm/vc4)", "\(mine?.why ?? "")")
        #expect(asked.paths.sorted() == [m.root + "/dev/dri/card0", m.root + "/dev/dri/card1"])
        #expect(facts.driverNames(of: facts.cards[1]) == "vc4-drm/vc4")
    }

    /// A card that cannot be asked (no device node, as on a machine laid out under a directory)
    /// leaves the sysfs name alone.
    @Test func unaskableCardsKeepTheSysfsName() throws {
        let m = Self.machine()
        m.userProfile("my-kiosk", Self.profile("\"vc4\""))
        #expect(try m.select().name == "generic")
        m.userProfile("my-kiosk", Self.profile("\"vc4-drm\""))
        #expect(try m.select().name == "my-kiosk")
        #expect(drmDriverName(ofCard: m.root + "/dev/dri/card1") == nil)
        #expect(drmDriverName(ofCard: "/dev/null") == nil)
    }
}

extension String {
    /// A profile's text with another name.
    func replacingName(_ name: String) -> String {
        "name = \"\(name)\"" + String(drop { $0 != "\n" })
    }
}
