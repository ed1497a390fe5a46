import KioskBoards
import KioskProtocol
import KioskSettings

extension JSONValue: StructuredValue {}

/// The protocol's version: requests carry `"v": 1`, replies and events say it too.
public let protocolVersion = 1

/// What a success/error/info request shows.
public enum NoticeKind: String, Sendable, CaseIterable {
    case success, error, info
}

/// The events a subscriber can ask for.
public enum DaemonEvent: String, Sendable, CaseIterable {
    case button, tapOutside = "tap_outside", hidden, displayLost = "display_lost", displayRegained = "display_regained"
    case displaysChanged = "displays_changed", inputAdded = "input_added", inputRemoved = "input_removed"
    /// The HUD was changed (`request`: the change as a request, as the daemon carried it out):
    /// what an overlay follows.
    case changed
}

/// Where an overlay draws the daemon's HUD (`overlay`'s `screen`).
public enum OverlayScreen: String, Sendable, CaseIterable {
    /// A Wayland compositor's overlay layer (`kiosk-hud overlay`).
    case wayland
}

/// One request, checked: every field known and every value within its rule.
public enum DaemonRequest {
    case ping
    case show(animated: Bool)
    case hide(animated: Bool, delay: Double)
    /// Content settings (mode, progress, label, details, button, image) and whether progress eases.
    case update([(Setting<HUDSettings>, SettingValue)], animated: Bool)
    /// Live settings of the look (theme, colours, background, bezel, sizes, timing, tilt).
    case style([(Setting<HUDSettings>, SettingValue)])
    case notice(NoticeKind, text: String, duration: Double?)
    case push, pop
    /// Presses the HUD's button as a tap would.
    case press
    case status
    /// nil: every event.
    case subscribe(Set<DaemonEvent>?)
    case quit(retain: Bool)
    /// The initramfs's daemon: the real root is mounted at this path (switch-root comes next).
    case newRoot(String)
    /// The real root's kiosk-hud.service takes the initramfs's daemon over: it is carried over
    /// as the new root's program, the same process (docs/initramfs.md).
    case adopt
    /// This connection draws the HUD on `screen` (a process of the compositor's user): the reply
    /// is the state (as `status`'s), and it hears each change (`changed`) from then on.
    case overlay(OverlayScreen)

    /// The ops, as clients name them (`DaemonOp`'s raw values).
    public static let ops = DaemonOp.allCases.map(\.rawValue)

    /// The settings `update` takes; `style` takes every other live setting.
    public static let contentKeys: Set<String> = Set(HUDSettings.table.settings.filter { $0.role == .content }.map(\.key))

    /// An `update` of the content settings named by their keys, each value checked by its rule
    /// as a client's is: a front end's own request (psplash's, Plymouth's), made without JSON
    /// between.
    public static func update(_ content: [(String, SettingValue)], animated: Bool = false) throws(RequestError) -> DaemonRequest {
        .update(try contentFields(content), animated: animated)
    }

    /// `update`'s fields, each a content setting checked by its rule (the request's and the
    /// daemon's own updates alike: `Daemon.apply`).
    static func contentFields(_ content: [(String, SettingValue)]) throws(RequestError) -> [(Setting<HUDSettings>, SettingValue)] {
        var fields: [(Setting<HUDSettings>, SettingValue)] = []
        for (key, v) in content {
            guard let s = HUDSettings.table.setting(key: key), contentKeys.contains(key) else {
                throw RequestError.bad("update: unknown field \(shown(key))")
            }
            do throws(RuleError) { fields.append((s, try s.rule.check(v.json))) } catch { throw RequestError.bad("\(key): expected \(error.expected)") }
        }
        return fields
    }

    /// Reads a request object. Throws `RequestError` with a message for the client.
    public init(_ object: JSONObject) throws(RequestError) {
        var fields = Fields(object)
        guard let v = fields.take("v") else { throw RequestError.bad("missing \"v\" (the protocol version, 1)") }
        guard v.int == protocolVersion else { throw RequestError("unsupported protocol version \(shown(JSON.encode(v))); this daemon speaks 1", code: .unsupportedVersion) }
        guard let opValue = fields.take("op") else { throw RequestError.bad("missing \"op\" (one of \(listed(Self.ops)))") }
        guard let name = opValue.string, let op = DaemonOp(rawValue: name) else {
            throw RequestError.bad("unknown op \(shown(JSON.encode(opValue))); expected \(listed(Self.ops))")
        }
        _ = fields.take("id")   // echoed by the reply
        switch op {
        case .ping: self = .ping
        case .show: self = .show(animated: try fields.bool("animated") ?? true)
        case .hide: self = .hide(animated: try fields.bool("animated") ?? true, delay: try fields.seconds("delay") ?? 0)
        case .update:
            let animated = try fields.bool("animated") ?? false
            self = .update(try fields.settings { DaemonRequest.contentKeys.contains($0.key) }, animated: animated)
        case .style:
            self = .style(try fields.settings { !DaemonRequest.contentKeys.contains($0.key) })
        case .success, .error, .info:
            guard let text = try fields.text("text", maxBytes: 1024) else { throw RequestError.bad("\(name): missing \"text\"") }
            self = .notice(NoticeKind(rawValue: name)!, text: text, duration: try fields.seconds("duration"))
        case .push: self = .push
        case .pop: self = .pop
        case .press: self = .press
        case .status: self = .status
        case .subscribe:
            var events: Set<DaemonEvent>?
            if let list = fields.take("events") {
                guard let a = list.array, a.count <= 16 else { throw RequestError.bad("events: expected a list of \(listed(DaemonEvent.allCases.map(\.rawValue)))") }
                events = []
                for e in a {
                    guard let name = e.string, let ev = DaemonEvent(rawValue: name) else {
                        throw RequestError.bad("events: \(shown(JSON.encode(e))) is not one of \(listed(DaemonEvent.allCases.map(\.rawValue)))")
                    }
                    events?.insert(ev)
                }
            }
            self = .subscribe(events)
        case .quit: self = .quit(retain: try fields.bool("retain") ?? false)
        case .newRoot:
            guard let path = try fields.text("path", maxBytes: 4095), path.hasPrefix("/") else {
                throw RequestError.bad("new_root: missing \"path\" (an absolute path)")
            }
            self = .newRoot(path)
        case .adopt: self = .adopt
        case .overlay:
            guard let v = fields.take("screen") else { throw RequestError.bad("overlay: missing \"screen\" (\(listed(OverlayScreen.allCases.map(\.rawValue))))") }
            guard let name = v.string, let screen = OverlayScreen(rawValue: name) else {
                throw RequestError.bad("screen \(shown(JSON.encode(v))): expected \(listed(OverlayScreen.allCases.map(\.rawValue)))")
            }
            self = .overlay(screen)
        }
        try fields.finish(name)
    }
}

/// Why a request was refused, for the client: a message and its `ReplyCode`.
public struct RequestError: Error, CustomStringConvertible, Sendable {
    public var description: String
    /// What kind of refusal it is (the reply's "code").
    public var code: ReplyCode
    /// A refusal with `code` (by default: understood, but cannot be carried out now).
    public init(_ description: String, code: ReplyCode = .cannot) { self.description = description; self.code = code }
    /// A request the protocol does not allow.
    public static func bad(_ description: String) -> RequestError { RequestError(description, code: .badRequest) }
}

/// A request's fields, taken one by one; what is left at the end is unknown.
struct Fields {
    let object: JSONObject
    var taken: Set<String> = []
    init(_ object: JSONObject) { self.object = object }

    mutating func take(_ key: String) -> JSONValue? {
        taken.insert(key)
        return object[key]
    }

    mutating func bool(_ key: String) throws(RequestError) -> Bool? {
        guard let v = take(key) else { return nil }
        guard let b = v.bool else { throw RequestError.bad("\(key) \(shown(JSON.encode(v))): expected true or false") }
        return b
    }

    mutating func seconds(_ key: String) throws(RequestError) -> Double? {
        guard let v = take(key) else { return nil }
        guard let d = v.double, d.isFinite, d >= 0, d <= 86_400 else { throw RequestError.bad("\(key) \(shown(JSON.encode(v))): expected seconds from 0 to 86400") }
        return d
    }

    mutating func text(_ key: String, maxBytes: Int) throws(RequestError) -> String? {
        guard let v = take(key) else { return nil }
        guard let s = v.string, s.utf8.count <= maxBytes, !s.utf8.contains(0) else {
            throw RequestError.bad("\(key): expected text of at most \(maxBytes) bytes, without NUL characters")
        }
        return s
    }

    /// Every remaining field that is a live setting `allowed` takes, checked by its rule; a
    /// setting's earlier (deprecated) name too, but not together with its name.
    mutating func settings(_ allowed: (Setting<HUDSettings>) -> Bool) throws(RequestError) -> [(Setting<HUDSettings>, SettingValue)] {
        var out: [(Setting<HUDSettings>, SettingValue)] = []
        for key in object.keys where !taken.contains(key) {
            let formerly = HUDSettings.table.setting(key: key) == nil
            guard let s = HUDSettings.table.setting(key: key) ?? HUDSettings.table.setting(formerKey: key), s.live, allowed(s),
                  let v = object[key] else { continue }
            if formerly, object[s.key] != nil { throw RequestError.bad("\(key): also given as \(s.key); keep one") }
            taken.insert(key)
            do throws(RuleError) { out.append((s, try s.rule.check(v))) } catch {
                throw RequestError.bad("\(key) \(shown(JSON.encode(v))): expected \(error.expected)")
            }
        }
        return out
    }

    /// Throws for the first field nobody took.
    func finish(_ op: String) throws(RequestError) {
        if let k = object.keys.first(where: { !taken.contains($0) }) {
            throw RequestError.bad("\(op): unknown field \(shown(JSON.encode(.string(k))))")
        }
    }
}

extension DaemonRequest {
    /// A note for each field of `object` given by its earlier, deprecated name ("\"underlay\" is
    /// deprecated; use \"underlay_color\""), for the daemon's log.
    public static func deprecations(in object: JSONObject) -> [String] {
        object.keys.compactMap { key in
            guard HUDSettings.table.setting(key: key) == nil, let s = HUDSettings.table.setting(formerKey: key), s.live else { return nil }
            return deprecationNote("field \"\(key)\"", "\"\(s.key)\"")
        }
    }

    /// The fields `update` and `style` take, as a Markdown table made from the settings table
    /// (docs/protocol.md holds this text; a test checks they agree).
    public static func fieldTable() -> String {
        let defaults = HUDSettings.defaults
        var out = "| request | field | value | default |\n|---|---|---|---|\n"
        for op in ["update", "style"] {
            for s in HUDSettings.table.settings where s.live && (contentKeys.contains(s.key) == (op == "update")) {
                let d = s.get(defaults).map { "`\(JSON.encode($0.json))`" } ?? "—"
                out += "| \(op) | `\(s.key)` | \(s.rule.expected) | \(d) |\n"
            }
        }
        return out
    }
}
