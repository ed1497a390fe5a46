// A HUD drawn by another process follows the daemon's: `kiosk-hud overlay`, the kiosk user's
// process on the compositor (docs/wayland.md). It is told the state once (`overlay`'s reply,
// `status`'s fields) and then each change as the daemon carried it out (`changed`), as the
// request that makes it — so the overlay runs the same `Daemon` code on its own session and its
// animations, notice timers and activity count are the daemon's own behaviour, not a copy of
// it. The requests a change is sent as are the ones a client could send (the same decoding, unknown
// fields refused), so nothing here is a second format.
import KioskBoards
import KioskProtocol
import KioskSettings

extension DaemonRequest {
    /// The keys of the settings that name a picture (read from a path).
    public static let pictureKeys: Set<String> = ["image", "logo", "underlay_image"]

    /// This request as a client writes it (with "v" and "op"), for the changes an overlay
    /// follows: show, hide, update, style, the notices, push and pop; nil for the rest.
    public var mirrored: JSONObject? {
        var fields: [(String, JSONValue)] = [("v", .number(Double(protocolVersion))), ("op", .string(op.rawValue))]
        switch self {
        case let .show(animated): fields.append(("animated", .bool(animated)))
        case let .hide(animated, delay): fields += [("animated", .bool(animated)), ("delay", .number(delay))]
        case let .update(settings, animated):
            fields += settings.map { ($0.0.key, Self.written($0.0, $0.1)) }
            fields.append(("animated", .bool(animated)))
        case let .style(settings): fields += settings.map { ($0.0.key, Self.written($0.0, $0.1)) }
        case let .notice(_, text, duration):
            fields.append(("text", .string(text)))
            if let duration { fields.append(("duration", .number(duration))) }
        case .push, .pop: break
        case .ping, .press, .status, .subscribe, .quit, .newRoot, .adopt, .overlay: return nil
        }
        return JSONObject(fields)
    }

    /// `value` as a client writes it: as the setting itself reports it (`status`'s words), which
    /// its rule reads back — a checked value's own case may not be (min_size is checked into
    /// two numbers, written "WxH").
    static func written(_ setting: Setting<HUDSettings>, _ value: SettingValue) -> JSONValue {
        var scratch = HUDSettings.defaults
        setting.set(&scratch, value)
        return (setting.get(scratch) ?? value).json
    }

    /// The picture settings this request names (their keys).
    public var picturesNamed: [String] {
        switch self {
        case let .update(fields, _), let .style(fields): fields.map(\.0.key).filter { Self.pictureKeys.contains($0) }
        default: []
        }
    }

    /// `self` without its pictures (and without mode `custom`, which needs one), nil when it
    /// names none.
    public var withoutPictures: DaemonRequest? {
        switch self {
        case let .update(fields, animated) where fields.contains(where: { Self.pictureKeys.contains($0.0.key) }):
            let kept = fields.filter { !Self.pictureKeys.contains($0.0.key) && !($0.0.key == "mode" && $0.1.text == "custom") }
            return .update(kept, animated: animated)
        case let .style(fields) where fields.contains(where: { Self.pictureKeys.contains($0.0.key) }):
            return .style(fields.filter { !Self.pictureKeys.contains($0.0.key) })
        default: return nil
        }
    }

    /// The requests that bring a HUD to the state `status` reported (its `content`, `style`
    /// and `visible`): a style, an update, and a hide when it was not shown. A field that does
    /// not decode is left out with its request (the state came from a daemon of this version).
    public static func restoring(_ status: JSONObject) -> [DaemonRequest] {
        var out: [DaemonRequest] = []
        for (op, key) in [("style", "style"), ("update", "content")] {
            guard let fields = status[key]?.object else { continue }
            // Only the settings' own names (status repeats a setting under its former name).
            let own = fields.members.filter { HUDSettings.table.setting(key: $0.key) != nil }
            if let r = try? DaemonRequest(JSONObject([("v", .number(1)), ("op", .string(op))] + own.map { ($0.key, $0.value) })) { out.append(r) }
        }
        if status["visible"]?.bool == false { out.append(.hide(animated: false, delay: 0)) }
        return out
    }
}
