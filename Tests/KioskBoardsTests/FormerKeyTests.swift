// A board file key renamed keeps its earlier name working, deprecated: [display] underlay (the
// colour, now underlay_color beside the picture's underlay_image and --underlay) still sets the
// colour with a one-line note, which the chosen profile's notes carry to the log; both names at
// once are an error.
import KioskBoards
import KioskRaster
import KioskSettings
import KioskTestSupport
import Testing

@Suite struct FormerKeyTests {
    static let old = "name = \"old\"\n[display]\nunderlay = \"#102030\"\n"

    @Test func theEarlierKeyStillSetsTheColourWithANote() throws {
        var notes: [String] = []
        let old = try BoardProfile.parse(Array(Self.old.utf8), source: "b.toml", notes: &notes)
        #expect(old.underlayColor == Color(rgb: 0x102030))
        #expect(notes == ["b.toml:3:1: [display] underlay is deprecated; use [display] underlay_color"])
        var none: [String] = []
        let new = try BoardProfile.parse(Array("name = \"old\"\n[display]\nunderlay_color = \"#102030\"\n".utf8), source: "b.toml", notes: &none)
        #expect(new == old)
        #expect(none.isEmpty)
    }

    @Test func bothNamesAtOnceAreAnError() {
        let error = caught(SettingsError.self) {
            _ = try BoardProfile.parse("[display]\nunderlay_color = \"#102030\"\nunderlay = \"#000000\"\n", source: "b.toml")
        }
        #expect(error?.description == "b.toml:3:1: [display] underlay: also given as [display] underlay_color; keep one")
    }

    @Test func anErrorInTheEarlierKeyNamesItAsWritten() {
        let error = caught(SettingsError.self) { _ = try BoardProfile.parse("[display]\nunderlay = \"red\"\n", source: "b.toml") }
        #expect(error?.description.hasPrefix("b.toml:2:12: [display] underlay = \"red\": expected") == true, "\(String(describing: error))")
    }

    @Test func theChosenProfilesNotesSayItWhicheverWayItIsChosen() throws {
        let m = FakeBoardRoot().userProfile("old", Self.old)
        let note = m.root + "/etc/kiosk-hud/boards/old.toml:3:1: [display] underlay is deprecated; use [display] underlay_color"
        let byName = try m.select("old"), byFile = try m.select(m.root + "/etc/kiosk-hud/boards/old.toml")
        #expect(byName.notes == [note])
        #expect(byFile.notes == [note])
        #expect(byName.profile.underlayColor == Color(rgb: 0x102030) && byFile.profile == byName.profile)
        // A shipped profile says nothing.
        let generic = try m.select("generic")
        #expect(generic.notes.isEmpty)
    }
}
