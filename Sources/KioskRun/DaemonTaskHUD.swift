import KioskDaemon
import KioskDevices
import KioskHUD
import KioskProtocol
import KioskSession

/// A running daemon's HUD as a long task's: updates go to it as requests, the button comes back
/// as events on a second connection that the loop watches.
public final class DaemonTaskHUD: TaskHUD {
    let requests: DaemonClient
    let events: DaemonClient
    let loop: EventLoop
    private var token: LoopToken?
    private var buttonHandler: (() -> Void)?
    public private(set) var content: HUDContent
    /// The daemon went away (or refused an update): no more requests.
    public private(set) var lost = false
    /// Whether the daemon's HUD was on screen when we connected.
    public let wasVisible: Bool

    /// Connects to the daemon at `path` (twice) and reads what its HUD shows now; throws
    /// `DaemonClient.Failure.noDaemon` when nobody answers there.
    public init(path: String, loop: EventLoop) throws(DaemonClient.Failure) {
        requests = try DaemonClient(path: path)
        events = try DaemonClient(path: path)
        self.loop = loop
        try events.request("subscribe", [("events", .array([.string("button")]))])
        let status = try requests.request("status")
        var c = HUDContent()
        if let o = status["content"] {
            c.mode = o["mode"]?.string.flatMap(HUDMode.init(rawValue:)) ?? .indeterminate
            c.progress = o["progress"]?.double ?? 0
            c.label = o["label"]?.string ?? ""
            c.details = o["details"]?.string ?? ""
            c.buttonTitle = o["button"]?.string ?? ""
            c.buttonHasAction = !c.buttonTitle.isEmpty
        }
        content = c
        wasVisible = status["visible"]?.bool ?? false
        token = loop.watch(events.fileDescriptor, .readable) { [weak self] _ in self?.readEvents() }
    }

    deinit { if let token { loop.cancel(token) } }

    public func update(_ c: HUDContent, animatedProgress: Bool) throws {
        var fields: [(String, JSONValue)] = []
        if c.mode != content.mode { fields.append(("mode", .string(c.mode.rawValue))) }
        if c.progress != content.progress { fields.append(("progress", .number(c.progress))) }
        if c.label != content.label { fields.append(("label", .string(c.label))) }
        if c.details != content.details { fields.append(("details", .string(c.details))) }
        let title = c.showsButton ? c.buttonTitle : ""
        if title != (content.showsButton ? content.buttonTitle : "") { fields.append(("button", .string(title))) }
        guard !fields.isEmpty, !lost else { content = c; return }
        do { try requests.request("update", fields + [("animated", .bool(animatedProgress))]) } catch {
            // Said once; the command goes on without a HUD (it matters more than the picture).
            lost = true
            throw error
        }
        content = c
    }

    public func onButton(_ handler: @escaping () -> Void) { buttonHandler = handler }

    /// Shows the daemon's HUD for the task (an activity of its own: `endActivity` hides it again
    /// unless something else keeps it up; a HUD that was already up stays up).
    public func beginActivity() throws {
        if !wasVisible { try requests.request("push") }
    }

    public func endActivity() throws {
        if !wasVisible { try requests.request("pop") }
    }

    private func readEvents() {
        guard let list = try? events.availableEvents() else {
            if let token { loop.cancel(token) }   // the daemon went away: no more button
            token = nil
            return
        }
        for e in list where e["event"]?.string == "button" { buttonHandler?() }
    }
}
