import KioskSeams

/// A mode asked for on the command line: `WxH` or `WxH@Hz`.
public struct ModeRequest: Equatable, Sendable, CustomStringConvertible {
    public var width: Int, height: Int
    public var refresh: Double?

    public init(width: Int, height: Int, refresh: Double? = nil) {
        self.width = width; self.height = height; self.refresh = refresh
    }

    /// Parses "1280x800" or "1280x800@60" (also "59.94"); nil if malformed.
    public init?(parsing s: String) {
        let parts = s.lowercased().split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { return nil }
        let wh = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard wh.count == 2, let w = Int(wh[0]), let h = Int(wh[1]), w > 0, h > 0, w <= 16384, h <= 16384 else { return nil }
        width = w; height = h
        if parts.count == 2 {
            guard let hz = Double(parts[1]), hz.isFinite, hz > 0, hz < 1000 else { return nil }
            refresh = hz
        }
    }

    public var description: String { "\(width)x\(height)" + (refresh.map { "@\($0 == $0.rounded() ? String(Int($0)) : String($0))" } ?? "") }
}

/// Why a mode was chosen (logged).
public enum ModeChoice: String, Sendable {
    case requested, preferred, active, first
}

/// Picks the mode for a connector: the requested one (closest refresh when `@Hz` is given), else
/// the preferred one, else the one its CRTC shows now, else the first. A request that matches no
/// mode falls through to the next rule (and `chooseMode` says so through `requestMissed`).
public func chooseMode(_ modes: [ModeInfo], request: ModeRequest?, active: ModeInfo?)
    -> (mode: ModeInfo, why: ModeChoice, requestMissed: Bool)?
{
    guard !modes.isEmpty || active != nil else { return nil }
    var missed = false
    if let r = request {
        let sized = modes.filter { $0.width == r.width && $0.height == r.height }
        if let hz = r.refresh {
            if let best = sized.min(by: { abs($0.refresh - hz) < abs($1.refresh - hz) }), abs(best.refresh - hz) < 1 {
                return (best, .requested, false)
            }
        } else if let m = sized.first(where: \.isPreferred) ?? sized.first {
            return (m, .requested, false)
        }
        missed = true
    }
    if let m = modes.first(where: \.isPreferred) { return (m, .preferred, missed) }
    if let a = active { return (a, .active, missed) }
    return (modes[0], .first, missed)
}

/// Assigns CRTCs to connectors so that as many as possible get one: each connector prefers the
/// CRTC its encoder drives now (no flicker, no extra modeset work), then any its encoders can
/// use. A small backtracking search (connectors are few) like Plymouth's `setup_outputs`.
///
/// - Parameters:
///   - wants: per connector, the CRTC ids it can use, best first.
/// - Returns: per connector, the CRTC id or nil.
public func assignCRTCs(_ wants: [[UInt32]]) -> [UInt32?] {
    var best: [UInt32?] = Array(repeating: nil, count: wants.count)
    var bestCount = -1
    var current: [UInt32?] = Array(repeating: nil, count: wants.count)
    var used = Set<UInt32>()
    func search(_ i: Int, _ count: Int) {
        if count + (wants.count - i) <= bestCount { return }
        if i == wants.count {
            if count > bestCount { bestCount = count; best = current }
            return
        }
        for c in wants[i] where !used.contains(c) {
            used.insert(c); current[i] = c
            search(i + 1, count + 1)
            used.remove(c); current[i] = nil
            if bestCount == wants.count { return }
        }
        search(i + 1, count)
    }
    search(0, 0)
    return best
}

/// The rotation a connector's "panel orientation" property asks for: the picture has to be
/// turned so it looks upright on a panel mounted sideways. Our `Rotation` is the clockwise turn
/// of the picture on the panel (`--rotate 90` = fbcon's rotate:1): a panel whose left side is up
/// (mounted turned clockwise) needs the picture turned counter-clockwise, i.e. 270.
public func rotation(forPanelOrientation name: String) -> Rotation? {
    switch name {
    case "Normal": return Rotation.none
    case "Upside Down": return .half
    case "Left Side Up": return .threeQuarters
    case "Right Side Up": return .quarter
    default: return nil
    }
}

/// The device scale (pixels per point) for a panel, from its size in pixels and millimetres.
///
/// Plymouth's rule, with a ~135 DPI target: the DPI is taken on both axes (sizes that are really
/// an aspect ratio such as 160x90 or 16x10 mm, and absurd ones, count as unknown → 1); a panel
/// needs at least 1.75× the target on both axes (≈ 236 DPI) before 2× is chosen, and the
/// automatic choice never goes above 2×. With `fractional`, quarter steps from 1 to 2 instead.
public func deviceScale(width: Int, height: Int, mmWidth: Int, mmHeight: Int, fractional: Bool = false) -> Double {
    let target = 135.0
    guard width > 0, height > 0, mmWidth > 0, mmHeight > 0 else { return 1 }
    let aspectRatios: Set<[Int]> = [[160, 90], [160, 100], [16, 9], [16, 10]]
    if aspectRatios.contains([mmWidth, mmHeight]) { return 1 }
    let dpiX = Double(width) / (Double(mmWidth) / 25.4), dpiY = Double(height) / (Double(mmHeight) / 25.4)
    guard dpiX > 30, dpiY > 30, dpiX < 1500, dpiY < 1500 else { return 1 }
    let ratio = min(dpiX, dpiY) / target
    if fractional {
        return min(2, max(1, (ratio * 4).rounded() / 4))
    }
    return ratio >= 1.75 ? 2 : 1
}
