// docs/protocol.md's table of fields is the settings table's: generated, and checked here.
import Foundation
import KioskDaemon
import Testing

@Suite struct ProtocolDocTests {
    @Test func theFieldTableIsGeneratedFromTheSettings() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/protocol.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        guard let start = text.range(of: "KIOSK_RECORD_DOCS=1 swift test rewrites it -->\n"), let end = text.range(of: "<!-- end fields -->") else {
            Issue.record("docs/protocol.md has no generated field table"); return
        }
        let table = DaemonRequest.fieldTable()
        if ProcessInfo.processInfo.environment["KIOSK_RECORD_DOCS"] == "1" {
            try (String(text[..<start.upperBound]) + table + String(text[end.lowerBound...])).write(to: url, atomically: true, encoding: .utf8)
            Issue.record("re-recorded docs/protocol.md (KIOSK_RECORD_DOCS=1)")
            return
        }
        #expect(String(text[start.upperBound..<end.lowerBound]) == table, "KIOSK_RECORD_DOCS=1 swift test rewrites docs/protocol.md's table")
    }
}
