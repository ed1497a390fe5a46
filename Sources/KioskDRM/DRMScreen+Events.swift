import CKioskSys
import Glibc
import KioskSys

extension DRMScreen {
    /// Longest wait for a flip-complete event before assuming it was lost.
    static let flipTimeout = 1.0
    /// How often to try to become master again when the display was taken without a VT switch.
    static let masterRetry = 0.5

    /// The frame interval of the fastest output (vblank pacing), 1/60 s if unknown.
    var frameInterval: Double {
        let hz = drmOutputs.map { $0.mode.refresh }.filter { $0 > 1 }.max() ?? 60
        return 1 / hz
    }

    var anyFlipPending: Bool { drmOutputs.contains { $0.flipPending } }

    public func wait(timeout: Double?) throws -> ScreenEvents {
        let start = monotonicSeconds()
        let deadline = timeout.map { start + max(0, $0) }
        var events: ScreenEvents = []
        var polled = false
        while true {
            if !events.subtracting(.flipped).isEmpty { return events }
            let now = monotonicSeconds()
            if let d = deadline {
                if now >= d && polled { return events }
                // Flip-paced: the frame we queued is on screen and the next one is due within a frame.
                if events.contains(.flipped) && !anyFlipPending && d - now <= frameInterval { return events }
            }
            var t = deadline.map { $0 - now }
            if !isActive && vt?.released != true { t = min(t ?? DRMScreen.masterRetry, DRMScreen.masterRetry) }
            if let oldest = drmOutputs.filter(\.flipPending).map(\.flipIssuedAt).min() {
                t = min(t ?? DRMScreen.flipTimeout, max(0, oldest + DRMScreen.flipTimeout - now))
            }
            expireFlips()
            events.formUnion(try pump(timeout: t, watch: true))
            polled = true
            expireFlips()
            if !isActive && vt?.released != true && monotonicSeconds() - lastMasterAttempt >= DRMScreen.masterRetry {
                events.formUnion(tryActivate())
            }
        }
    }

    /// Waits (dispatching events) until `o`'s flip has completed — the pacing of `present`.
    func waitForFlips(of o: DRMOutput) {
        while o.flipPending && isActive {
            let left = o.flipIssuedAt + DRMScreen.flipTimeout - monotonicSeconds()
            if left <= 0 { expireFlips(); break }
            if let e = try? pump(timeout: left) { deferred.formUnion(e.subtracting(.flipped)) }
        }
    }

    /// Dispatches whatever arrives within `seconds`, keeping non-flip events for the next `wait`.
    func pumpQuietly(_ seconds: Double) {
        if let e = try? pump(timeout: seconds) { deferred.formUnion(e.subtracting(.flipped)) }
    }

    /// A flip whose event never came (driver bug, CRTC turned off under us): treat it as done.
    func expireFlips() {
        let now = monotonicSeconds()
        for o in drmOutputs where o.flipPending && now - o.flipIssuedAt > DRMScreen.flipTimeout {
            flipTimeouts += 1
            log("no flip-complete event on \(o.name) within \(DRMScreen.flipTimeout) s; assuming the flip happened")
            o.completeFlip()
        }
    }

    /// One poll over the card, signals, uevents; handles what is readable.
    /// `watch`: also poll `watchedDescriptors` (only `wait` does: they stay readable until their
    /// owner reads them).
    func pump(timeout: Double?, watch: Bool = false) throws -> ScreenEvents {
        var events = deferred
        deferred = []
        if !events.isEmpty { return events }
        var fds = [pollfd(fd: card.fd, events: Int16(POLLIN), revents: 0)]
        if signalFD >= 0 { fds.append(pollfd(fd: signalFD, events: Int16(POLLIN), revents: 0)) }
        if ueventFD >= 0 { fds.append(pollfd(fd: ueventFD, events: Int16(POLLIN), revents: 0)) }
        if watch { for fd in watchedDescriptors where fd >= 0 { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) } }
        let ms: Int32 = timeout.map { Int32(min(max(0, ($0 * 1000).rounded(.up)), 3_600_000)) } ?? -1
        guard try card.kernel.poll(&fds, timeoutMs: ms) > 0 else { return events }
        for p in fds where p.revents != 0 {
            if p.fd == card.fd { events.formUnion(try dispatchDRMEvents()) }
            if p.fd == signalFD { events.formUnion(readSignals()) }
            if p.fd == ueventFD { events.formUnion(readUevents()) }
            if watch && watchedDescriptors.contains(p.fd) { events.insert(.input) }
        }
        return events
    }

    func dispatchDRMEvents() throws -> ScreenEvents {
        var events: ScreenEvents = []
        for e in try card.readEvents() where e.kind == .flipComplete {
            let serial = UInt32(truncatingIfNeeded: e.userData >> 32)
            if let o = drmOutputs.first(where: { $0.serial == serial }) {
                let before = o.flips
                o.flipCompleted(e)
                if o.flips != before { events.insert(.flipped) }
            }
        }
        return events
    }

    func readSignals() -> ScreenEvents {
        var events: ScreenEvents = []
        let size = MemoryLayout<signalfd_siginfo>.size
        let buf = KernelArray<UInt8>(size * 8, zero: 0)
        while let n = try? card.kernel.read(signalFD, into: UnsafeMutableRawBufferPointer(start: buf.pointer, count: buf.count)), n >= size {
            for k in 0..<(n / size) {
                let signo = Int32(UnsafeRawPointer(buf.pointer + k * size).loadUnaligned(as: UInt32.self))
                switch signo {
                case SIGUSR1: events.formUnion(vtRelease())
                case SIGUSR2: events.formUnion(vtAcquire())
                default:
                    log("signal \(signo): quitting")
                    events.insert(.quit)
                }
            }
        }
        return events
    }

    func readUevents() -> ScreenEvents {
        let buf = KernelArray<UInt8>(8192, zero: 0)
        var hotplug = false
        while let n = try? card.kernel.read(ueventFD, into: UnsafeMutableRawBufferPointer(start: buf.pointer, count: buf.count)), n > 0 {
            if Uevent(buf.array(n)).isDRMHotplug { hotplug = true }
        }
        guard hotplug else { return [] }
        hotplugs += 1
        guard isActive else { hotplugPending = true; return [] }
        return reenumerate()
    }

    // MARK: Hotplug

    /// Connectors came or went: drop the heads that are gone (the others keep going), add new ones.
    func reenumerate() -> ScreenEvents {
        hotplugPending = false
        let old = drmOutputs.flatMap(\.heads)
        let planned: [DRMHead]
        do { planned = try plan(probe: true, keep: old) } catch {
            log("hotplug: cannot enumerate connectors (\(error)); keeping the outputs as they are")
            return []
        }
        let removed = old.filter { h in !planned.contains { $0 === h } }
        let added = planned.filter { h in !old.contains { $0 === h } }
        for h in removed {
            guard let o = drmOutputs.first(where: { $0.heads.contains { $0 === h } }) else { continue }
            o.remove(h)
            log("hotplug: \(h.connector.name) gone")
            if o.heads.isEmpty {
                o.releaseBuffers()
                drmOutputs.removeAll { $0 === o }
            }
        }
        for h in added {
            addHead(h)
            log("hotplug: \(h.connector.name) connected: mode=\(h.mode) crtc=\(h.crtc)")
        }
        return removed.isEmpty && added.isEmpty ? [] : .outputsChanged
    }

    // MARK: Master and VT

    /// A call failed with EACCES/EPERM: someone else is master. Stop drawing and wait.
    func lostMaster(_ error: SysError) {
        guard isActive else { return }
        log("lost DRM master (\(error)); not drawing until it is ours again")
        deactivate()
        deferred.insert(.deactivated)
    }

    func deactivate() {
        // Let flips in flight land so we know which buffer is on screen.
        let until = monotonicSeconds() + 0.05
        while anyFlipPending && monotonicSeconds() < until { _ = try? pump(timeout: until - monotonicSeconds()) }
        isActive = false
        for o in drmOutputs { o.generation &+= 1; if o.flipPending { o.completeFlip() } }
    }

    /// Tries SET_MASTER; on success redraws every output and re-reads connectors if a hotplug came.
    func tryActivate() -> ScreenEvents {
        lastMasterAttempt = monotonicSeconds()
        do { try card.setMaster() } catch { return [] }
        isActive = true
        var events: ScreenEvents = [.activated]
        if hotplugPending { events.formUnion(reenumerate()) }
        for o in drmOutputs {
            do { try o.reactivate() } catch { log("redraw on \(o.name) failed: \(error)") }
        }
        if isActive { log("display is ours again: redrawn") }
        return events
    }

    func vtRelease() -> ScreenEvents {
        guard let vt else { return [] }
        log("VT switch away: dropping DRM master, not drawing")
        if isActive { deactivate() }
        try? card.dropMaster()
        vt.acknowledgeRelease()
        return .deactivated
    }

    func vtAcquire() -> ScreenEvents {
        guard let vt else { return [] }
        vt.acknowledgeAcquire()
        log("VT switch back: taking DRM master")
        return tryActivate()
    }
}
