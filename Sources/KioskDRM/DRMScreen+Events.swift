import CKioskSys
import Glibc
import KioskSeams
import KioskSys

// The DRM screen on the event loop: flip-complete events from the card's descriptor, hotplug
// uevents, VT switch signals, and timers for lost flip events and for taking master back.
// Nothing here blocks for more than a bounded moment, and only on the handover paths (a VT
// switch away, quitting), where the flips in flight must land before the buffers change hands.

extension DRMScreen {
    /// Longest wait for a flip-complete event before assuming it was lost.
    static let flipTimeout = 1.0
    /// How often to try to become master again when the display was taken without a VT switch.
    static let masterRetry = 0.5

    /// The frame interval of the fastest display (vblank pacing), 1/60 s if unknown.
    public var frameInterval: Double {
        let hz = drmDisplays.map { $0.mode.refresh }.filter { $0 > 1 }.max() ?? 60
        return 1 / hz
    }

    var anyFlipPending: Bool { drmDisplays.contains { $0.flipPending } }

    public func attach(to loop: EventLoop, _ handler: @escaping (ScreenEvent) -> Void) throws {
        guard self.loop == nil else { return }
        self.loop = loop
        self.handler = handler
        tokens.append(loop.watch(card.fd, .readable) { [unowned self] _ in self.dispatchDRMEvents() })
        if ueventFD >= 0 { tokens.append(loop.watch(ueventFD, .readable) { [unowned self] _ in self.readUevents() }) }
        if options.vt {
            // The switch signals are read by the loop before the VT asks with them.
            tokens.append(loop.onSignal(SIGUSR1) { [unowned self] in self.vtRelease() })
            tokens.append(loop.onSignal(SIGUSR2) { [unowned self] in self.vtAcquire() })
            vt = VTSwitcher.take(kernel: card.kernel, log: log)
        }
        if anyFlipPending { scheduleFlipTimeout() }
        if !isActive { scheduleMasterRetry() }
    }

    /// Tells the owner, after the current handler (never from inside a present).
    func notify(_ e: ScreenEvent) {
        loop?.execute { [weak self] in
            guard let self, !self.closed else { return }
            self.handler?(e)
        }
    }

    // MARK: Flips

    /// After a flip was issued: a timer for its event (drivers lose them when a CRTC turns off).
    func scheduleFlipTimeout() {
        guard let loop, flipTimer == nil else { return }
        flipTimer = loop.schedule(after: DRMScreen.flipTimeout + 0.01) { [unowned self] in
            self.flipTimer = nil
            self.expireFlips()
            if self.anyFlipPending { self.scheduleFlipTimeout() }
        }
    }

    /// A flip whose event never came (driver bug, CRTC turned off under us): treat it as done.
    func expireFlips() {
        let now = monotonicSeconds()
        for o in drmDisplays where o.expireFlip(at: now) {
            flipTimeouts += 1
            log("no flip-complete event on \(o.name) within \(DRMScreen.flipTimeout) s; assuming the flip happened")
            flipsLanded(o)
        }
    }

    func dispatchDRMEvents() {
        let events: [DRMEvent]
        do { events = try card.readEvents() } catch {
            log("reading DRM events: \(error)")
            return
        }
        for e in events where e.kind == .flipComplete {
            let serial = UInt32(truncatingIfNeeded: e.userData >> 32)
            guard let o = drmDisplays.first(where: { $0.serial == serial }) else { continue }
            if o.flipCompleted(e) { flipsLanded(o) }
        }
    }

    /// `o`'s flip landed: the frame it owes goes out now; when nothing is in flight anywhere,
    /// the owner may draw the next frame.
    func flipsLanded(_ o: DRMDisplay) {
        if o.owesFrame && isActive && !closed {
            do { try o.show() } catch { log("\(o.name): showing the next frame failed: \(error)") }
        }
        if !anyFlipPending { notify(.frameDone) }
    }

    /// Waits up to `seconds` for the flips in flight to land, reading only the card's events —
    /// for the handover paths (VT switch away, quit, a flip the driver says is still queued).
    func landFlips(within seconds: Double) {
        let until = monotonicSeconds() + seconds
        while anyFlipPending {
            let left = until - monotonicSeconds()
            guard left > 0 else { break }
            var fds = [pollfd(fd: card.fd, events: Int16(POLLIN), revents: 0)]
            guard (try? card.kernel.poll(&fds, timeoutMs: Int32((left * 1000).rounded(.up)))) ?? 0 > 0 else { continue }
            guard let events = try? card.readEvents() else { break }
            for e in events where e.kind == .flipComplete {
                let serial = UInt32(truncatingIfNeeded: e.userData >> 32)
                _ = drmDisplays.first(where: { $0.serial == serial })?.flipCompleted(e)
            }
        }
    }

    // MARK: Hotplug

    func readUevents() {
        let buf = KernelArray<UInt8>(8192, zero: 0)
        var hotplug = false
        while let n = try? card.kernel.read(ueventFD, into: UnsafeMutableRawBufferPointer(start: buf.pointer, count: buf.count)), n > 0 {
            if Uevent(buf.array(n)).isDRMHotplug { hotplug = true }
        }
        guard hotplug else { return }
        hotplugs += 1
        guard isActive else { hotplugPending = true; return }
        if reenumerate() { notify(.displaysChanged) }
    }

    /// Connectors came or went: drop the heads that are gone (the others keep going), add new
    /// ones. True when the displays changed.
    func reenumerate() -> Bool {
        hotplugPending = false
        let old = drmDisplays.flatMap(\.heads)
        let planned: [DRMHead]
        do { planned = try plan(probe: true, keep: old) } catch {
            log("hotplug: cannot enumerate connectors (\(error)); keeping the outputs as they are")
            return false
        }
        let removed = old.filter { h in !planned.contains { $0 === h } }
        let added = planned.filter { h in !old.contains { $0 === h } }
        for h in removed {
            guard let o = drmDisplays.first(where: { $0.heads.contains { $0 === h } }) else { continue }
            o.remove(h)
            log("hotplug: \(h.connector.name) gone")
            if o.heads.isEmpty {
                o.releaseBuffers()
                drmDisplays.removeAll { $0 === o }
            }
        }
        for h in added {
            addHead(h)
            log("hotplug: \(h.connector.name) connected: mode=\(h.mode) crtc=\(h.crtc)")
        }
        return !(removed.isEmpty && added.isEmpty)
    }

    // MARK: Master and VT

    /// A call failed with EACCES/EPERM: someone else is master. Stop drawing and try to take it
    /// back every `masterRetry` seconds.
    func lostMaster(_ error: SysError) {
        guard isActive, !isSuspended else { return }
        log("lost DRM master (\(error)); not drawing until it is ours again")
        deactivate()
        notify(.deactivated)
        scheduleMasterRetry()
    }

    func scheduleMasterRetry() {
        guard let loop, masterTimer == nil else { return }
        masterTimer = loop.schedule(after: DRMScreen.masterRetry) { [unowned self] in
            self.masterTimer = nil
            guard !self.isActive, !self.closed, !self.isSuspended, self.vt?.released != true else { return }
            self.tryActivate()
            if !self.isActive { self.scheduleMasterRetry() }
        }
    }

    func deactivate() {
        // Let flips in flight land so we know which buffer is on screen.
        landFlips(within: 0.05)
        isActive = false
        for o in drmDisplays { o.masterLost() }
    }

    /// Tries SET_MASTER; on success redraws every display and re-reads connectors if a hotplug came.
    func tryActivate() {
        lastMasterAttempt = monotonicSeconds()
        do { try card.setMaster() } catch { return }
        isActive = true
        notify(.activated)
        if hotplugPending, reenumerate() { notify(.displaysChanged) }
        for o in drmDisplays {
            do { try o.reactivate() } catch { log("redraw on \(o.name) failed: \(error)") }
        }
        if isActive { log("display is ours again: redrawn") }
    }

    // MARK: Suspend (Plymouth's deactivate)

    public func suspend() {
        guard !isSuspended, !closed else { return }
        isSuspended = true
        if let t = masterTimer { loop?.cancel(t); masterTimer = nil }
        let was = isActive
        if isActive { deactivate() }
        try? card.dropMaster()
        log("suspended: DRM master dropped, not drawing; the last frame stays until another program sets the CRTC")
        if was { notify(.deactivated) }
    }

    public func resume() {
        guard isSuspended, !closed else { return }
        isSuspended = false
        guard vt?.released != true else { log("resumed: waiting for the VT to come back"); return }
        tryActivate()
        if isActive { log("resumed: DRM master taken again") } else {
            log("resumed: another program is master; trying again every \(DRMScreen.masterRetry) s")
            scheduleMasterRetry()
        }
    }

    public var hasActiveVT: Bool { vt.map { !$0.released } ?? false }

    public var vtHold: VirtualTerminalHold? { vt }

    /// Takes the hold of the screen before it on the same VT (see `Screen.adoptVT`); an fbdev's
    /// hold leaves graphics mode here, as DRM master keeps the console off the screen.
    public func adoptVT(_ hold: VirtualTerminalHold) -> Bool {
        guard let own = vt, let held = hold as? VTSwitcher else { return false }
        own.closeKeepingMode()
        vt = held
        if held.inGraphicsMode { held.setGraphics(false) }
        return true
    }

    public func forgetVT() { vt = nil }

    func vtRelease() {
        guard let vt else { return }
        log("VT switch away: dropping DRM master, not drawing")
        if isActive { deactivate() }
        try? card.dropMaster()
        vt.acknowledgeRelease()
        notify(.deactivated)
    }

    func vtAcquire() {
        guard let vt else { return }
        vt.acknowledgeAcquire()
        guard !isSuspended else { log("VT switch back: the screen stays suspended"); return }
        log("VT switch back: taking DRM master")
        tryActivate()
        if !isActive { scheduleMasterRetry() }
    }
}
