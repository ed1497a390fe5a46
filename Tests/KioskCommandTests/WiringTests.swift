// KioskCommands' entry points in process, without the binary: the daemon's parts on an
// EmbeddedEventLoop and an offscreen screen (the control socket and psplash's FIFO registered on
// the loop, a FIFO command turned into an update, input devices in the status), Plymouth's
// requests as the command line names them, and the executable kept to its wiring.
import Glibc
import KioskBoards
import KioskCLI
@testable import KioskCommands
import KioskDaemon
import KioskSeams
import KioskTestDoubles
import KioskFakeKernel
import KioskHUD
import KioskProtocol
import KioskSession
import KioskSys
import KioskTestSupport
import KioskText
import Testing

/// `args` parsed as `kiosk-hud` would with `spec` as the only command.
private func parsed(_ args: [String], _ spec: CommandSpec) throws -> ParsedArguments {
    let root = CommandSpec("kiosk-hud", abstract: KioskHUDCommandLine.abstract, subcommands: [spec])
    guard case let .run(_, values) = try parseCommandLine(args, root: root) else { throw ShowError("not a run: \(args)") }
    return values
}

/// In process, one test at a time: the tests below log through `CommandOutput`, which one of
/// them points at a fake kernel.
@Suite(.serialized) enum InProcessCommandTests {}

extension InProcessCommandTests {
@Suite struct DaemonPartsTests {
    /// The daemon's parts attached to a session on an EmbeddedEventLoop: the control socket and
    /// the FIFO are watched by that loop, a psplash PROGRESS becomes an update of the HUD, an
    /// input device shows in the status, and detaching leaves the retain to --retain.
    @Test func attachedToAnEmbeddedLoop() throws {
        let dir = Proc.makeTempDir("kiosk-wiring")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let a = try parsed(["daemon", "--socket", dir + "/c.sock", "--psplash-fifo", dir + "/fifo", "--offscreen", "-"], DaemonCommand.spec)
        let kernel = LinuxKernel()
        let parts = try DaemonParts(a, kernel: kernel)
        let loop = EmbeddedEventLoop()
        let display = try OffscreenDisplay(width: 320, height: 240)
        let screen = OffscreenScreen(display)
        let settings = HUDSettings.defaults
        let session = HUDSession(loop: loop, screen: screen, fonts: try FontLibrary(), clock: loop.clock,
                                 configuration: SessionConfiguration(content: settings.content))
        try parts.attach(session: session, loop: loop, kernel: kernel, screen: screen, settings: settings)
        try session.start()
        let listener = try #require(parts.socket?.fd)
        #expect(loop.watchedDescriptors.contains { $0.fd == listener })
        let fifo = try #require(loop.watchedDescriptors.last?.fd)
        #expect(fifo != listener)

        // psplash-write PROGRESS 40: the HUD's progress, shown as a bar.
        let writer = open(dir + "/fifo", O_WRONLY | O_NONBLOCK)
        #expect(writer >= 0)
        let command = Array("PROGRESS 40\0".utf8)
        let written = command.withUnsafeBytes { Glibc.write(writer, $0.baseAddress, $0.count) }
        close(writer)
        #expect(written == command.count)
        loop.fire(fifo)
        loop.run()
        #expect(session.configuration.content.progress == 0.4)
        #expect(session.configuration.content.mode == .bar)

        parts.inputChanged("Touchscreen", added: true)
        let daemon = try #require(parts.daemon)
        let status = JSONObject(try daemon.handle(try DaemonRequest(JSONObject([("v", .number(1)), ("op", .string("status"))]))))
        #expect(status["input"]?["devices"] == .array([.string("Touchscreen")]))
        #expect(status["clients"] == .number(0))

        #expect(parts.detach() == nil)
        #expect(parts.socket == nil)
        parts.screenClosed()
    }

    /// A second daemon on the same socket is refused before any display is touched.
    @Test func secondDaemonOnTheSocketRefused() throws {
        let dir = Proc.makeTempDir("kiosk-wiring")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let a = try parsed(["daemon", "--socket", dir + "/c.sock", "--offscreen", "-"], DaemonCommand.spec)
        let first = try DaemonParts(a, kernel: LinuxKernel())
        let refused = caught(ShowError.self) { _ = try DaemonParts(a, kernel: LinuxKernel()) }
        #expect(refused?.description.hasPrefix("control socket: ") == true, "\(String(describing: refused))")
        _ = first.detach()
    }

    /// --idle-after-first-frame: nothing before the first frame, one setNice(19) at it, no
    /// second one (the frame-cache start and the drawn frame both call it); without the option
    /// no priority change at all; a refused call changes nothing else.
    @Test func idleAfterTheFirstFrameOnce() throws {
        let fake = FakeKernel()
        let with = try parsed(["daemon", "--idle-after-first-frame", "--offscreen", "-"], DaemonCommand.spec)
        let idle = try #require(IdleAfterFirstFrame(with, kernel: fake))
        #expect(fake.niceValues.isEmpty)
        idle.drop("the frame cache's picture is on screen")
        idle.drop("the first frame is on screen")
        #expect(fake.niceValues == [19] && idle.dropped)
        #expect(IdleAfterFirstFrame(try parsed(["daemon", "--offscreen", "-"], DaemonCommand.spec), kernel: fake) == nil)

        let failing = FakeKernel()
        failing.failAt = (0, EPERM)
        let refused = try #require(IdleAfterFirstFrame(with, kernel: failing))
        refused.drop("the first frame is on screen")
        #expect(failing.niceValues.isEmpty && refused.dropped)
    }
}

@Suite struct ShowOnEmbeddedLoopTests {
    /// `show --offscreen DIR --duration 2` run on an EmbeddedEventLoop: the first frame is drawn
    /// and written as first.png when the session starts, nothing ends it before its time, and
    /// moving the loop's clock past --duration ends the run (exit 0, no throw) with last.png.
    @Test func offscreenRunEndsAtItsDuration() throws {
        let dir = Proc.makeTempDir("kiosk-wiring")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let a = try parsed(["show", "--offscreen", dir, "--size", "320x240", "--duration", "2", "--no-input", "--depth", "0",
                            "--glyph-cache", "none", "--label", "Loading"], ShowCommand.spec)
        let loop = EmbeddedEventLoop()
        var turns = 0
        var firstBeforeEnd = false
        try ShowCommand(a).run {
            ScreenLoop(loop: loop, kernel: LinuxKernel(), clock: loop.clock) {
                turns += 1
                firstBeforeEnd = Proc.readFile(dir + "/first.png") != nil && Proc.readFile(dir + "/last.png") == nil
                loop.advance(by: 1.5)
                #expect(loop.pendingTimers > 0, "ended before --duration")
                loop.advance(by: 1)
            }
        }
        #expect(turns == 1)
        #expect(firstBeforeEnd)
        #expect(Proc.readFile(dir + "/last.png") != nil)
    }
}

@Suite struct OutputTests {
    /// Output goes through `CommandOutput.kernel`: a write interrupted (EINTR) is made again,
    /// and the reader gets the whole line once.
    @Test func linesThroughTheKernelSeam() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let fake = FakeKernel()
        fake.eintrOnce = ["write"]
        let before = CommandOutput.kernel
        CommandOutput.kernel = fake
        writeLine("follow-boot: the boot is finished", to: fds[1])
        CommandOutput.kernel = before
        close(fds[1])
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = read(fds[0], &buffer, buffer.count)
        #expect(String(decoding: buffer.prefix(max(n, 0)), as: UTF8.self) == "follow-boot: the boot is finished\n")
        #expect(fake.count("write") == 2)
    }
}
}

@Suite struct PlymouthRequestTests {
    struct Case: Sendable, CustomStringConvertible {
        var args: [String]
        var requests: [PlymouthRequest]
        var description: String { args.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(args: ["--ping"], requests: [.ping]),
        Case(args: ["--quit"], requests: [.quit(retain: false)]),
        Case(args: ["quit", "--retain-splash"], requests: [.quit(retain: true)]),
        Case(args: ["update", "--status", "Mounting /home"], requests: [.status("Mounting /home")]),
        Case(args: ["system-update", "--progress", "30"], requests: [.systemUpdate(30)]),
        Case(args: ["ask-question", "--prompt", "Go?"], requests: [.pauseProgress, .question(prompt: "Go?")]),
        Case(args: ["ask-question", "--prompt", "Go?", "--dont-pause-progress"], requests: [.question(prompt: "Go?")]),
        Case(args: ["display-message", "--text", "Hello"], requests: [.showMessage("Hello")]),
        Case(args: ["--sysinit"], requests: [.systemInitialized]),
        Case(args: ["change-mode", "--shutdown"], requests: [.changeMode(.shutdown)]),
    ]

    /// What each form of the command sends, from the parsed options alone (no socket).
    @Test(arguments: cases) func requestsOfAForm(_ c: Case) throws {
        let a = try parsed(["plymouth"] + c.args, PlymouthCommand.spec)
        let requests: [PlymouthRequest]?
        if let name = a.positionals.first { requests = try PlymouthCommand.requests(for: name, a) } else { requests = try PlymouthCommand.topLevel(a) }
        #expect(requests == c.requests)
    }

    /// Text the wire cannot carry is a usage error naming the option.
    @Test func tooLongForTheWire() throws {
        let a = try parsed(["plymouth", "update", "--status", String(repeating: "x", count: PlymouthWire.maxArgument + 1)], PlymouthCommand.spec)
        let e = caught(UsageError.self) { _ = try PlymouthCommand.requests(for: "update", a) }
        #expect(e?.message.contains("--status") == true, "\(String(describing: e))")
    }
}

@Suite struct ExecutableWiringTests {
    /// Sources/kiosk-hud only parses the command line and calls KioskCommands' entry points: its
    /// Swift files together stay under 1,000 lines (issue 25).
    @Test func executableStaysSmall() throws {
        let dir = "/" + #filePath.split(separator: "/").dropLast(3).joined(separator: "/") + "/Sources/kiosk-hud"
        let files = try #require(listDirectory(dir), "cannot list \(dir)").filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        var total = 0
        for f in files {
            let text = try #require(Proc.readFile(dir + "/" + f), "cannot read \(f)")
            total += text.utf8.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
        }
        #expect(total < 1000, "Sources/kiosk-hud has \(total) lines of Swift; move the logic into a library (KioskCommands)")
    }
}
