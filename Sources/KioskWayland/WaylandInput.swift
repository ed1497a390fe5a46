import KioskSeams

/// The compositor's pointer and touch on the HUD's surfaces (`Screen.input` of a Wayland screen),
/// as input events in the first display's picture: buttons and touches press the HUD's button as
/// libinput's do. Fed by the screen as it reads the connection.
public final class WaylandInput: InputSource {
    private var queue: [TimedInputEvent] = []
    private var ready: (() -> Void)?

    init() {}

    public func events(until time: Seconds) -> [TimedInputEvent] {
        let due = queue.prefix { $0.time <= time }
        queue.removeFirst(due.count)
        return Array(due)
    }

    public func attach(to loop: EventLoop, _ ready: @escaping () -> Void) throws { self.ready = ready }
    public func detach() { ready = nil }

    func add(_ events: [TimedInputEvent]) {
        guard !events.isEmpty else { return }
        queue += events
        if queue.count > 1024 { queue.removeFirst(queue.count - 1024) }
        ready?()
    }
}
