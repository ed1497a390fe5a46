import CKioskSys
import Glibc
import KioskRaster
import KioskSys

/// A frame already on screen when the Swift side starts: kiosk-hud's C constructor
/// (CKioskEarlyFrame) showed the frame cache's picture on one connector. `DRMScreen` continues
/// it: takes its descriptor (DRM master), dumb buffer, framebuffer and the CRTC state saved
/// before it, so the next frame flips from it without a gap; or, when its own plan does not include that
/// head, puts the saved state back and releases it all.
public struct EarlyFrame {
    /// The card's descriptor (master), owned by the screen that continues it from now on.
    public var fd: Int32
    public var card: String
    public var connectorID: UInt32
    public var crtcID: UInt32
    public var mode: ModeInfo
    public var format: PixelFormat
    public var buffer: DumbBufferInfo
    public var fbID: UInt32
    /// The dumb buffer's mapping (`buffer.size` bytes).
    public var memory: UnsafeMutableRawPointer
    /// What the CRTC showed before (restored on quit).
    public var saved: CRTCInfo
    /// `kiosk_frame_hash` of the frame shown (the cache file's).
    public var frameHash: UInt64
    /// CLOCK_MONOTONIC seconds when it was lit.
    public var shownAt: Double

    public init(fd: Int32, card: String, connectorID: UInt32, crtcID: UInt32, mode: ModeInfo, format: PixelFormat,
                buffer: DumbBufferInfo, fbID: UInt32, memory: UnsafeMutableRawPointer, saved: CRTCInfo,
                frameHash: UInt64, shownAt: Double) {
        self.fd = fd; self.card = card; self.connectorID = connectorID; self.crtcID = crtcID; self.mode = mode
        self.format = format; self.buffer = buffer; self.fbID = fbID; self.memory = memory; self.saved = saved
        self.frameHash = frameHash; self.shownAt = shownAt
    }
}

/// What `DRMScreen` did with the early frame.
public enum EarlyFrameUse: Equatable, Sendable, CustomStringConvertible {
    /// Continued: its buffer is the front buffer of the display showing its head.
    case continued
    /// Put back what the CRTC showed before and released (why).
    case released(String)

    /// `continued`'s earlier name.
    @available(*, deprecated, renamed: "continued")
    public static var takenOver: EarlyFrameUse { .continued }

    /// As the log line says it ("frame cache: the early frame was …"). `continued` keeps the
    /// words of 0.1.0's line, "taken over", which scripts and the boot tests look for.
    public var description: String {
        switch self {
        case .continued: "taken over"
        case let .released(why): "released: \(why)"
        }
    }
}

extension EarlyFrame {
    /// Takes what `kiosk_early_frame_show` put on screen (the struct is marked taken, so it is
    /// handed out once); nil unless its state is KIOSK_EARLY_SHOWN.
    public init?(taking c: UnsafeMutablePointer<kiosk_early_frame>) {
        guard c.pointee.state == Int32(KIOSK_EARLY_SHOWN.rawValue), let memory = c.pointee.map else { return nil }
        c.pointee.state = Int32(KIOSK_EARLY_NONE.rawValue)
        let p = c.pointee
        let saved = CRTCInfo(id: p.saved.crtc_id, fbID: p.saved.fb_id, x: p.saved.x, y: p.saved.y,
                             mode: p.saved.mode_valid != 0 ? ModeInfo(p.saved.mode) : nil)
        self.init(fd: p.fd, card: withUnsafeBytes(of: p.card) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) },
                  connectorID: p.connector_id, crtcID: p.crtc_id, mode: ModeInfo(p.mode),
                  format: p.fourcc == KIOSK_DRM_FORMAT_RGB565 ? .rgb565 : .xrgb8888,
                  buffer: DumbBufferInfo(handle: p.handle, pitch: Int(p.pitch), size: Int(p.size)),
                  fbID: p.fb_id, memory: memory, saved: saved, frameHash: p.frame_hash,
                  shownAt: Double(p.shown_ns) / 1e9)
    }
}

extension DRMScreen {
    /// Whether the early frame (`DRMOptions.earlyFrame`) was continued: the first frame on
    /// screen is the frame cache's picture.
    public var continuedEarlyFrame: Bool { earlyFrameUse == .continued }

    /// Continues the early frame: makes it the front buffer of the display showing its head
    /// (clone heads of that display get it too); false when no display has that head with that
    /// mode and format.
    func continueEarlyFrame(_ e: EarlyFrame) -> Bool {
        guard let o = drmDisplays.first(where: { o in o.heads.contains { $0.connector.id == e.connectorID && $0.crtc == e.crtcID } }),
              o.mode == e.mode, o.preferredFormat == e.format,
              let surface = try? Surface(base: e.memory, width: e.mode.width, height: e.mode.height, stride: e.buffer.pitch, format: e.format)
        else { return false }
        o.adoptFront(ScanoutBuffer(card: card, info: e.buffer, fbID: e.fbID, memory: e.memory, surface: surface),
                     crtc: e.crtcID, shownAt: e.shownAt)
        return true
    }

    /// Puts back what the early frame's CRTC showed before and releases its buffer (on `card`,
    /// which holds the early frame's descriptor).
    static func release(_ e: EarlyFrame, on card: DRMCard) {
        try? card.restoreCRTC(e.crtcID, to: e.saved, connector: e.connectorID)
        try? card.removeFramebuffer(e.fbID)
        card.unmap(e.memory, length: e.buffer.size)
        try? card.destroyDumb(e.buffer.handle)
    }
}

/// What `EarlyFrame.show(arguments:on:ops:)` did.
public enum CachedFrameShow {
    /// On screen, for a `DRMScreen` to continue (`DRMOptions.earlyFrame`).
    case shown(EarlyFrame)
    /// No cache file for these arguments, or a command line the cache does not serve.
    case none
    /// A cache file was there but is not on screen: why (its frame for another card, a file it
    /// was drawn from changed, a call that failed — each step undone).
    case failed(cacheFile: String, why: String)
}

extension EarlyFrame {
    /// The frame cache's picture put on `card` now, as kiosk-hud's C constructor does at exec
    /// (`kiosk_early_frame_show_on`: the same checks, the same calls through `ops`), for a run
    /// whose card was not there at exec: the initramfs's daemon, started before udev, whose card
    /// appears while it waits (--wait-display). Nothing is chosen here either: the file says the
    /// card, connector, CRTC and mode, and a frame for another card is left alone.
    public static func show(arguments: [String], on card: String, ops: kiosk_card_ops = kiosk_linux_card_ops) -> CachedFrameShow {
        var c = kiosk_early_frame()
        var ops = ops
        let state = arguments.withCArgv { argc, argv in kiosk_early_frame_show_on(argc, argv, card, &ops, &c) }
        if state == Int32(KIOSK_EARLY_FAILED.rawValue) {
            func text<T>(_ t: T) -> String { withUnsafeBytes(of: t) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) } }
            return .failed(cacheFile: text(c.cache_path), why: text(c.why))
        }
        return withUnsafeMutablePointer(to: &c) { EarlyFrame(taking: $0) }.map { .shown($0) } ?? .none
    }
}
