// An overlay follows the daemon's HUD (RequestMirror.swift): `overlay`'s reply is the state,
// each change comes after it as the request that made it, and a second daemon that carries out
// what an overlay hears ends in the daemon's state. Pictures a client named with its own rights
// never reach an overlay (it runs as another user); `status` says the overlay's screen while the
// daemon's own is another program's.
import Glibc
import KioskBoards
import KioskDaemon
import KioskHUD
import KioskProtocol
import KioskRaster
import KioskSettings
import KioskSys
import Testing

@Suite struct OverlayMirrorTests {
    /// What an overlay hears: its reply (the state), then the `changed` events' requests.
    func follow(_ rig: DaemonRig, while act: (RawClient) throws -> Void, changes: Int) throws -> (state: JSONObject, changes: [JSONObject], other: [JSONObject]) {
        let overlay = try RawClient(rig.path)
        overlay.send(request("overlay", "\"screen\":\"wayland\""))
        let state = try #require(try overlay.lines(rig, count: 1).first)
        // A subscriber of the button alone hears none of it.
        let other = try RawClient(rig.path)
        other.send(request("subscribe", "\"events\":[\"button\"]"))
        _ = try other.lines(rig, count: 1)
        let c = try RawClient(rig.path)
        try act(c)
        let heard = try overlay.lines(rig, count: changes)
        return (state, heard.compactMap { $0["event"]?.string == "changed" ? $0["request"]?.object : nil }, try other.lines(rig, count: 1, seconds: 0.2))
    }

    @Test func theOverlayHearsTheStateThenEveryChangeAsItsRequest() throws {
        let rig = try DaemonRig()
        let asked = [request("update", "\"progress\":0.5,\"label\":\"Step 2\",\"animated\":true"), request("style", "\"theme\":\"dark\",\"margin\":12"),
                     request("ping"), request("status"), request("hide", "\"animated\":false,\"delay\":0.5"), request("show"), request("push"),
                     request("pop"), request("info", "\"text\":\"Hello\",\"duration\":3")]
        let (state, changes, other) = try follow(rig, while: { c in for r in asked { c.send(r) } }, changes: 7)
        #expect(state["ok"]?.bool == true && state["content"]?["label"]?.string == "Booting" && state["visible"]?.bool == true, "\(JSON.encode(.object(state)))")
        #expect(state["displays"] == nil, "the state is the HUD's, not the daemon's devices")
        #expect(changes.map { $0["op"]?.string ?? "?" } == ["update", "style", "hide", "show", "push", "pop", "info"], "\(changes.map { JSON.encode(.object($0)) })")
        #expect(changes[0]["progress"]?.double == 0.5 && changes[0]["animated"]?.bool == true && changes[0]["label"]?.string == "Step 2")
        #expect(changes[2]["delay"]?.double == 0.5 && changes[6]["duration"]?.double == 3)
        // Each is a request as a client writes it.
        for c in changes { #expect(throws: Never.self) { _ = try DaemonRequest(c) } }
        #expect(other.isEmpty, "a subscriber of the button heard the changes: \(other.map { JSON.encode(.object($0)) })")
        #expect(rig.log.contains { $0.contains("draws the HUD on wayland (an overlay)") }, "\(rig.log)")
    }

    @Test func aDaemonCarryingOutWhatItHearsEndsInTheSameState() throws {
        let rig = try DaemonRig()
        let asked = [request("style", "\"theme\":\"dark\",\"corner_radius\":9,\"offset\":\"3,-4\",\"min_size\":\"100x50\""),
                     request("update", "\"mode\":\"bar\",\"progress\":0.25,\"details\":\"a\\nb\",\"button\":\"Stop\""),
                     request("update", "\"progress\":0.75,\"animated\":true"), request("success", "\"text\":\"Done\"")]
        let (state, changes, _) = try follow(rig, while: { c in for r in asked { c.send(r) } }, changes: 4)
        let mirror = try DaemonRig()
        for r in DaemonRequest.restoring(state) + (try changes.map { try DaemonRequest($0) }) { _ = try mirror.daemon.handle(r) }
        let a = rig.daemon.status(), b = mirror.daemon.status()
        func field(_ s: [(String, JSONValue)], _ k: String) -> JSONValue? { s.first { $0.0 == k }?.1 }
        #expect(field(a, "content") == field(b, "content"), "\(JSON.encode(field(b, "content")!))")
        #expect(field(a, "style") == field(b, "style"))
        #expect(field(a, "visible") == field(b, "visible"))
    }

    @Test func aPictureAClientNamedIsNotSentToTheOverlay() throws {
        let rig = try DaemonRig()
        let dot = try Bitmap(width: 2, height: 2)
        rig.daemon.loadPicture = { _ in dot }
        rig.daemon.loadClientPicture = { _, _ in dot }
        var heard: [DaemonRequest] = []
        rig.daemon.onChange = { heard.append($0) }
        // The daemon's own (root's, its board file's) are sent: the overlay reads them with its user's rights.
        _ = try rig.daemon.handle(DaemonRequest(object(["op": "style", "logo": "/usr/share/kiosk/logo.png"])))
        #expect(heard.first?.mirrored?["logo"]?.string == "/usr/share/kiosk/logo.png")
        #expect(JSONObject(rig.daemon.mirroredState())["style"]?["logo"]?.string == "/usr/share/kiosk/logo.png")
        heard = []
        let stranger = Requester.client(PeerCredentials(pid: 1, uid: 4242, gid: 4242))
        _ = try rig.daemon.handle(DaemonRequest(object(["op": "update", "mode": "custom", "image": "/srv/a.png", "label": "Mine"])), from: stranger)
        _ = try rig.daemon.handle(DaemonRequest(object(["op": "style", "logo": "/srv/logo.png", "theme": "dark"])), from: stranger)
        #expect(heard.map { $0.mirrored.map { JSON.encode(.object($0)) } ?? "" } == [
            #"{"v":1,"op":"update","label":"Mine","animated":false}"#, #"{"v":1,"op":"style","theme":"dark"}"#,
        ])
        let state = JSONObject(rig.daemon.mirroredState())
        #expect(state["content"]?["image"] == nil && state["style"]?["logo"] == nil, "\(JSON.encode(.object(state)))")
    }

    @Test func whileAnotherProgramHasTheScreenStatusSaysTheOverlaysAndItsPressCounts() throws {
        let rig = try DaemonRig(content: HUDContent(mode: .indeterminate, label: "Updating", buttonTitle: "Cancel", buttonHasAction: true))
        // As the daemon command wires it (DaemonParts): the HUD's button to the subscribers.
        rig.session.addObserver { [unowned server = rig.server] e in if case .hud(.buttonPressed, _) = e { server.publish(.button) } }
        var overlay: RawClient? = try RawClient(rig.path)
        overlay?.send(request("overlay", "\"screen\":\"wayland\""))
        _ = try overlay?.lines(rig, count: 1)
        let watcher = try RawClient(rig.path)
        watcher.send(request("subscribe", "\"events\":[\"button\"]"))
        _ = try watcher.lines(rig, count: 1)
        watcher.send(request("status"))
        #expect(try watcher.lines(rig, count: 1).first?["screen"]?.string == "offscreen", "the daemon's own screen draws")
        // The compositor takes the display: the overlay serves.
        rig.session.screen.suspend()
        try rig.run(0.1)
        watcher.send(request("status"))
        let status = try #require(try watcher.lines(rig, count: 1).first)
        #expect(status["screen"]?.string == "wayland" && status["active"]?.bool == false, "\(JSON.encode(.object(status)))")
        // A tap on the overlay's Cancel is the daemon's button.
        overlay?.send(request("press"))
        let pressed = try overlay?.lines(rig, count: 1).first
        #expect(pressed?["ok"]?.bool == true, "\(pressed.map { JSON.encode(.object($0)) } ?? "no reply")")
        #expect(try watcher.lines(rig, count: 1).first?["event"]?.string == "button")
        // The overlay gone: the daemon's own screen, inactive, is what status names.
        let watcher2 = try RawClient(rig.path)
        overlay = nil
        try rig.run(0.1)
        watcher2.send(request("status"))
        #expect(try watcher2.lines(rig, count: 1).first?["screen"]?.string == "offscreen")
        #expect(rig.log.contains { $0.contains("the overlay on wayland") && $0.contains("is gone") }, "\(rig.log)")
    }

    @Test func overlayNamesAScreenItKnows() throws {
        #expect(throws: RequestError.self) { _ = try DaemonRequest(object(["op": "overlay"])) }
        #expect(throws: RequestError.self) { _ = try DaemonRequest(object(["op": "overlay", "screen": "x11"])) }
        #expect(throws: RequestError.self) { _ = try DaemonRequest(object(["op": "overlay", "screen": "wayland", "also": 1])) }
        #expect(DaemonOp.overlay.authority == .client)
    }

    @Test func everyChangeAClientCanAskForIsMirroredAndReadBackTheSame() throws {
        let objects: [[String: JSONValue]] = [
            ["op": "show", "animated": .bool(false)], ["op": "hide", "animated": .bool(true), "delay": .number(2)],
            ["op": "update", "mode": "annular", "progress": .number(0.3), "label": "L", "details": "D", "button": "B", "animated": .bool(true)],
            ["op": "style", "theme": "dark", "offset": "1,2", "bezel_color": "#11223344", "square": .bool(true)],
            ["op": "error", "text": "Failed"], ["op": "success", "text": "OK", "duration": .number(1)], ["op": "push"], ["op": "pop"],
        ]
        for o in objects {
            let r = try DaemonRequest(object(o))
            let again = try DaemonRequest(try #require(r.mirrored))
            #expect(again.mirrored == r.mirrored, "\(JSON.encode(.object(r.mirrored!)))")
        }
        for o: [String: JSONValue] in [["op": "ping"], ["op": "status"], ["op": "press"], ["op": "quit"], ["op": "subscribe"]] {
            #expect(try DaemonRequest(object(o)).mirrored == nil)
        }
    }

    func object(_ fields: [String: JSONValue]) -> JSONObject {
        JSONObject([("v", .number(1))] + fields.sorted { $0.key == "op" ? true : $1.key == "op" ? false : $0.key < $1.key }.map { ($0.key, $0.value) })
    }
}
