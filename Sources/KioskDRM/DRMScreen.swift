import CKioskSys
import Glibc
import KioskSeams
import KioskRaster
import KioskSys

/// How to open the DRM screen.
public struct DRMOptions {
    /// A card path (`--card`); nil: the first /dev/dri/card* whose driver supports dumb buffers.
    public var card: String?
    /// Only these connectors (names such as "HDMI-A-1"); empty: every connected one.
    public var connectors: [String] = []
    /// `--video-mode WxH[@Hz]`.
    public var mode: ModeRequest?
    /// Overrides the panel orientation property (`--rotate`, the board profile).
    public var rotation: Rotation?
    /// XRGB8888, or RGB565 when the board profile asks for it.
    public var format: PixelFormat = .xrgb8888
    /// Overrides the scale from the connector's physical size.
    public var scale: Double?
    /// Quarter-step scales (1, 1.25, …, 2) instead of 1 or 2.
    public var fractionalScale = false
    /// Listen for hotplug uevents and follow connectors coming and going.
    public var hotplug = true
    /// Take part in VT switching (VT_PROCESS) when a VT is there.
    public var vt = true
    /// Check with GETCRTC before each copy that the buffer written is not the one on screen.
    public var checkScanout = false
    /// Where log lines go.
    public var log: (String) -> Void = { _ in }
    /// A frame already on screen (kiosk-hud's frame cache) to continue, or to release.
    public var earlyFrame: EarlyFrame?
    /// Without `card`: cards whose driver has one of these names are passed over (while waiting
    /// for the real display: "simpledrm", the firmware's framebuffer, which goes away when the
    /// board's own driver takes the display: the switch).
    public var ignoredDrivers: Set<String> = []

    public init() {}
}

/// A head: one connector with its CRTC and mode, and what the CRTC showed before us.
public final class DRMHead {
    public let connector: ConnectorInfo
    public let crtc: UInt32
    public let mode: ModeInfo
    public let modeChoice: ModeChoice
    public let rotation: Rotation
    /// Where the rotation came from: "--rotate", "panel orientation: Left Side Up", "default".
    public let rotationSource: String
    public let scale: Double
    let saved: CRTCInfo?
    /// SETCRTC done with one of our framebuffers.
    var lit = false

    init(connector: ConnectorInfo, crtc: UInt32, mode: ModeInfo, modeChoice: ModeChoice, rotation: Rotation,
         rotationSource: String, scale: Double, saved: CRTCInfo?) {
        self.connector = connector; self.crtc = crtc; self.mode = mode; self.modeChoice = modeChoice
        self.rotation = rotation; self.rotationSource = rotationSource; self.scale = scale; self.saved = saved
    }

    /// Picture size after rotation.
    var pictureSize: (Int, Int) {
        rotation == .quarter || rotation == .threeQuarters ? (mode.height, mode.width) : (mode.width, mode.height)
    }
}

/// The DRM/KMS screen: one card, an output per group of heads with the same mode and rotation,
/// two dumb buffers each, page flips paced by the kernel's flip events, DRM master held only
/// while showing, hotplug, VT switching, and a clean way out (restore, or retain the last frame).
public final class DRMScreen: Screen, DRMDisplayOwner {
    public var backend: ScreenBackend { .drm }
    public let card: DRMCard
    /// What the displays change too: the driver's answers, the summary's counters.
    let shared: DRMSharedState
    public private(set) var driver = ""
    public let options: DRMOptions
    var log: (String) -> Void { options.log }
    public internal(set) var drmDisplays: [DRMDisplay] = []
    public var displays: [Display] { drmDisplays }
    public internal(set) var isActive = true
    /// The owner let the screen go (`suspend`): master is not taken again until `resume`.
    public internal(set) var isSuspended = false
    var closed = false
    var isClosed: Bool { closed }
    var nextSerial: UInt32 = 1
    /// DIRTYFB still worth calling (false after ENOSYS).
    var dirtySupported: Bool { shared.dirtySupported }
    /// Page flips still worth trying (false after the driver refused one).
    var flipsSupported: Bool { shared.flipsSupported }
    /// A hotplug came while we were not master: enumerate when we are again.
    var hotplugPending = false
    var ueventFD: Int32 = -1
    var vt: VTSwitcher?
    var lastMasterAttempt = 0.0
    var originalCRTCs: [UInt32: CRTCInfo] = [:]
    /// The loop it is attached to, the owner's handler, and what it registered there.
    var loop: EventLoop?
    var handler: ((ScreenEvent) -> Void)?
    var tokens: [LoopToken] = []
    var flipTimer: LoopToken?
    var masterTimer: LoopToken?
    // Counters
    public var flipsCompleted: Int { shared.flipsCompleted }
    public internal(set) var flipTimeouts = 0
    public var scanoutViolations: Int { shared.scanoutViolations }
    public var presents: Int { shared.presents }
    /// Presents that never got a flip of their own: a later present replaced them while a flip
    /// was in flight (or they went out with a redraw, or the screen closed first). So
    /// presents = flips + first frames + coalesced.
    public var coalesced: Int { shared.coalesced }
    public internal(set) var hotplugs = 0
    /// What became of `DRMOptions.earlyFrame`; nil without one.
    public private(set) var earlyFrameUse: EarlyFrameUse?

    /// Opens the card, becomes DRM master, finds the connected connectors, assigns CRTCs and
    /// modes. Nothing is shown until a display's first `present` (which sets the CRTC with that
    /// frame), so the screen never shows a black buffer first. Everything opened is closed again
    /// if a step fails. VT switches are followed from `attach` on.
    public init(options: DRMOptions, kernel: Kernel = LinuxKernel()) throws {
        self.options = options
        let card: DRMCard
        var early = options.earlyFrame
        if let e = early, options.card.map({ $0 != e.card }) ?? false {
            let other = DRMCard(adopting: e.fd, path: e.card, kernel: kernel)
            DRMScreen.release(e, on: other)
            other.close()
            early = nil
            earlyFrameUse = .released("it is on \(e.card), not \(options.card ?? "")")
        }
        if let e = early {
            card = DRMCard(adopting: e.fd, path: e.card, kernel: kernel)
        } else if let path = options.card {
            card = try DRMCard(path: path, kernel: kernel)
            do {
                guard try card.capability(UInt64(DRM_CAP_DUMB_BUFFER)) != 0 else {
                    throw ScreenError.unsupported("\(path): the driver has no dumb buffers")
                }
            } catch { card.close(); throw error }
        } else {
            card = try DRMScreen.findCard(kernel: kernel, ignoring: options.ignoredDrivers)
        }
        self.card = card
        shared = DRMSharedState(card: card, options: options)
        do {
            driver = try card.driverName()
            do throws(SysError) { try card.setMaster() } catch {
                throw DRMMasterRefused(error) ?? error
            }
            if let e = early { originalCRTCs[e.crtcID] = e.saved }
            let heads = try plan(probe: false, keep: [])
            guard !heads.isEmpty else {
                throw ScreenError.noConnector("\(card.path) (\(driver)): no connected connector" +
                                            (options.connectors.isEmpty ? "" : " named \(options.connectors.joined(separator: ", "))"))
            }
            for h in heads { addHead(h) }
            if let e = early {
                early = nil
                if continueEarlyFrame(e) {
                    earlyFrameUse = .continued
                } else {
                    DRMScreen.release(e, on: card)
                    earlyFrameUse = .released("connector \(e.connectorID) on CRTC \(e.crtcID) at \(e.mode) is not in the plan")
                }
            }
            if options.hotplug {
                do { ueventFD = try kernel.ueventDescriptor() } catch {
                    log("hotplug: cannot listen for uevents (\(error)); connectors are fixed")
                }
            }
        } catch {
            if let e = early { DRMScreen.release(e, on: card) }
            for o in drmDisplays { o.restoreHeads(); o.releaseBuffers() }
            releaseEventSources()
            try? card.dropMaster()
            card.close()
            throw error
        }
    }

    /// The first /dev/dri/card* (in number order) whose driver supports dumb buffers and has
    /// connectors (render-only GPUs have neither). If no card qualifies because calls failed, the
    /// first failure is thrown (it names the call).
    static func findCard(kernel: Kernel, ignoring ignored: Set<String> = []) throws -> DRMCard {
        let names = (kernel.listDirectory("/dev/dri") ?? []).filter { $0.hasPrefix("card") }
            .sorted { (Int($0.dropFirst(4)) ?? 0) < (Int($1.dropFirst(4)) ?? 0) }
        var tried: [String] = []
        var firstError: SysError?
        for n in names {
            let path = "/dev/dri/" + n
            do throws(SysError) {
                let card = try DRMCard(path: path, kernel: kernel)
                do throws(SysError) {
                    let dumb = try card.capability(UInt64(DRM_CAP_DUMB_BUFFER))
                    let conns = dumb != 0 ? try card.connectorCount() : 0
                    let driver = ignored.isEmpty || dumb == 0 || conns == 0 ? nil : try card.driverName()
                    if dumb != 0 && conns > 0 && !ignored.contains(driver ?? "") { return card }
                    tried.append("\(path): \(dumb == 0 ? "no dumb buffers" : conns == 0 ? "no connectors" : "\(driver ?? "") passed over")")
                } catch {
                    card.close()
                    throw error
                }
                card.close()
            } catch {
                firstError = firstError ?? error
                tried.append("\(path): \(error)")
            }
        }
        if let firstError { throw firstError }
        throw ScreenError.noCard(names.isEmpty ? "no DRM device (/dev/dri/card*)" : "no usable DRM card: " + tried.joined(separator: "; "))
    }

    // MARK: Enumeration

    /// The heads to show on: connected desktop connectors (optionally filtered), each with a CRTC
    /// and a mode. `keep`: heads already lit, which keep their CRTCs.
    func plan(probe: Bool, keep: [DRMHead]) throws -> [DRMHead] {
        let res = try card.resources()
        var conns: [ConnectorInfo] = []
        for id in res.connectors {
            var c = try card.connector(id, probe: probe)
            if !probe && (c.connection == .unknown || (c.connection == .connected && c.modes.isEmpty)) {
                c = try card.connector(id, probe: true)
            }
            guard c.connection == .connected, !c.modes.isEmpty else { continue }
            if !options.connectors.isEmpty && !options.connectors.contains(c.name) { continue }
            if try isNonDesktop(c) { log("\(c.name): non-desktop (VR headset), skipped"); continue }
            conns.append(c)
        }
        // CRTC candidates: a kept head's own CRTC; else the one the encoder drives now; then any.
        let taken = Set(keep.map(\.crtc))
        var wants: [[UInt32]] = []
        for c in conns {
            if let k = keep.first(where: { $0.connector.id == c.id }) { wants.append([k.crtc]); continue }
            var list: [UInt32] = []
            if c.encoderID != 0, let e = try? card.encoder(c.encoderID), e.crtcID != 0 { list.append(e.crtcID) }
            for eid in c.encoders {
                guard let e = try? card.encoder(eid) else { continue }
                for (i, crtc) in res.crtcs.enumerated() where e.possibleCRTCs & (1 << UInt32(i)) != 0 && !list.contains(crtc) {
                    list.append(crtc)
                }
            }
            wants.append(list.filter { !taken.contains($0) })
        }
        let crtcs = assignCRTCs(wants)
        var heads: [DRMHead] = []
        for (c, crtc) in zip(conns, crtcs) {
            guard let crtc else { log("\(c.name): no free CRTC, not used"); continue }
            let kept = keep.first(where: { $0.connector.id == c.id && $0.crtc == crtc })
            let saved = try kept.map { $0.saved } ?? originalState(of: crtc)
            guard let (mode, why, missed) = chooseMode(c.modes, request: options.mode, active: kept?.mode ?? saved?.mode) else { continue }
            if let k = kept, k.mode == mode { heads.append(k); continue }   // unchanged: keep it lit
            if missed, let r = options.mode { log("\(c.name): no \(r) mode; using the \(why.rawValue) one") }
            let (rotation, source) = try rotationFor(c)
            let scale = options.scale ?? deviceScale(width: mode.width, height: mode.height, mmWidth: c.mmWidth,
                                                     mmHeight: c.mmHeight, fractional: options.fractionalScale)
            heads.append(DRMHead(connector: c, crtc: crtc, mode: mode, modeChoice: why, rotation: rotation,
                                 rotationSource: source, scale: scale, saved: saved))
        }
        return heads
    }

    /// What a CRTC showed before we first touched it (kept across hotplug, for the restore).
    func originalState(of crtc: UInt32) throws -> CRTCInfo {
        if let c = originalCRTCs[crtc] { return c }
        let c = try card.crtc(crtc)
        originalCRTCs[crtc] = c
        return c
    }

    func isNonDesktop(_ c: ConnectorInfo) throws -> Bool {
        for p in c.properties where try card.property(p.id).name == "non-desktop" { return p.value != 0 }
        return false
    }

    func rotationFor(_ c: ConnectorInfo) throws -> (Rotation, String) {
        if let r = options.rotation { return (r, "override") }
        for p in c.properties {
            let info = try card.property(p.id)
            guard info.name == "panel orientation", let name = info.enumName(p.value) else { continue }
            if let r = rotation(forPanelOrientation: name) { return (r, "panel orientation: \(name)") }
        }
        return (.none, "default")
    }

    /// Puts a head into the output with its geometry (clone), or a new output.
    func addHead(_ h: DRMHead) {
        let (w, hgt) = h.pictureSize
        if let o = drmDisplays.first(where: { $0.width == w && $0.height == hgt && $0.mode.width == h.mode.width
                                              && $0.mode.height == h.mode.height && $0.transform.rotation == h.rotation }) {
            o.join(h)
            return
        }
        let o = DRMDisplay(owner: self, shared: shared, serial: nextSerial, head: h, format: options.format)
        nextSerial += 1
        drmDisplays.append(o)
    }

    /// The log line for an output.
    public func describe(_ o: DRMDisplay) -> String {
        o.heads.map { h in
            "card=\(card.path) driver=\(driver) connector=\(h.connector.name) crtc=\(h.crtc) mode=\(h.mode) (\(h.modeChoice.rawValue)) " +
            "rotation=\(h.rotation.rawValue) (\(h.rotationSource)) scale=\(formatScale(h.scale)) " +
            "size_mm=\(h.connector.mmWidth)x\(h.connector.mmHeight) format=\(o.preferredFormat)"
        }.joined(separator: "; ")
    }

    public var summary: String {
        "flips=\(flipsCompleted) presents=\(presents) coalesced=\(coalesced) flip_timeouts=\(flipTimeouts) scanout_violations=\(scanoutViolations) " +
        "hotplugs=\(hotplugs) page_flip=\(flipsSupported ? "yes" : "no (SetCrtc)") dirtyfb=\(dirtySupported ? "yes" : "ENOSYS")"
    }

    func releaseEventSources() {
        for t in tokens + [flipTimer, masterTimer].compactMap({ $0 }) { loop?.cancel(t) }
        tokens = []; flipTimer = nil; masterTimer = nil
        loop = nil; handler = nil
        if ueventFD >= 0 { card.kernel.close(ueventFD); ueventFD = -1 }
        vt?.release()
        vt = nil
    }
}

func formatScale(_ s: Double) -> String { s == s.rounded() ? String(Int(s)) : String(s) }
