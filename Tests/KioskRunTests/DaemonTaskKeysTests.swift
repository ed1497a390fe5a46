// What `run` sends a daemon is the protocol's content, as the settings table declares it: a key
// renamed or moved to the look in the table cannot leave `run` sending a key the daemon refuses.
import KioskDaemon
import KioskProtocol
@testable import KioskRun
import Testing

@Suite struct DaemonTaskKeysTests {
    @Test func everyFieldRunSendsIsAContentSetting() throws {
        let full = DaemonLinkMachine.Update(mode: "bar", progress: 0.5, label: "Copying", details: "file 3 of 9",
                                            button: "Cancel", animated: true)
        let line = DaemonTaskHUD.line(.update(full))
        guard case let .object(fields) = try JSON.parse(Array(line.dropLast())) else {
            Issue.record("not a JSON object: \(String(decoding: line, as: UTF8.self))")
            return
        }
        let sent = Set(fields.keys).subtracting(["v", "op", "animated"])
        #expect(sent.count == 5, "\(sent)")
        #expect(sent.subtracting(DaemonRequest.contentKeys).isEmpty, "not content settings: \(sent.subtracting(DaemonRequest.contentKeys))")
        // And the daemon takes the line as an update.
        _ = try DaemonRequest(fields)
    }
}
