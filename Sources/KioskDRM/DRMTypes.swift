import CKioskSys

/// A display mode (timings) as the kernel describes it: `drm_mode_modeinfo`.
public struct ModeInfo: Equatable, @unchecked Sendable, CustomStringConvertible {
    /// The kernel's struct, passed back unchanged to SETCRTC.
    public var raw: drm_mode_modeinfo

    public init(_ raw: drm_mode_modeinfo) { self.raw = raw }

    public var width: Int { Int(raw.hdisplay) }
    public var height: Int { Int(raw.vdisplay) }
    /// Refresh rate in Hz from the timings (vrefresh rounds it).
    public var refresh: Double {
        let ht = Double(raw.htotal), vt = Double(raw.vtotal)
        guard ht > 0, vt > 0, raw.clock > 0 else { return Double(raw.vrefresh) }
        var hz = Double(raw.clock) * 1000 / (ht * vt)
        if raw.flags & UInt32(DRM_MODE_FLAG_INTERLACE) != 0 { hz *= 2 }
        if raw.flags & UInt32(DRM_MODE_FLAG_DBLSCAN) != 0 { hz /= 2 }
        if raw.vscan > 1 { hz /= Double(raw.vscan) }
        return hz
    }
    public var isPreferred: Bool { raw.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0 }
    /// The kernel's name for it, e.g. "1280x800".
    public var name: String {
        withUnsafeBytes(of: raw.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    public var description: String {
        let hz = refresh
        return "\(width)x\(height)@\(hz == hz.rounded() ? String(Int(hz)) : String(Double(Int(hz * 100)) / 100))"
    }

    public static func == (a: ModeInfo, b: ModeInfo) -> Bool {
        var x = a.raw, y = b.raw
        return withUnsafeBytes(of: &x) { p in withUnsafeBytes(of: &y) { q in p.elementsEqual(q) } }
    }
}

/// Connector status (`drm_mode_get_connector.connection`).
public enum Connection: UInt32, Sendable {
    case connected = 1, disconnected = 2, unknown = 3
}

/// A connector: where a panel or monitor plugs in.
public struct ConnectorInfo: Sendable {
    public var id: UInt32
    public var type: UInt32
    public var typeID: UInt32
    public var connection: Connection
    /// Physical size in millimetres (0 when unknown).
    public var mmWidth: Int, mmHeight: Int
    /// The encoder driving it now (0: none).
    public var encoderID: UInt32
    public var encoders: [UInt32]
    public var modes: [ModeInfo]
    /// Property ids and their current values.
    public var properties: [(id: UInt32, value: UInt64)]

    /// The kernel's name, e.g. "HDMI-A-1", "eDP-1", "Virtual-2".
    public var name: String { "\(ConnectorInfo.typeName(type))-\(typeID)" }

    /// DRM's connector type names (drm_connector.c).
    public static func typeName(_ t: UInt32) -> String {
        let names = ["Unknown", "VGA", "DVI-I", "DVI-D", "DVI-A", "Composite", "SVIDEO", "LVDS", "Component",
                     "DIN", "DP", "HDMI-A", "HDMI-B", "TV", "eDP", "Virtual", "DSI", "DPI", "Writeback", "SPI", "USB"]
        return Int(t) < names.count ? names[Int(t)] : "Type\(t)"
    }
}

/// An encoder: which CRTCs it can take pixels from.
public struct EncoderInfo: Sendable {
    public var id: UInt32
    public var crtcID: UInt32
    /// Bit i set: it can be driven by the i-th CRTC of the card's resources.
    public var possibleCRTCs: UInt32
}

/// A CRTC's current configuration (what GETCRTC says), kept to restore it on quit.
public struct CRTCInfo: Sendable {
    public var id: UInt32
    public var fbID: UInt32
    public var x: UInt32, y: UInt32
    public var mode: ModeInfo?

    public init(id: UInt32, fbID: UInt32, x: UInt32, y: UInt32, mode: ModeInfo?) {
        self.id = id; self.fbID = fbID; self.x = x; self.y = y; self.mode = mode
    }
}

/// A KMS property's description.
public struct PropertyInfo: Sendable {
    public var id: UInt32
    public var name: String
    public var flags: UInt32
    public var values: [UInt64]
    /// Enum properties: value → name.
    public var enums: [(value: UInt64, name: String)]

    /// The name of an enum value.
    public func enumName(_ v: UInt64) -> String? { enums.first { $0.value == v }?.name }
}

/// The card's KMS objects (GETRESOURCES).
public struct CardResources: Sendable {
    public var crtcs: [UInt32]
    public var connectors: [UInt32]
    public var encoders: [UInt32]
    public var minWidth: Int, maxWidth: Int, minHeight: Int, maxHeight: Int
}

/// A dumb buffer as created (CREATE_DUMB).
public struct DumbBufferInfo: Sendable, Equatable {
    public var handle: UInt32
    public var pitch: Int
    public var size: Int

    public init(handle: UInt32, pitch: Int, size: Int) { self.handle = handle; self.pitch = pitch; self.size = size }
}

/// One DRM event read from the card: a completed page flip (or vblank).
public struct DRMEvent: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case flipComplete, vblank, other(UInt32) }
    public var kind: Kind
    public var userData: UInt64
    public var crtcID: UInt32
    public var sequence: UInt32
    /// Kernel timestamp of the flip, seconds.
    public var time: Double
}
