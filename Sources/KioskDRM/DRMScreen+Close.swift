import Glibc
import KioskSys

extension DRMScreen {
    /// Stops showing. Default: every CRTC gets back what it showed before (the console), our
    /// buffers are released, master is dropped, the card closed. `retain`: the last frame stays
    /// on screen (see `retainFrame`). Safe to call twice.
    public func close(retain: Bool) {
        guard !closed else { return }
        // Let flips in flight land: the buffer on screen is then known, nothing is mid-flip.
        landFlips(within: 0.2)
        for o in drmDisplays where o.flipPending { o.completeFlip() }
        for o in drmDisplays { o.dropOwedFrame() }
        closed = true
        let lit = drmDisplays.contains { o in o.heads.contains { $0.lit } }
        // Suspended (Plymouth's deactivate, then quit): the frame left on screen is kept as
        // well; a restore needs master back, which works when nobody else took it meanwhile.
        if isSuspended && !retain { try? card.setMaster() }
        if retain && lit && (isActive || isSuspended) {
            retainFrame()
        } else {
            for o in drmDisplays { o.restoreHeads(); o.releaseBuffers() }
        }
        try? card.dropMaster()
        releaseEventSources()
        card.close()
    }

    /// Leaves the last frame on screen after we exit, for a handover without a black flash.
    ///
    /// When the last descriptor of a DRM file closes, the kernel removes that file's
    /// framebuffers and turns off any CRTC still showing one — so the frame can only stay if the
    /// file stays open. We release what is not on screen, drop master (so the next program can
    /// take it), and fork a small keeper that holds the descriptor, checks the CRTCs every
    /// 100 ms, and exits once another program has put its own framebuffer on every one of them
    /// (then nothing of ours is on screen and closing changes nothing).
    func retainFrame() {
        var shown: [(crtc: UInt32, fb: UInt32)] = []
        for o in drmDisplays {
            guard let fb = o.frontFramebuffer else { continue }
            for h in o.heads where h.lit { shown.append((h.crtc, fb)) }
            o.releaseBuffers(keepFront: true)
        }
        try? card.dropMaster()
        let pid: Int32
        do { pid = try card.kernel.fork() } catch {
            log("retain: cannot fork the keeper (\(error)); the frame goes when we exit")
            return
        }
        if pid == 0 {
            keep(shown)   // never returns
        }
        log("retain: last frame left on screen; keeper pid \(pid) holds it until another program sets the CRTC" +
            (shown.count > 1 ? "s" : ""))
    }

    /// The keeper's loop (in the child).
    func keep(_ shown: [(crtc: UInt32, fb: UInt32)]) -> Never {
        let k = card.kernel
        k.becomeKeeper(keeping: Set([card.fd] + (vt.map { [$0.fd] } ?? [])))
        vt?.release()
        var left = shown
        while !left.isEmpty {
            k.sleep(0.1)
            left = left.filter { s in
                guard let c = try? card.crtc(s.crtc) else { return false }
                return c.fbID == s.fb
            }
        }
        k.exit(0)
    }
}
