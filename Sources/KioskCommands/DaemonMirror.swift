import Glibc
import KioskDaemon
import KioskProtocol
import KioskSeams
import KioskSys

/// The daemon's HUD followed over the control socket, on the loop (nothing waits): `overlay`
/// asked once a connection is made, its reply (the state) and each `changed` event after it
/// carried out on `daemon` (the overlay's own, over its session); `press` sent for the button.
/// A daemon that is gone hides the HUD and is looked for again every `retry` seconds.
final class DaemonMirror {
    static let retry = 2.0
    let path: String
    let daemon: Daemon
    let loop: EventLoop
    let kernel: Kernel
    let log: (String) -> Void
    /// The daemon refused this user (permission denied, an op it does not know): the overlay ends.
    var onRefused: ((String) -> Void)?
    private var client: DaemonClient?
    private var token: LoopToken?
    private var retryTimer: LoopToken?
    private var outgoing: [UInt8] = []
    /// The reply to `overlay` has come (the state applied): events and press replies follow.
    private var following = false
    /// A failure to connect was logged (the next one is not, until a connection is made).
    private var quietRetries = false

    init(path: String, daemon: Daemon, loop: EventLoop, kernel: Kernel, log: @escaping (String) -> Void) {
        self.path = path; self.daemon = daemon; self.loop = loop; self.kernel = kernel; self.log = log
    }

    /// Connects once the loop runs (a refusal then ends a session that has started).
    func start() { loop.execute { [weak self] in self?.connect() } }

    func stop() {
        for t in [token, retryTimer].compactMap({ $0 }) { loop.cancel(t) }
        token = nil; retryTimer = nil
        client = nil
    }

    /// The button was pressed here: the daemon's is pressed (its subscribers hear `button`).
    func press() {
        guard following else { log("overlay: the button was pressed with no daemon followed"); return }
        send(DaemonClient.requestLine(.press))
    }

    // MARK: Connecting

    private func connect() {
        retryTimer = nil
        let c: DaemonClient
        do { c = try DaemonClient(path: path, kernel: kernel) } catch {
            if case let .permissionDenied(why) = error { onRefused?(why); return }
            if !quietRetries { log("overlay: \(error); trying again every \(Self.retry) s") }
            quietRetries = true
            retryTimer = loop.schedule(after: Self.retry) { [weak self] in self?.connect() }
            return
        }
        // The socket's path may be anyone's to make: the daemon is who the kernel says answers
        // (root, or this user's own), not whoever bound the path.
        guard let peer = try? kernel.peerCredentials(c.fileDescriptor), peer.uid == 0 || peer.uid == kernel.effectiveUserID() else {
            onRefused?("\(path): the process answering there is neither root's nor this user's; not followed")
            return
        }
        quietRetries = false
        client = c
        outgoing = []
        following = false
        token = loop.watch(c.fileDescriptor, .readable) { [weak self] ready in self?.ready(ready) }
        send(DaemonClient.requestLine(.overlay, [("screen", .string(OverlayScreen.wayland.rawValue))]))
    }

    private func lost(_ why: String) {
        if let token { loop.cancel(token) }
        token = nil
        client = nil
        if following {
            log("overlay: the daemon is gone (\(why)); the HUD hidden until it is back")
            // Its activity count and notice with it: the next daemon's state starts afresh.
            _ = try? daemon.handle(.hide(animated: true, delay: 0))
        }
        following = false
        retryTimer = loop.schedule(after: Self.retry) { [weak self] in self?.connect() }
    }

    // MARK: Writing and reading

    private func send(_ line: [UInt8]) {
        guard let client else { return }
        outgoing += line
        do { try client.writeWithoutWaiting(from: &outgoing) } catch {
            lost("\(error)")
            return
        }
        if let token { loop.setEvents(token, outgoing.isEmpty ? .readable : [.readable, .writable]) }
    }

    private func ready(_ ready: LoopEvents) {
        if ready.contains(.writable) { send([]) }
        guard let client, ready.contains(.readable) || ready.contains(.hangup) || ready.contains(.error) else { return }
        let objects: [JSONObject]
        do { objects = try client.availableObjects() } catch {
            lost("\(error)")
            return
        }
        for o in objects { take(o) }
    }

    private func take(_ o: JSONObject) {
        if let event = o["event"]?.string {
            guard event == DaemonEvent.changed.rawValue, let r = o["request"]?.object else { return }
            carryOut(r)
            return
        }
        if !following {
            // The reply to `overlay`: the state.
            guard o["ok"]?.bool == true else {
                let why = o["error"]?.string ?? "refused"
                onRefused?("the daemon at \(path) refused: \(why)")
                return
            }
            following = true
            log("overlay: following the daemon at \(path)")
            for r in DaemonRequest.restoring(o) { apply(r) }
            // Shown already: at once (the splash continued), not faded in.
            if o["visible"]?.bool == true { apply(.show(animated: false)) }
        } else if o["ok"]?.bool == false {
            log("overlay: the daemon: \(o["error"]?.string ?? "an error")")
        }
    }

    /// One change as the daemon carried it out.
    private func carryOut(_ object: JSONObject) {
        let r: DaemonRequest
        do { r = try DaemonRequest(object) } catch {
            log("overlay: a change this overlay does not understand (\(error)); left out")
            return
        }
        apply(r)
    }

    private func apply(_ r: DaemonRequest) {
        do { _ = try daemon.handle(r) } catch {
            // A picture this user cannot read costs the picture, not the rest of the change.
            guard let rest = r.withoutPictures else { log("overlay: \(r.op.rawValue): \(error)"); return }
            log("overlay: \(r.op.rawValue): \(error); shown without its picture")
            _ = try? daemon.handle(rest)
        }
    }
}
