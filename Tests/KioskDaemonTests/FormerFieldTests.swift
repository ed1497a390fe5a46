// A field renamed keeps its earlier name working, deprecated: `style`'s "underlay" (the colour,
// now "underlay_color" beside the picture's "underlay_image") sets the colour, the log says so
// once, `status` reports both names, and both names in one request are refused.
import KioskDaemon
import KioskProtocol
import KioskTestSupport
import Testing

@Suite struct FormerFieldTests {
    static let note = "field \"underlay\" is deprecated; use \"underlay_color\""

    @Test func theEarlierNameSetsTheColourAndIsLoggedOnce() throws {
        let rig = try DaemonRig()
        let c = try RawClient(rig.path)
        c.send(request("style", "\"underlay\":\"#102030\""))
        c.send(request("style", "\"underlay\":\"#203040\""))
        c.send(request("status"))
        let replies = try c.lines(rig, count: 3)
        #expect(replies.count == 3)
        #expect(replies.prefix(2).allSatisfy { $0["ok"]?.bool == true })
        let style = replies.last?["style"]
        #expect(style?["underlay_color"]?.string == "#203040")
        #expect(style?["underlay"]?.string == "#203040")
        #expect(rig.log.filter { $0.hasSuffix(Self.note) }.count == 1, "\(rig.log)")
    }

    @Test func theNewNameLogsNothing() throws {
        let rig = try DaemonRig()
        let c = try RawClient(rig.path)
        c.send(request("style", "\"underlay_color\":\"#102030\""))
        c.send(request("status"))
        let replies = try c.lines(rig, count: 2)
        #expect(replies.first?["ok"]?.bool == true)
        #expect(replies.last?["style"]?["underlay_color"]?.string == "#102030")
        #expect(!rig.log.contains { $0.contains("deprecated") }, "\(rig.log)")
    }

    @Test func bothNamesInOneRequestAreRefused() throws {
        let rig = try DaemonRig()
        let c = try RawClient(rig.path)
        c.send(request("style", "\"underlay_color\":\"#102030\",\"underlay\":\"#000000\""))
        let replies = try c.lines(rig, count: 1)
        #expect(replies.first?["ok"]?.bool == false)
        #expect(replies.first?["error"]?.string == "underlay: also given as underlay_color; keep one")
        #expect(replies.first?["code"]?.string == "bad_request")
    }

    @Test func deprecationsNamesOnlyEarlierNames() {
        #expect(DaemonRequest.deprecations(in: JSONObject([("underlay", .string("#000000")), ("underlay_image", .string("/a.png"))])) == [Self.note])
        #expect(DaemonRequest.deprecations(in: JSONObject([("underlay_color", .string("#000000")), ("theme", .string("dark"))])).isEmpty)
    }
}
