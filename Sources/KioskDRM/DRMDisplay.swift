import Glibc
import KioskSeams
import KioskRaster
import KioskSys

/// One picture on the DRM screen: heads (connectors) with the same mode and rotation sharing two
/// scanout buffers. The HUD presents its shadow buffer and the damage; the display copies the
/// damage (rotated) into the buffer not on screen and flips to it. A present while a flip is in
/// flight does not wait: the frame is owed, and goes out when the flip-complete event comes.
///
/// The display owns its paging state (buffers, what is on screen, in flight and owed, the last
/// picture); the screen reaches it through methods only. What both change (the driver's answers,
/// the summary's counters) is in `DRMSharedState`; what it asks of its screen, in
/// `DRMDisplayOwner`.
public final class DRMDisplay: Display {
    unowned let owner: any DRMDisplayOwner
    let shared: DRMSharedState
    let serial: UInt32
    public private(set) var heads: [DRMHead]
    /// Picture size (after rotation).
    public let width: Int, height: Int
    public let preferredFormat: PixelFormat
    public let transform: DisplayTransform
    /// The panel's mode.
    public let mode: ModeInfo
    private(set) var buffers: [ScanoutBuffer?] = [nil, nil]
    /// Which buffer is on screen, the flip in flight, the frame owed: the pure part of paging,
    /// carried out here (see FlipMachine).
    private var paging = FlipMachine()
    /// The picture last presented (the HUD's shadow buffer: ours to read, it stays alive).
    private(set) var lastFrame: Surface?
    public private(set) var firstFrameTime: Double?
    public private(set) var presents = 0

    /// The buffer on screen (−1: none of ours yet).
    var front: Int { paging.front }
    /// A present came while a flip was in flight: the last frame goes out when it lands.
    var owesFrame: Bool { paging.owesFrame }
    /// When the flip in flight was issued (tests age it).
    var flipIssuedAt: Double {
        get { paging.issuedAt }
        set { paging.issuedAt = newValue }
    }
    /// Flips that landed on this display.
    public var flips: Int { paging.flips }

    init(owner: any DRMDisplayOwner, shared: DRMSharedState, serial: UInt32, head: DRMHead, format: PixelFormat) {
        self.owner = owner; self.shared = shared; self.serial = serial
        heads = [head]
        mode = head.mode
        (width, height) = head.pictureSize
        preferredFormat = format == .rgb565 ? .rgb565 : .xrgb8888
        transform = DisplayTransform(rotation: head.rotation, width: width, height: height)
    }

    public var name: String { heads.map(\.connector.name).joined(separator: "+") }
    public var scale: Double { heads.first?.scale ?? 1 }
    public var flipPending: Bool { paging.flipPending }
    var card: DRMCard { shared.card }
    var log: (String) -> Void { shared.log }
    var full: IntRect { IntRect(x: 0, y: 0, width: width, height: height) }

    // MARK: Present

    public func present(_ frame: Surface, damage: Damage) throws {
        precondition(frame.width == width && frame.height == height,
                     "frame \(frame.width)x\(frame.height) presented to a \(width)x\(height) display")
        lastFrame = frame
        presents += 1
        shared.presents += 1
        let rects = damage.rects(in: full)
        for b in buffers.compactMap({ $0 }) { for r in rects { b.pending.add(r) } }
        guard owner.isActive, !owner.isClosed else { return }   // copied when the display is ours again
        try show()
    }

    /// Gets the last frame on screen: the first time with SETCRTC, then by flipping (or SETCRTC
    /// when the driver cannot flip). While a flip is in flight it only notes that a frame is owed.
    func show() throws {
        guard let frame = lastFrame else { return }
        switch paging.present() {
        case let .owe(replacing):
            // A frame already owed is replaced by this one: it never reaches the screen.
            if replacing { shared.coalesced += 1 }
        case .lightFirst:
            let b = try buffer(0)
            copyOwed(into: b, from: frame)
            guard try light(b) else { return }
            paging.lit(0)
            firstFrameTime = monotonicSeconds()
            dirty(b, [full])
        case let .flip(bi):
            let b = try buffer(bi)
            if shared.checkScanout { checkNotOnScreen(b) }
            let copied = copyOwed(into: b, from: frame)
            if shared.flipsSupported, try flip(to: bi) { return }
            guard owner.isActive else { return }
            guard try light(b) else { return }
            paging.lit(bi)
            dirty(b, copied)
        }
    }

    /// The buffer at `i`, created on first use (the second one after the first frame is on
    /// screen, so creating it does not delay that frame).
    func buffer(_ i: Int) throws -> ScanoutBuffer {
        if let b = buffers[i] { return b }
        let b = try ScanoutBuffer.create(card: card, width: mode.width, height: mode.height, format: preferredFormat)
        buffers[i] = b
        return b
    }

    /// Copies what `b` owes (the damage since it was last written) from the picture; returns the
    /// picture rectangles copied.
    @discardableResult
    func copyOwed(into b: ScanoutBuffer, from frame: Surface) -> [IntRect] {
        let rects = b.owesEverything ? [full] : b.pending.rects
        for r in rects { ScanoutCopy.copy(frame, rect: r, to: b.surface, rotation: transform.rotation) }
        b.pending.removeAll()
        b.owesEverything = false
        return rects
    }

    /// SETCRTC on every head with `b`. False (and the screen inactive) if master was lost.
    func light(_ b: ScanoutBuffer) throws -> Bool {
        for h in heads {
            let r = Result { () throws(SysError) in try card.setCRTC(h.crtc, fb: b.fbID, connectors: [h.connector.id], mode: h.mode) }
            switch r {
            case .success: h.lit = true
            case let .failure(e) where e.errno == EACCES || e.errno == EPERM:
                owner.lostMaster(e)
                return false
            case let .failure(e): throw e
            }
        }
        return true
    }

    /// PAGE_FLIP on every head to buffer `bi`. False when the driver refused (the caller falls
    /// back to SETCRTC; later frames do not try again) or a flip it had is still queued (this
    /// frame by SETCRTC; the next flips).
    func flip(to bi: Int) throws -> Bool {
        let b = buffers[bi]!
        let generation = paging.nextGeneration()
        var issued: Set<UInt32> = []
        for h in heads {
            var retried = false
            while true {
                do {
                    try card.pageFlip(crtc: h.crtc, fb: b.fbID, userData: UInt64(serial) << 32 | UInt64(generation))
                    issued.insert(h.crtc)
                } catch where error.errno == EACCES || error.errno == EPERM {
                    owner.lostMaster(error)
                    // The heads that did flip, flip with a generation master's loss left behind.
                    if !issued.isEmpty { _ = paging.issued(to: bi, on: issued, at: monotonicSeconds()) }
                    return true
                } catch where error.errno == EBUSY && !retried {
                    // A flip is still queued on this CRTC (it should not be): let it land, once.
                    retried = true
                    owner.landFlips(within: 0.05)
                    continue
                } catch where error.errno == EBUSY && issued.isEmpty && h === heads.first {
                    // Still queued: a flip taken as landed by a bound (the carry-over's 0.5 s, the
                    // flip timeout) that the kernel still holds. The driver can flip, so this one
                    // frame goes out by SETCRTC and the next flips again.
                    log("page flip on CRTC \(h.crtc): a flip is still queued (\(error)); this frame by SetCrtc")
                    return false
                } catch {
                    if issued.isEmpty && h === heads.first {
                        shared.flipsSupported = false
                        log("page flip refused on CRTC \(h.crtc) (\(error)); falling back to SetCrtc for every frame (may tear)")
                        return false
                    }
                    // A clone head that cannot flip: show the buffer there directly.
                    log("page flip refused on CRTC \(h.crtc) (\(error)); SetCrtc on that head")
                    try card.setCRTC(h.crtc, fb: b.fbID, connectors: [h.connector.id], mode: h.mode)
                }
                break
            }
        }
        if paging.issued(to: bi, on: issued, at: monotonicSeconds()) { owner.scheduleFlipTimeout() }
        return true
    }

    /// A flip-complete event for this display; true when that was the last CRTC it waited for.
    func flipCompleted(_ e: DRMEvent) -> Bool {
        counted(paging.completed(crtc: e.crtcID, generation: UInt32(truncatingIfNeeded: e.userData)))
    }

    /// At `now`, a flip whose event is later than `DRMScreen.flipTimeout` is taken as landed;
    /// true when it was.
    func expireFlip(at now: Double) -> Bool {
        counted(paging.expire(at: now, timeout: DRMScreen.flipTimeout))
    }

    /// The flip in flight is taken as landed (the handover paths, after waiting for it).
    func completeFlip() {
        guard paging.flipPending else { return }
        paging.land()
        _ = counted(true)
    }

    /// Master lost: the flip in flight is taken as landed and late events are ignored.
    func masterLost() {
        let was = paging.flipPending
        paging.masterLost()
        _ = counted(was)
    }

    /// The screen's count of landed flips follows the displays' (one place adds to it).
    private func counted(_ landed: Bool) -> Bool {
        if landed { shared.flipsCompleted += 1 }
        return landed
    }

    /// DIRTYFB for drivers that copy from the buffer (SPI/USB panels, virtio); off after ENOSYS.
    func dirty(_ b: ScanoutBuffer, _ rects: [IntRect]) {
        guard shared.dirtySupported, !rects.isEmpty else { return }
        let clips = rects.map { r -> (x1: Int, y1: Int, x2: Int, y2: Int) in
            let p = transform.toPanel(r)
            return (p.minX, p.minY, p.maxX, p.maxY)
        }
        do {
            try card.dirtyFramebuffer(b.fbID, clips: clips)
        } catch where error.errno == ENOSYS {
            shared.dirtySupported = false
            log("DIRTYFB: ENOSYS from \(owner.driver): not needed, not called again")
        } catch where error.errno == EACCES || error.errno == EPERM {
            owner.lostMaster(error)
        } catch {
            log("DIRTYFB failed (\(error)); ignored")
        }
    }

    /// With `checkScanout`: the buffer about to be written must not be on any head's CRTC.
    func checkNotOnScreen(_ b: ScanoutBuffer) {
        for h in heads {
            guard let c = try? card.crtc(h.crtc) else { continue }
            if c.fbID == b.fbID {
                shared.scanoutViolations += 1
                if shared.scanoutViolations == 1 { log("BUG: about to draw into FB \(b.fbID), on screen on CRTC \(h.crtc)") }
            }
        }
    }

    // MARK: Heads and lifetime

    /// A clone head with the same mode joins; it shows the current front buffer at once.
    func join(_ h: DRMHead) {
        heads.append(h)
        guard front >= 0, owner.isActive, let b = buffers[front] else { return }
        do {
            try card.setCRTC(h.crtc, fb: b.fbID, connectors: [h.connector.id], mode: h.mode)
            h.lit = true
            dirty(b, [full])
        } catch {
            log("\(h.connector.name): SetCrtc failed (\(error))")
        }
    }

    /// Removes a head (its connector went away), turning its CRTC off if it showed our picture.
    func remove(_ h: DRMHead) {
        heads.removeAll { $0 === h }
        _ = counted(paging.headRemoved(crtc: h.crtc))
        if h.lit { try? card.setCRTC(h.crtc, fb: 0, connectors: [], mode: nil); h.lit = false }
    }

    /// The display is ours again: put the last frame (with anything owed) on screen with SETCRTC.
    func reactivate() throws {
        let (bi, owed) = paging.reactivate()
        if owed { shared.coalesced += 1 }   // it goes out with the redraw, not by a flip
        guard let frame = lastFrame else { return }
        if bi < 0 { try show(); return }   // lost master before the first frame was lit
        let b = try buffer(bi)
        let copied = copyOwed(into: b, from: frame)
        for h in heads { h.lit = false }
        guard try light(b) else { return }
        paging.lit(bi)
        dirty(b, copied)
    }

    /// Puts back what each lit head showed before us (or turns it off).
    func restoreHeads() {
        for h in heads where h.lit {
            do { try card.restoreCRTC(h.crtc, to: h.saved, connector: h.connector.id) } catch {
                log("\(h.connector.name): cannot turn CRTC \(h.crtc) off (\(error))")
            }
            h.lit = false
        }
    }

    /// Releases the buffers (all, or all but the one on screen).
    func releaseBuffers(keepFront: Bool = false) {
        for i in 0..<2 {
            guard let b = buffers[i] else { continue }
            if let e = b.release(keepFramebuffer: keepFront && i == front) { log("releasing a scanout buffer: \(e)") }
            buffers[i] = nil
        }
    }

    /// The framebuffer on screen (for the retain keeper).
    var frontFramebuffer: UInt32? { front >= 0 ? buffers[front]?.fbID : nil }

    // MARK: What the screen reads and asks (the carry-over, the frame cache, closing)

    /// The scanout buffer on screen (nil: none of ours yet).
    var frontBuffer: ScanoutBuffer? { front >= 0 ? buffers[front] : nil }

    /// The buffers that are not on screen.
    var backBuffers: [ScanoutBuffer] { buffers.indices.compactMap { $0 == front ? nil : buffers[$0] } }

    /// The buffers' pitch (bytes per scanout row); nil before the first buffer.
    var scanoutPitch: Int? { buffers.compactMap { $0?.info.pitch }.first }

    /// A frame owed is dropped (a close, a carry-over: the frame never goes out); true when one was.
    @discardableResult
    func dropOwedFrame() -> Bool {
        guard paging.dropOwed() else { return false }
        shared.coalesced += 1
        return true
    }

    /// The early frame's buffer becomes buffer 0, on screen. It counts as owing the whole picture
    /// (its content is the cache's, not ours), so the next frame goes to buffer 1 by a flip.
    func adoptFront(_ b: ScanoutBuffer, crtc: UInt32, shownAt: Double) {
        buffers[0] = b
        paging.lit(0)
        firstFrameTime = shownAt
        for h in heads {
            if h.crtc == crtc { h.lit = true; continue }
            do {
                try card.setCRTC(h.crtc, fb: b.fbID, connectors: [h.connector.id], mode: h.mode)
                h.lit = true
            } catch {
                log("\(h.connector.name): SetCrtc failed (\(error))")
            }
        }
    }
}
