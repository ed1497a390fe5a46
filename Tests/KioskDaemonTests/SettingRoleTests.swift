import KioskBoards
import KioskDaemon
import KioskSettings
import Testing

/// The content settings are declared as such in the table, and the daemon's lists follow.
@Suite struct SettingRoleTests {
    @Test func updateTakesTheContentAndStyleTheRestOfTheLiveSettings() {
        #expect(DaemonRequest.contentKeys == ["mode", "progress", "label", "details", "button", "image"])
        for s in HUDSettings.table.settings {
            #expect(s.live == (s.role != .fixed), "\(s.key)")
        }
        #expect(HUDSettings.table.settings.contains { $0.key == "underlay_image" && $0.role == .look },
                "underlay_image is declared beside the content but is a style field")
    }
}
