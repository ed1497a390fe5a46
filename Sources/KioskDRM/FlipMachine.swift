/// The page flips of one display, as a pure state machine: which of its two buffers is on
/// screen, which a flip in flight will put there and on which CRTCs its events are awaited, and
/// whether a frame is owed. It takes what happened (a present, a flip issued, a flip-complete
/// event, the time, master lost or back) and says what to do; `DRMDisplay` carries that out with
/// the card's ioctls, and the screen counts what it reports. No clock, no kernel: the times are
/// passed in, so a lost event or a late one from before a VT switch is a test of a few lines.
///
/// Generations: each flip carries one in its user data. When the flips in flight stop mattering
/// (master lost, the display redrawn with SETCRTC), the generation moves on, and a late event
/// for an older one is ignored.
struct FlipMachine: Equatable {
    /// The buffer on screen (0 or 1; −1 before the first frame).
    private(set) var front = -1
    /// The buffer the flip in flight puts on screen.
    private(set) var target = -1
    /// CRTCs whose flip-complete event has not come yet.
    private(set) var pending: Set<UInt32> = []
    /// When the flip in flight was issued (seconds, any monotonic clock).
    var issuedAt = 0.0
    /// The generation of the flip in flight (see the type's notes).
    private(set) var generation: UInt32 = 0
    /// A present came while a flip was in flight: the last frame goes out when it lands.
    private(set) var owesFrame = false
    /// Flips that landed (by their event, or assumed after the timeout).
    private(set) var flips = 0

    var flipPending: Bool { !pending.isEmpty }

    /// What to do with a frame.
    enum Step: Equatable {
        /// A flip is in flight: the frame is owed (`replacing`: an owed frame was replaced, and
        /// never reaches the screen — the screen's `coalesced`).
        case owe(replacing: Bool)
        /// The first frame: buffer 0, lit with SETCRTC.
        case lightFirst
        /// Copy into buffer `to` (not on screen) and flip to it.
        case flip(to: Int)
    }

    /// A frame to put on screen.
    mutating func present() -> Step {
        if flipPending {
            let replacing = owesFrame
            owesFrame = true
            return .owe(replacing: replacing)
        }
        owesFrame = false
        return front < 0 ? .lightFirst : .flip(to: 1 - front)
    }

    /// Buffer `i` is on screen by SETCRTC (the first frame, a driver that cannot flip, the
    /// redraw after master came back).
    mutating func lit(_ i: Int) { front = i }

    /// The generation a flip about to be issued carries.
    mutating func nextGeneration() -> UInt32 {
        generation &+= 1
        return generation
    }

    /// A flip to `to` was issued on `crtcs` at `t` (none: every head was set directly, and the
    /// buffer is on screen now). True when events are awaited: arm the timeout.
    mutating func issued(to: Int, on crtcs: Set<UInt32>, at t: Double) -> Bool {
        target = to
        pending = crtcs
        issuedAt = t
        if crtcs.isEmpty { front = to }
        return !crtcs.isEmpty
    }

    /// A flip-complete event: true when it was the last one the flip waited for (it landed).
    mutating func completed(crtc: UInt32, generation g: UInt32) -> Bool {
        guard g == generation, pending.remove(crtc) != nil else { return false }
        if pending.isEmpty { land(); return true }
        return false
    }

    /// At `now`: a flip older than `timeout` whose event never came (a driver bug, a CRTC turned
    /// off under us) is taken as landed. True when that happened.
    mutating func expire(at now: Double, timeout: Double) -> Bool {
        guard flipPending, now - issuedAt > timeout else { return false }
        land()
        return true
    }

    /// The flip in flight is taken as landed (the handover paths, after waiting for it).
    mutating func land() {
        pending.removeAll()
        front = target
        flips += 1
    }

    /// The head on `crtc` went away: its event is no longer awaited. True when that lands the
    /// flip (it was the last one awaited).
    mutating func headRemoved(crtc: UInt32) -> Bool {
        pending.remove(crtc)
        guard pending.isEmpty && target >= 0 && front != target else { return false }
        land()
        return true
    }

    /// Master lost: flips in flight stop mattering; the one in flight is taken as landed, so the
    /// buffer on screen is known.
    mutating func masterLost() {
        generation &+= 1
        if flipPending { land() }
    }

    /// Master back: the last frame goes out with SETCRTC to the buffer not on screen (the
    /// result); an owed frame goes with it (`coalesced`: it was owed and never flipped).
    mutating func reactivate() -> (buffer: Int, coalesced: Bool) {
        generation &+= 1
        pending.removeAll()
        let owed = owesFrame
        owesFrame = false
        return (front < 0 ? -1 : 1 - front, owed)
    }

    /// Closing: an owed frame will never be shown. True when there was one.
    mutating func dropOwed() -> Bool {
        defer { owesFrame = false }
        return owesFrame
    }
}
