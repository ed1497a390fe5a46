import Glibc
import KioskSeams
import KioskRaster
import KioskSys

// The screen carried over from one program image to the next in the same process: the
// initramfs's daemon, told the new root, replaces its program with the new root's kiosk-hud
// (execve keeps the pid and every descriptor without FD_CLOEXEC). The DRM descriptor stays open,
// so DRM master and the framebuffer on screen stay too: no modeset, no black frame. The next
// image continues the buffer on screen as it continues the frame cache's early frame
// (`EarlyFrame`), draws its first frame into a new buffer and flips to it; the old image's other
// buffer is let go first. (Not the handover: that gives the screen to another program.)

/// What the next program image needs to carry the screen over: the card's descriptor, the head,
/// the buffer on screen, what the CRTC showed before us, and the buffers to let go.
public struct ScreenCarryOver: Equatable, Sendable, ScreenCarryOverRecord {
    /// The card's descriptor (DRM master), without FD_CLOEXEC.
    public var fd: Int32
    public var card: String
    public var connectorID: UInt32
    public var crtcID: UInt32
    public var mode: ModeInfo
    public var format: PixelFormat
    /// The dumb buffer on screen and its framebuffer.
    public var buffer: DumbBufferInfo
    public var fbID: UInt32
    /// What the CRTC showed before the first image touched it (put back at a quit without retain).
    public var saved: CRTCInfo
    /// The first image's other buffers (framebuffer, dumb handle): not on screen, let go by the next.
    public var released: [Released]
    /// The card's descriptor (`fd`): what execve keeps.
    public var descriptor: Int32 { fd }

    /// A framebuffer and its dumb buffer's handle.
    public struct Released: Equatable, Sendable {
        public var fbID: UInt32, handle: UInt32
        public init(fbID: UInt32, handle: UInt32) { self.fbID = fbID; self.handle = handle }
    }

    public init(fd: Int32, card: String, connectorID: UInt32, crtcID: UInt32, mode: ModeInfo, format: PixelFormat,
                buffer: DumbBufferInfo, fbID: UInt32, saved: CRTCInfo, released: [Released]) {
        self.fd = fd; self.card = card; self.connectorID = connectorID; self.crtcID = crtcID; self.mode = mode
        self.format = format; self.buffer = buffer; self.fbID = fbID; self.saved = saved; self.released = released
    }
}

extension CRTCInfo: Equatable {
    public static func == (a: CRTCInfo, b: CRTCInfo) -> Bool { a.id == b.id && a.fbID == b.fbID && a.x == b.x && a.y == b.y && a.mode == b.mode }
}

/// Why the screen cannot be carried over now (KioskSeams' `CarryOverRefusal`, the word every
/// screen's carry-over uses; named here too for code that imports KioskDRM alone).
public typealias CarryOverRefusal = KioskSeams.CarryOverRefusal

/// `ScreenCarryOver`'s earlier name ("handoff" read as the handover to another program).
@available(*, deprecated, renamed: "ScreenCarryOver")
public typealias ScreenHandoff = ScreenCarryOver

extension DRMScreen {
    /// The carry-over to the next program image (`carryOverRefusal`, `carryOverRecord`).
    public var carryOver: ScreenCarryOverSource? { DRMCarryOverSource(self) }

    /// Why this screen cannot be carried over at all (more than one display or head: the next
    /// image would have to set the others up again; not ours now); nil when it can.
    public var carryOverRefusal: CarryOverRefusal? {
        guard isActive, !closed else { return CarryOverRefusal("the display is not ours now (another program has it)") }
        guard drmDisplays.count == 1, let d = drmDisplays.first, d.heads.count == 1 else {
            return CarryOverRefusal("\(drmDisplays.count) displays with \(drmDisplays.map(\.heads.count)) heads: only one display with one head is carried over")
        }
        guard d.frontBuffer != nil else { return CarryOverRefusal("nothing on screen yet", transient: true) }
        return nil
    }

    /// The record, for the execve() that follows at once: a flip in flight is let land first
    /// (up to `seconds`, reading only the card's events, as `close` does; then taken as landed),
    /// and a frame owed is dropped — the next image draws the same state anyway. Throws
    /// `carryOverRefusal`'s reason. If the new image never comes, this one goes on (its next
    /// frame goes out as usual).
    public func carryOverRecord(landingWithin seconds: Double = 0.5) throws(CarryOverRefusal) -> ScreenCarryOver {
        if let why = carryOverRefusal { throw why }
        landFlips(within: seconds)
        for o in drmDisplays where o.flipPending { o.completeFlip() }
        for o in drmDisplays { o.dropOwedFrame() }
        let d = drmDisplays[0], h = d.heads[0]
        guard let front = d.frontBuffer else { throw CarryOverRefusal("nothing on screen yet", transient: true) }
        let saved: CRTCInfo
        do { saved = try originalState(of: h.crtc) } catch { throw CarryOverRefusal("the CRTC's first state cannot be read: \(error)") }
        let others = d.backBuffers.map { ScreenCarryOver.Released(fbID: $0.fbID, handle: $0.info.handle) }
        return ScreenCarryOver(fd: card.fd, card: card.path, connectorID: h.connector.id, crtcID: h.crtc, mode: d.mode, format: d.preferredFormat,
                             buffer: front.info, fbID: front.fbID, saved: saved, released: others)
    }
}

extension DRMScreen {
    /// `carryOverRefusal`'s earlier name.
    @available(*, deprecated, renamed: "carryOverRefusal")
    public var handoffRefusal: CarryOverRefusal? { carryOverRefusal }
    /// `carryOverRecord(landingWithin:)`'s earlier name.
    @available(*, deprecated, renamed: "carryOverRecord(landingWithin:)")
    public func handOff(landingWithin seconds: Double = 0.5) throws(CarryOverRefusal) -> ScreenCarryOver {
        try carryOverRecord(landingWithin: seconds)
    }
}

/// `Screen.carryOver` of a DRM screen: its `carryOverRefusal` and `carryOverRecord`, through the protocol
/// every screen's carry-over answers to.
final class DRMCarryOverSource: ScreenCarryOverSource {
    let screen: DRMScreen
    init(_ screen: DRMScreen) { self.screen = screen }
    var carryOverRefusal: CarryOverRefusal? { screen.carryOverRefusal }
    func carryOverRecord(landingWithin seconds: Double) throws(CarryOverRefusal) -> any ScreenCarryOverRecord {
        try screen.carryOverRecord(landingWithin: seconds)
    }
}

extension EarlyFrame {
    /// The previous program image's buffer on screen, as an early frame to continue: its other
    /// buffers are let go and the one on screen is mapped again (its handle is the descriptor's).
    /// On failure nothing is taken: the descriptor is left as it was.
    public init(resuming h: ScreenCarryOver, kernel: Kernel) throws(SysError) {
        let card = DRMCard(adopting: h.fd, path: h.card, kernel: kernel)
        defer { card.forget() }
        for r in h.released {
            try? card.removeFramebuffer(r.fbID)
            try? card.destroyDumb(r.handle)
        }
        let memory = try card.map(offset: try card.mapDumbOffset(h.buffer.handle), length: h.buffer.size)
        self.init(fd: h.fd, card: h.card, connectorID: h.connectorID, crtcID: h.crtcID, mode: h.mode, format: h.format,
                  buffer: h.buffer, fbID: h.fbID, memory: memory, saved: h.saved, frameHash: 0, shownAt: monotonicSeconds())
    }
}
