import CKioskSys
import Glibc
import KioskSys

/// Kernel-owned scratch arrays for two-pass GET ioctls (count first, then fill).
final class KernelArray<T> {
    let pointer: UnsafeMutablePointer<T>
    let count: Int
    init(_ count: Int, zero: T) {
        self.count = count
        pointer = .allocate(capacity: max(count, 1))
        pointer.initialize(repeating: zero, count: max(count, 1))
    }
    deinit { pointer.deallocate() }
    var address: UInt64 { UInt64(UInt(bitPattern: pointer)) }
    func array(_ n: Int) -> [T] { Array(UnsafeBufferPointer(start: pointer, count: min(n, count))) }
}

/// An open DRM card: every KMS call the backend makes, each a typed wrapper over one ioctl
/// (the ones libdrm's `drmMode*` functions issue), through `ioctl(_:_:_:)` — the single place
/// that retries EINTR/EAGAIN (as `drmIoctl` does) and names the failing call and errno.
public final class DRMCard {
    public let kernel: Kernel
    public let fd: Int32
    public let path: String
    private var closed = false
    private var propertyCache: [UInt32: PropertyInfo] = [:]

    /// Opens `path` read/write, non-blocking (events are read after poll says so).
    public init(path: String, kernel: Kernel) throws(SysError) {
        self.kernel = kernel
        self.path = path
        fd = try kernel.open(path, flags: O_RDWR | O_NONBLOCK)
    }

    /// Owns a descriptor already open on `path` (the early frame's, a carried-over screen's).
    public init(adopting fd: Int32, path: String, kernel: Kernel) {
        self.kernel = kernel
        self.path = path
        self.fd = fd
    }

    /// Closes the descriptor (idempotent). The kernel drops master and removes our FBs then.
    public func close() {
        guard !closed else { return }
        closed = true
        kernel.close(fd)
    }

    deinit { close() }

    /// Lets go of the descriptor without closing it (someone else owns it now).
    func forget() { closed = true }

    /// The one ioctl call site: retries EINTR and EAGAIN, errors name the request.
    @discardableResult
    public func ioctl<T>(_ request: UInt, _ name: String, _ arg: inout T) throws(SysError) -> T {
        while true {
            do {
                try withUnsafeMutablePointer(to: &arg) { (p) throws(SysError) in
                    try kernel.ioctl(fd, request, UnsafeMutableRawPointer(p), name: name)
                }
                return arg
            } catch where error.errno == EINTR || error.errno == EAGAIN {
                continue
            }
        }
    }

    /// An ioctl without an argument (SET_MASTER, DROP_MASTER).
    func ioctlNoArg(_ request: UInt, _ name: String) throws(SysError) {
        while true {
            do {
                try kernel.ioctl(fd, request, nil, name: name)
                return
            } catch where error.errno == EINTR || error.errno == EAGAIN {
                continue
            }
        }
    }

    // MARK: Device

    /// The driver's name (DRM_IOCTL_VERSION), e.g. "bochs-drm", "virtio_gpu", "vc4".
    public func driverName() throws(SysError) -> String {
        var v = drm_version()
        try ioctl(KIOSK_DRM_IOCTL_VERSION, "DRM_IOCTL_VERSION", &v)
        let n = Int(v.name_len)
        let buf = KernelArray<CChar>(n + 1, zero: 0)
        var v2 = drm_version()
        v2.name_len = UInt(n)
        v2.name = buf.pointer
        try ioctl(KIOSK_DRM_IOCTL_VERSION, "DRM_IOCTL_VERSION", &v2)
        return String(decoding: UnsafeRawBufferPointer(start: buf.pointer, count: min(n, Int(v2.name_len))), as: UTF8.self)
    }

    /// DRM_IOCTL_GET_CAP.
    public func capability(_ cap: UInt64) throws(SysError) -> UInt64 {
        var c = drm_get_cap(capability: cap, value: 0)
        try ioctl(KIOSK_DRM_IOCTL_GET_CAP, "DRM_IOCTL_GET_CAP", &c)
        return c.value
    }

    /// Becomes DRM master (needed for SETCRTC, PAGE_FLIP).
    public func setMaster() throws(SysError) { try ioctlNoArg(KIOSK_DRM_IOCTL_SET_MASTER, "DRM_IOCTL_SET_MASTER") }

    /// Gives DRM master up (a VT switch, a handover).
    public func dropMaster() throws(SysError) { try ioctlNoArg(KIOSK_DRM_IOCTL_DROP_MASTER, "DRM_IOCTL_DROP_MASTER") }

    // MARK: Objects

    /// GETRESOURCES, twice (counts, then ids), again if the counts grew in between.
    public func resources() throws(SysError) -> CardResources {
        while true {
            var r = drm_mode_card_res()
            try ioctl(KIOSK_DRM_IOCTL_MODE_GETRESOURCES, "DRM_IOCTL_MODE_GETRESOURCES", &r)
            let crtcs = KernelArray<UInt32>(Int(r.count_crtcs), zero: 0)
            let conns = KernelArray<UInt32>(Int(r.count_connectors), zero: 0)
            let encs = KernelArray<UInt32>(Int(r.count_encoders), zero: 0)
            let fbs = KernelArray<UInt32>(Int(r.count_fbs), zero: 0)
            var r2 = r
            r2.crtc_id_ptr = crtcs.address; r2.connector_id_ptr = conns.address
            r2.encoder_id_ptr = encs.address; r2.fb_id_ptr = fbs.address
            try ioctl(KIOSK_DRM_IOCTL_MODE_GETRESOURCES, "DRM_IOCTL_MODE_GETRESOURCES", &r2)
            if r2.count_crtcs > r.count_crtcs || r2.count_connectors > r.count_connectors
                || r2.count_encoders > r.count_encoders || r2.count_fbs > r.count_fbs { continue }
            return CardResources(crtcs: crtcs.array(Int(r2.count_crtcs)), connectors: conns.array(Int(r2.count_connectors)),
                                 encoders: encs.array(Int(r2.count_encoders)),
                                 minWidth: Int(r2.min_width), maxWidth: Int(r2.max_width),
                                 minHeight: Int(r2.min_height), maxHeight: Int(r2.max_height))
        }
    }

    /// How many connectors the card has (one GETRESOURCES, counts only); render-only GPUs fail it.
    public func connectorCount() throws(SysError) -> Int {
        var r = drm_mode_card_res()
        try ioctl(KIOSK_DRM_IOCTL_MODE_GETRESOURCES, "DRM_IOCTL_MODE_GETRESOURCES", &r)
        return Int(r.count_connectors)
    }

    /// GETCONNECTOR. `probe: false` (libdrm's drmModeGetConnectorCurrent) reports what the kernel
    /// knows without re-probing the monitor (an EDID read can take tens of ms); `probe: true`
    /// asks the driver to detect again (after a hotplug event).
    public func connector(_ id: UInt32, probe: Bool) throws(SysError) -> ConnectorInfo {
        while true {
            var c = drm_mode_get_connector()
            c.connector_id = id
            let stackMode = KernelArray<drm_mode_modeinfo>(1, zero: drm_mode_modeinfo())
            if !probe { c.count_modes = 1; c.modes_ptr = stackMode.address }
            try ioctl(KIOSK_DRM_IOCTL_MODE_GETCONNECTOR, "DRM_IOCTL_MODE_GETCONNECTOR", &c)
            let nModes = Int(c.count_modes), nProps = Int(c.count_props), nEnc = Int(c.count_encoders)
            let modes = KernelArray<drm_mode_modeinfo>(nModes, zero: drm_mode_modeinfo())
            let props = KernelArray<UInt32>(nProps, zero: 0)
            let values = KernelArray<UInt64>(nProps, zero: 0)
            let encs = KernelArray<UInt32>(nEnc, zero: 0)
            var c2 = drm_mode_get_connector()
            c2.connector_id = id
            // Never count_modes == 0 here: that would make the kernel probe again.
            c2.count_modes = UInt32(max(nModes, 1)); c2.modes_ptr = nModes > 0 ? modes.address : stackMode.address
            c2.count_props = UInt32(nProps); c2.props_ptr = props.address; c2.prop_values_ptr = values.address
            c2.count_encoders = UInt32(nEnc); c2.encoders_ptr = encs.address
            try ioctl(KIOSK_DRM_IOCTL_MODE_GETCONNECTOR, "DRM_IOCTL_MODE_GETCONNECTOR", &c2)
            if Int(c2.count_modes) > max(nModes, 1) || Int(c2.count_props) > nProps || Int(c2.count_encoders) > nEnc { continue }
            let m = nModes > 0 ? modes.array(Int(c2.count_modes)).map(ModeInfo.init) : []
            let pids = props.array(Int(c2.count_props)), pvals = values.array(Int(c2.count_props))
            return ConnectorInfo(id: id, type: c2.connector_type, typeID: c2.connector_type_id,
                                 connection: Connection(rawValue: c2.connection) ?? .unknown,
                                 mmWidth: Int(c2.mm_width), mmHeight: Int(c2.mm_height), encoderID: c2.encoder_id,
                                 encoders: encs.array(Int(c2.count_encoders)), modes: m,
                                 properties: Array(zip(pids, pvals)).map { (id: $0.0, value: $0.1) })
        }
    }

    /// GETENCODER.
    public func encoder(_ id: UInt32) throws(SysError) -> EncoderInfo {
        var e = drm_mode_get_encoder()
        e.encoder_id = id
        try ioctl(KIOSK_DRM_IOCTL_MODE_GETENCODER, "DRM_IOCTL_MODE_GETENCODER", &e)
        return EncoderInfo(id: id, crtcID: e.crtc_id, possibleCRTCs: e.possible_crtcs)
    }

    /// GETCRTC.
    public func crtc(_ id: UInt32) throws(SysError) -> CRTCInfo {
        var c = drm_mode_crtc()
        c.crtc_id = id
        try ioctl(KIOSK_DRM_IOCTL_MODE_GETCRTC, "DRM_IOCTL_MODE_GETCRTC", &c)
        return CRTCInfo(id: id, fbID: c.fb_id, x: c.x, y: c.y, mode: c.mode_valid != 0 ? ModeInfo(c.mode) : nil)
    }

    /// SETCRTC: shows `fb` on `crtc` driving `connectors` in `mode`; fb 0 and no mode turn it off.
    public func setCRTC(_ crtc: UInt32, fb: UInt32, x: UInt32 = 0, y: UInt32 = 0, connectors: [UInt32], mode: ModeInfo?) throws(SysError) {
        let ids = KernelArray<UInt32>(connectors.count, zero: 0)
        for (i, c) in connectors.enumerated() { ids.pointer[i] = c }
        var c = drm_mode_crtc()
        c.crtc_id = crtc
        c.fb_id = fb
        c.x = x; c.y = y
        c.set_connectors_ptr = connectors.isEmpty ? 0 : ids.address
        c.count_connectors = UInt32(connectors.count)
        if let mode { c.mode = mode.raw; c.mode_valid = 1 }
        try ioctl(KIOSK_DRM_IOCTL_MODE_SETCRTC, "DRM_IOCTL_MODE_SETCRTC", &c)
    }

    /// Gives `crtc` back what it showed before (`saved`: its framebuffer, position and mode, on
    /// `connector`), or turns it off when that is gone or cannot be set. Throws only when turning
    /// it off fails too.
    func restoreCRTC(_ crtc: UInt32, to saved: CRTCInfo?, connector: UInt32) throws(SysError) {
        if let s = saved, let m = s.mode, s.fbID != 0,
           (try? setCRTC(crtc, fb: s.fbID, x: s.x, y: s.y, connectors: [connector], mode: m)) != nil {
            return
        }
        try setCRTC(crtc, fb: 0, connectors: [], mode: nil)
    }

    /// GETPROPERTY (cached by id: a property's description never changes).
    public func property(_ id: UInt32) throws(SysError) -> PropertyInfo {
        if let p = propertyCache[id] { return p }
        while true {
            var p = drm_mode_get_property()
            p.prop_id = id
            try ioctl(KIOSK_DRM_IOCTL_MODE_GETPROPERTY, "DRM_IOCTL_MODE_GETPROPERTY", &p)
            let isEnum = p.flags & UInt32(DRM_MODE_PROP_ENUM | DRM_MODE_PROP_BITMASK) != 0
            let nv = Int(p.count_values), ne = isEnum ? Int(p.count_enum_blobs) : 0
            let values = KernelArray<UInt64>(nv, zero: 0)
            let enums = KernelArray<drm_mode_property_enum>(ne, zero: drm_mode_property_enum())
            var p2 = drm_mode_get_property()
            p2.prop_id = id
            p2.count_values = UInt32(nv); p2.values_ptr = values.address
            p2.count_enum_blobs = UInt32(ne); p2.enum_blob_ptr = ne > 0 ? enums.address : 0
            try ioctl(KIOSK_DRM_IOCTL_MODE_GETPROPERTY, "DRM_IOCTL_MODE_GETPROPERTY", &p2)
            if Int(p2.count_values) > nv || (isEnum && Int(p2.count_enum_blobs) > ne) { continue }
            let name = withUnsafeBytes(of: p2.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let en = enums.array(isEnum ? Int(p2.count_enum_blobs) : 0).map { e in
                (value: e.value, name: withUnsafeBytes(of: e.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
            }
            let info = PropertyInfo(id: id, name: name, flags: p2.flags, values: values.array(Int(p2.count_values)), enums: en)
            propertyCache[id] = info
            return info
        }
    }

    // MARK: Buffers

    /// CREATE_DUMB: a `width`×`height` buffer of `bpp` bits per pixel.
    public func createDumb(width: Int, height: Int, bpp: Int) throws(SysError) -> DumbBufferInfo {
        var c = drm_mode_create_dumb()
        c.width = UInt32(width); c.height = UInt32(height); c.bpp = UInt32(bpp)
        try ioctl(KIOSK_DRM_IOCTL_MODE_CREATE_DUMB, "DRM_IOCTL_MODE_CREATE_DUMB", &c)
        return DumbBufferInfo(handle: c.handle, pitch: Int(c.pitch), size: Int(c.size))
    }

    /// MAP_DUMB: the offset to mmap the buffer at.
    public func mapDumbOffset(_ handle: UInt32) throws(SysError) -> Int {
        var m = drm_mode_map_dumb()
        m.handle = handle
        try ioctl(KIOSK_DRM_IOCTL_MODE_MAP_DUMB, "DRM_IOCTL_MODE_MAP_DUMB", &m)
        return Int(m.offset)
    }

    /// DESTROY_DUMB.
    public func destroyDumb(_ handle: UInt32) throws(SysError) {
        var d = drm_mode_destroy_dumb()
        d.handle = handle
        try ioctl(KIOSK_DRM_IOCTL_MODE_DESTROY_DUMB, "DRM_IOCTL_MODE_DESTROY_DUMB", &d)
    }

    /// ADDFB2: a framebuffer over one dumb buffer.
    public func addFramebuffer(width: Int, height: Int, fourcc: UInt32, handle: UInt32, pitch: Int) throws(SysError) -> UInt32 {
        var f = drm_mode_fb_cmd2()
        f.width = UInt32(width); f.height = UInt32(height); f.pixel_format = fourcc
        f.handles.0 = handle; f.pitches.0 = UInt32(pitch)
        try ioctl(KIOSK_DRM_IOCTL_MODE_ADDFB2, "DRM_IOCTL_MODE_ADDFB2", &f)
        return f.fb_id
    }

    /// RMFB. (The kernel turns off any CRTC still showing it.)
    public func removeFramebuffer(_ id: UInt32) throws(SysError) {
        var i = id
        try ioctl(KIOSK_DRM_IOCTL_MODE_RMFB, "DRM_IOCTL_MODE_RMFB", &i)
    }

    /// PAGE_FLIP with an event: `fb` goes on screen at the next vblank; `userData` comes back in
    /// the flip-complete event.
    public func pageFlip(crtc: UInt32, fb: UInt32, userData: UInt64) throws(SysError) {
        var f = drm_mode_crtc_page_flip()
        f.crtc_id = crtc; f.fb_id = fb; f.flags = UInt32(DRM_MODE_PAGE_FLIP_EVENT); f.user_data = userData
        try ioctl(KIOSK_DRM_IOCTL_MODE_PAGE_FLIP, "DRM_IOCTL_MODE_PAGE_FLIP", &f)
    }

    /// DIRTYFB: tells drivers that copy (SPI/USB panels, virtio) which rectangles changed.
    public func dirtyFramebuffer(_ fb: UInt32, clips: [(x1: Int, y1: Int, x2: Int, y2: Int)]) throws(SysError) {
        let arr = KernelArray<drm_clip_rect>(clips.count, zero: drm_clip_rect())
        for (i, c) in clips.enumerated() {
            arr.pointer[i] = drm_clip_rect(x1: UInt16(clamping: c.x1), y1: UInt16(clamping: c.y1),
                                           x2: UInt16(clamping: c.x2), y2: UInt16(clamping: c.y2))
        }
        var d = drm_mode_fb_dirty_cmd()
        d.fb_id = fb; d.num_clips = UInt32(clips.count); d.clips_ptr = clips.isEmpty ? 0 : arr.address
        try ioctl(KIOSK_DRM_IOCTL_MODE_DIRTYFB, "DRM_IOCTL_MODE_DIRTYFB", &d)
    }

    /// mmap of a dumb buffer.
    public func map(offset: Int, length: Int) throws(SysError) -> UnsafeMutableRawPointer {
        try kernel.mmap(fd, length: length, offset: offset)
    }

    public func unmap(_ p: UnsafeMutableRawPointer, length: Int) { kernel.munmap(p, length: length) }

    // MARK: Events

    /// Reads and parses the pending DRM events (none if nothing is there: the fd is non-blocking).
    public func readEvents() throws(SysError) -> [DRMEvent] {
        let buf = KernelArray<UInt8>(1024, zero: 0)
        let n: Int
        do { n = try kernel.read(fd, into: UnsafeMutableRawBufferPointer(start: buf.pointer, count: buf.count)) } catch where error.errno == EAGAIN {
            return []
        }
        return DRMCard.parseEvents(buf.array(n)[...])
    }

    /// Parses `struct drm_event` records (header: type, length).
    static func parseEvents(_ bytes: ArraySlice<UInt8>) -> [DRMEvent] {
        var out: [DRMEvent] = []
        let b = Array(bytes)
        var i = 0
        func u32(_ o: Int) -> UInt32 { UInt32(b[o]) | UInt32(b[o + 1]) << 8 | UInt32(b[o + 2]) << 16 | UInt32(b[o + 3]) << 24 }
        func u64(_ o: Int) -> UInt64 { UInt64(u32(o)) | UInt64(u32(o + 4)) << 32 }
        while i + 8 <= b.count {
            let type = u32(i), length = Int(u32(i + 4))
            guard length >= 8, i + length <= b.count else { break }
            if (type == UInt32(DRM_EVENT_FLIP_COMPLETE) || type == UInt32(DRM_EVENT_VBLANK)) && length >= 32 {
                // struct drm_event_vblank: base(8) user_data(8) tv_sec(4) tv_usec(4) sequence(4) crtc_id(4)
                let t = Double(u32(i + 16)) + Double(u32(i + 20)) * 1e-6
                out.append(DRMEvent(kind: type == UInt32(DRM_EVENT_FLIP_COMPLETE) ? .flipComplete : .vblank,
                                    userData: u64(i + 8), crtcID: u32(i + 28), sequence: u32(i + 24), time: t))
            } else {
                out.append(DRMEvent(kind: .other(type), userData: 0, crtcID: 0, sequence: 0, time: 0))
            }
            i += length
        }
        return out
    }
}
