// A daemon's `style` sets the logo (read once, through the daemon's picture loader), places and
// sizes it, clears it with an empty path, and changes the underlay picture's fit.
import KioskBoards
import KioskDaemon
import KioskHUD
import KioskProtocol
import KioskRaster
import KioskSession
import KioskSys
import KioskTestDoubles
import KioskTestSupport
import KioskText
import Testing

@Suite struct ThemeStyleTests {
    /// A session on an offscreen display and its daemon; `loads` counts the pictures read.
    final class Rig {
        let session: HUDSession
        let daemon: Daemon
        var loads: [String] = []

        init() throws {
            let clock = SystemClock()
            let loop = PollEventLoop(kernel: LinuxKernel(), clock: clock)
            let display = try OffscreenDisplay(width: 320, height: 240)
            let content = HUDContent(mode: .bar, progress: 0.4, label: "Booting")
            session = HUDSession(loop: loop, screen: OffscreenScreen(display), fonts: try FontLibrary(), clock: clock,
                                 configuration: SessionConfiguration(content: content))
            var settings = HUDSettings.defaults
            settings.content = content
            daemon = Daemon(session: session, settings: settings) { _ in throw RequestError("not yet") }
            try session.start()
            daemon.loadPicture = { [unowned self] path in
                self.loads.append(path)
                guard path.hasSuffix(".png") else { throw RequestError("\(path): not a PNG") }
                return try Bitmap(width: 40, height: 20, format: .argb8888)
            }
        }

        var renderer: HUDRenderer? { session.primaryHUD?.renderer }

        func style(_ fields: [(String, JSONValue)]) throws(RequestError) {
            _ = try daemon.handle(try DaemonRequest(JSONObject([("v", .number(1)), ("op", .string("style"))] + fields)))
        }

        func styleField(_ key: String) -> JSONValue? {
            guard case let .object(style)? = daemon.status().first(where: { $0.0 == "style" })?.1 else { return nil }
            return style[key]
        }
    }

    @Test func styleSetsAndClearsTheLogo() throws {
        let rig = try Rig()
        #expect(rig.renderer?.logo == nil)
        try rig.style([("logo", .string("/themes/logo.png")), ("logo_placement", .string("alone")), ("logo_size", .number(16))])
        #expect(rig.loads == ["/themes/logo.png"])
        #expect(rig.renderer?.logo?.height == 16 && rig.renderer?.logo?.width == 32)
        #expect(rig.renderer?.style.logoPlacement == .alone)
        #expect(rig.styleField("logo")?.string == "/themes/logo.png")
        #expect(rig.styleField("logo_placement")?.string == "alone")

        // Another field leaves the logo as read: no second read.
        try rig.style([("logo_size", .number(10))])
        #expect(rig.loads.count == 1)
        #expect(rig.renderer?.logo?.height == 10)

        // An empty path clears it.
        try rig.style([("logo", .string(""))])
        #expect(rig.renderer?.logo == nil)
        #expect(rig.styleField("logo") == nil)
        #expect(rig.loads.count == 1)
    }

    @Test func aLogoThatCannotBeReadChangesNothing() throws {
        let rig = try Rig()
        try rig.style([("logo", .string("/themes/logo.png"))])
        let error = caught(RequestError.self) { try rig.style([("logo", .string("/themes/logo.txt")), ("logo_size", .number(8))]) }
        #expect(error?.description.hasPrefix("logo ") == true)
        #expect(rig.styleField("logo")?.string == "/themes/logo.png")
        #expect(rig.renderer?.logo?.height == 40)
        #expect(rig.renderer?.style.logoSize == 64)
    }

    @Test func styleChangesTheUnderlayFit() throws {
        let rig = try Rig()
        try rig.style([("underlay_image", .string("/themes/under.png")), ("underlay_fit", .string("fit"))])
        #expect(rig.session.configuration.underlayFit == .fit)
        #expect(rig.loads == ["/themes/under.png"])
        try rig.style([("underlay_fit", .string("center"))])
        #expect(rig.session.configuration.underlayFit == .center)
        #expect(rig.loads.count == 1)   // the picture as read, laid out again
        #expect(rig.styleField("underlay_fit")?.string == "center")
    }
}
