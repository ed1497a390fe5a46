import Glibc
import KioskDevices
import KioskRaster
import KioskSys

/// One picture on the DRM screen: heads (connectors) with the same mode and rotation sharing two
/// scanout buffers. The HUD presents its shadow buffer and the damage; the display copies the
/// damage (rotated) into the buffer not on screen and flips to it. A present while a flip is in
/// flight does not wait: the frame is owed, and goes out when the flip-complete event comes.
public final class DRMDisplay: Display {
    unowned let screen: DRMScreen
    let serial: UInt32
    public private(set) var heads: [DRMHead]
    /// Picture size (after rotation).
    public let width: Int, height: Int
    public let preferredFormat: PixelFormat
    public let transform: DisplayTransform
    /// The panel's mode.
    public let mode: ModeInfo
    var buffers: [ScanoutBuffer?] = [nil, nil]
    /// Which buffer is on screen, the flip in flight, the frame owed: the pure part of paging,
    /// carried out here (see FlipMachine).
    var paging = FlipMachine()
    /// The picture last presented (the HUD's shadow buffer: ours to read, it stays alive).
    var lastFrame: Surface?
    public internal(set) var firstFrameTime: Double?
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

    init(screen: DRMScreen, serial: UInt32, head: DRMHead, format: PixelFormat) {
        self.screen = screen; self.serial = serial
        heads = [head]
        mode = head.mode
        (width, height) = head.pictureSize
        preferredFormat = format == .rgb565 ? .rgb565 : .xrgb8888
        transform = DisplayTransform(rotation: head.rotation, width: width, height: height)
    }

    public var name: String { heads.map(\.connector.name).joined(separator: "+") }
    public var scale: Double { heads.first?.scale ?? 1 }
    public var flipPending: Bool { paging.flipPending }
    var card: DRMCard { screen.card }
    var full: IntRect { IntRect(x: 0, y: 0, width: width, height: height) }

    // MARK: Present

    public func present(_ frame: Surface, damage: Damage) throws {
        precondition(frame.width == width && frame.height == height,
                     "frame \(frame.width)x\(frame.height) presented to a \(width)x\(height) display")
        lastFrame = frame
        presents += 1
        screen.presents += 1
        let rects = damage.rects(in: full)
        for b in buffers.compactMap({ $0 }) { for r in rects { b.pending.add(r) } }
        guard screen.isActive, !screen.closed else { return }   // copied when the display is ours again
        try show()
    }

    /// Gets the last frame on screen: the first time with SETCRTC, then by flipping (or SETCRTC
    /// when the driver cannot flip). While a flip is in flight it only notes that a frame is owed.
    func show() throws {
        guard let frame = lastFrame else { return }
        switch paging.present() {
        case let .owe(replacing):
            // A frame already owed is replaced by this one: it never reaches the screen.
            if replacing { screen.coalesced += 1 }
        case .lightFirst:
            let b = try buffer(0)
            copyOwed(into: b, from: frame)
            guard try light(b) else { return }
            paging.lit(0)
            firstFrameTime = monotonicSeconds()
            dirty(b, [full])
        case let .flip(bi):
            let b = try buffer(bi)
            if screen.options.checkScanout { checkNotOnScreen(b) }
            let copied = copyOwed(into: b, from: frame)
            if screen.flipsSupported, try flip(to: bi) { return }
            guard screen.isActive else { return }
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
                screen.lostMaster(e)
                return false
            case let .failure(e): throw e
            }
        }
        return true
    }

    /// PAGE_FLIP on every head to buffer `bi`. False when the driver refused (the caller falls
    /// back to SETCRTC; later frames do not try again).
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
                    screen.lostMaster(error)
                    // The heads that did flip, flip with a generation master's loss left behind.
                    if !issued.isEmpty { _ = paging.issued(to: bi, on: issued, at: monotonicSeconds()) }
                    return true
                } catch where error.errno == EBUSY && !retried {
                    // A flip is still queued on this CRTC (it should not be): let it land, once.
                    retried = true
                    screen.landFlips(within: 0.05)
                    continue
                } catch {
                    if issued.isEmpty && h === heads.first {
                        screen.flipsSupported = false
                        screen.log("page flip refused on CRTC \(h.crtc) (\(error)); falling back to SetCrtc for every frame (may tear)")
                        return false
                    }
                    // A clone head that cannot flip: show the buffer there directly.
                    screen.log("page flip refused on CRTC \(h.crtc) (\(error)); SetCrtc on that head")
                    try card.setCRTC(h.crtc, fb: b.fbID, connectors: [h.connector.id], mode: h.mode)
                }
                break
            }
        }
        if paging.issued(to: bi, on: issued, at: monotonicSeconds()) { screen.scheduleFlipTimeout() }
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
        if landed { screen.flipsCompleted += 1 }
        return landed
    }

    /// DIRTYFB for drivers that copy from the buffer (SPI/USB panels, virtio); off after ENOSYS.
    func dirty(_ b: ScanoutBuffer, _ rects: [IntRect]) {
        guard screen.dirtySupported, !rects.isEmpty else { return }
        let clips = rects.map { r -> (x1: Int, y1: Int, x2: Int, y2: Int) in
            let p = transform.toPanel(r)
            return (p.minX, p.minY, p.maxX, p.maxY)
        }
        do {
            try card.dirtyFramebuffer(b.fbID, clips: clips)
        } catch where error.errno == ENOSYS {
            screen.dirtySupported = false
            screen.log("DIRTYFB: ENOSYS from \(screen.driver): not needed, not called again")
        } catch where error.errno == EACCES || error.errno == EPERM {
            screen.lostMaster(error)
        } catch {
            screen.log("DIRTYFB failed (\(error)); ignored")
        }
    }

    /// With `checkScanout`: the buffer about to be written must not be on any head's CRTC.
    func checkNotOnScreen(_ b: ScanoutBuffer) {
        for h in heads {
            guard let c = try? card.crtc(h.crtc) else { continue }
            if c.fbID == b.fbID {
                screen.scanoutViolations += 1
                if screen.scanoutViolations == 1 { screen.log("BUG: about to draw into FB \(b.fbID), on screen on CRTC \(h.crtc)") }
            }
        }
    }

    // MARK: Heads and lifetime

    /// A clone head with the same mode joins; it shows the current front buffer at once.
    func join(_ h: DRMHead) {
        heads.append(h)
        guard front >= 0, screen.isActive, let b = buffers[front] else { return }
        do {
            try card.setCRTC(h.crtc, fb: b.fbID, connectors: [h.connector.id], mode: h.mode)
            h.lit = true
            dirty(b, [full])
        } catch {
            screen.log("\(h.connector.name): SetCrtc failed (\(error))")
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
        if owed { screen.coalesced += 1 }   // it goes out with the redraw, not by a flip
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
                screen.log("\(h.connector.name): cannot turn CRTC \(h.crtc) off (\(error))")
            }
            h.lit = false
        }
    }

    /// Releases the buffers (all, or all but the one on screen).
    func releaseBuffers(keepFront: Bool = false) {
        for i in 0..<2 {
            guard let b = buffers[i] else { continue }
            if let e = b.release(keepFramebuffer: keepFront && i == front) { screen.log("releasing a scanout buffer: \(e)") }
            buffers[i] = nil
        }
    }

    /// The framebuffer on screen (for the retain keeper).
    var frontFramebuffer: UInt32? { front >= 0 ? buffers[front]?.fbID : nil }
}
