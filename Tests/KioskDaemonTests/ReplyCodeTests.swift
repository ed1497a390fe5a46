import KioskDaemon
import KioskSys
import KioskTestSupport
import Testing

/// Error replies say what kind of error they are (`code`), so a client need not read the message.
@Suite struct ReplyCodeTests {
    static let cases: [(String, String)] = [
        ("nonsense\n", "bad_request"),
        ("[1,2]\n", "bad_request"),
        (request("fly"), "bad_request"),
        (request("update", "\"colour\":\"red\""), "bad_request"),
        (request("update", "\"progress\":2"), "bad_request"),
        ("{\"v\":2,\"op\":\"ping\"}\n", "unsupported_version"),
        (request("press"), "cannot"),
        (request("update", "\"mode\":\"custom\",\"image\":\"/nonexistent/picture.png\""), "cannot"),
    ]

    @Test(arguments: cases)
    func eachErrorReplyHasItsCode(_ line: String, _ code: String) throws {
        let rig = try DaemonRig()
        let c = try RawClient(rig.path)
        c.send(line)
        let replies = try c.lines(rig, count: 1)
        #expect(replies.first?["ok"]?.bool == false)
        #expect(replies.first?["code"]?.string == code, "\(replies.first.map { "\($0)" } ?? "no reply")")
    }

    /// Every code is in docs/protocol.md's table, and the table has no other.
    @Test func theCodesAreDocumented() throws {
        let doc = Proc.readFile(Proc.root + "/docs/protocol.md") ?? ""
        let rows = doc.split(separator: "\n").filter { $0.hasPrefix("| `") && $0.contains("|") }
        for code in ReplyCode.allCases {
            #expect(rows.contains { $0.hasPrefix("| `\(code.rawValue)` |") }, "\(code.rawValue) is not in docs/protocol.md")
        }
    }
}
