/// RAUC's installer on D-Bus (`de.pengutronix.rauc.Installer`, object `/`), as `kiosk-hud daemon
/// --rauc` follows it: the names, and what its properties and signals say, decoded from typed
/// values (`DBusValue`) without a bus.
public enum Rauc {
    /// The service's well-known name on the system bus.
    public static let service = "de.pengutronix.rauc"
    /// The installer's object.
    public static let path = "/"
    /// The installer's interface.
    public static let interface = "de.pengutronix.rauc.Installer"
    /// The properties followed (the others — Compatible, Variant, BootSlot — are not shown).
    public static let followedProperties: Set<String> = ["Operation", "Progress", "LastError"]
}

/// RAUC's `Operation` property: what the service does.
public enum RaucOperation: Equatable, Sendable {
    case idle
    case installing
    /// A name RAUC 1.8 does not have (a later RAUC's): logged, treated as idle.
    case other(String)

    public init(_ name: String) {
        switch name {
        case "idle": self = .idle
        case "installing": self = .installing
        default: self = .other(name)
        }
    }

    /// The name RAUC gives it.
    public var name: String {
        switch self {
        case .idle: "idle"
        case .installing: "installing"
        case let .other(n): n
        }
    }
}

/// RAUC's `Progress` property `(isi)`: the percentage (0…100), the step's message, and how deep
/// the step is nested (1: the installation itself, 2: its steps, 3: their steps…).
public struct RaucProgress: Equatable, Sendable {
    public var percentage: Int
    public var message: String
    public var depth: Int

    public init(percentage: Int, message: String, depth: Int) {
        self.percentage = min(max(percentage, 0), 100); self.message = message; self.depth = max(depth, 1)
    }

    /// Whether the message ends a step ("Checking bundle done.", "Installing failed."), rather
    /// than begins one.
    public var endsStep: Bool { message.hasSuffix(" done.") || message.hasSuffix(" failed.") }
}

/// What the installer says, one thing at a time: the input of `RaucMachine`.
public enum RaucEvent: Equatable, Sendable {
    /// The service has an owner on the bus (at start, or it came back): `owner` its unique name.
    case appeared(owner: String)
    /// The service left the bus (stopped, crashed, killed).
    case vanished
    case operation(RaucOperation)
    case progress(RaucProgress)
    case lastError(String)
    /// The `Completed` signal: 0 success, anything else a failure (`LastError` says why).
    case completed(Int32)
}

/// A property or signal whose value is not of the type RAUC declares. Its description names
/// the types only (`DBusValue.signature`), never the values: a log line of a fixed size
/// whatever a bus client sends.
public struct RaucDecodeError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ d: String) { description = d }
}

/// Property and signal decoding, from typed values (pure).
public enum RaucDecoding {
    /// One property of the installer; nil for one that is not followed.
    public static func property(_ name: String, _ value: DBusValue) throws(RaucDecodeError) -> RaucEvent? {
        let v = value.unwrapped
        switch name {
        case "Operation":
            guard let s = v.string else { throw RaucDecodeError("Operation is not a string but \(v.signature)") }
            return .operation(RaucOperation(s))
        case "LastError":
            guard let s = v.string else { throw RaucDecodeError("LastError is not a string but \(v.signature)") }
            return .lastError(s)
        case "Progress":
            guard case let .structure(f) = v, f.count == 3, let p = f[0].int32, let m = f[1].string, let d = f[2].int32 else {
                throw RaucDecodeError("Progress is not (isi) but \(v.signature)")
            }
            return .progress(RaucProgress(percentage: Int(p), message: m, depth: Int(d)))
        default: return nil
        }
    }

    /// A dictionary `a{sv}` of properties (GetAll's reply, PropertiesChanged's second argument):
    /// the followed ones, Operation first (so an install's stale progress from before is not
    /// taken for the new one's), then LastError, then Progress.
    public static func properties(_ dict: DBusValue) throws(RaucDecodeError) -> [RaucEvent] {
        guard case let .array(entries) = dict else { throw RaucDecodeError("properties are not a{sv} but \(dict.signature)") }
        var found: [(Int, RaucEvent)] = []
        for e in entries {
            guard case let .dictEntry(k, v) = e, let key = k.string else { throw RaucDecodeError("properties are not a{sv} but a\(e.signature)") }
            if let ev = try property(key, v) {
                let rank = key == "Operation" ? 0 : key == "LastError" ? 1 : 2
                found.append((rank, ev))
            }
        }
        return found.sorted { $0.0 < $1.0 }.map { $0.1 }
    }

    /// `org.freedesktop.DBus.Properties.PropertiesChanged` `(sa{sv}as)`: the events, and the
    /// followed properties only invalidated (their values to be read again). Empty for another interface.
    public static func propertiesChanged(_ args: [DBusValue]) throws(RaucDecodeError) -> (events: [RaucEvent], invalidated: [String]) {
        guard args.count == 3, let interface = args[0].string, case let .array(names) = args[2] else {
            throw RaucDecodeError("PropertiesChanged is not (sa{sv}as)")
        }
        guard interface == Rauc.interface else { return ([], []) }
        let events = try properties(args[1])
        let invalidated = names.compactMap(\.string).filter { Rauc.followedProperties.contains($0) }
        return (events, invalidated)
    }

    /// The `Completed` signal `(i)`.
    public static func completed(_ args: [DBusValue]) throws(RaucDecodeError) -> RaucEvent {
        guard args.count == 1, let r = args[0].int32 else { throw RaucDecodeError("Completed is not (i) but \(DBusValue.structure(args).signature)") }
        return .completed(r)
    }

    /// The bus's `NameOwnerChanged` `(sss)`: appeared or vanished when it is about RAUC's name,
    /// else nil.
    public static func nameOwnerChanged(_ args: [DBusValue]) throws(RaucDecodeError) -> RaucEvent? {
        guard args.count == 3, let name = args[0].string, args[1].string != nil, let new = args[2].string else {
            throw RaucDecodeError("NameOwnerChanged is not (sss)")
        }
        guard name == Rauc.service else { return nil }
        return new.isEmpty ? .vanished : .appeared(owner: new)
    }
}

/// What the follower receives on the bus: a signal it matched, or the reply to one of its calls.
public enum RaucMessageKind: Hashable, Sendable, CustomStringConvertible {
    /// The bus's `NameOwnerChanged` about RAUC's name.
    case ownerChanged
    /// The reply to the bus's `GetNameOwner`.
    case nameOwner
    /// The installer's `PropertiesChanged`.
    case propertiesChanged
    /// The installer's `Completed`.
    case completed
    /// The reply to the installer's `GetAll`.
    case allProperties
    /// The reply to the installer's `Get` of `LastError`.
    case lastError

    public var description: String {
        switch self {
        case .ownerChanged: "NameOwnerChanged"
        case .nameOwner: "GetNameOwner's reply"
        case .propertiesChanged: "PropertiesChanged"
        case .completed: "Completed"
        case .allProperties: "GetAll's reply"
        case .lastError: "LastError's reply"
        }
    }

    /// Whether only the bus itself may send it (else only RAUC's name's owner).
    public var fromTheBus: Bool { self == .ownerChanged || self == .nameOwner }
}

/// Why a message was not believed: it did not come from the one connection that may send it.
public enum RaucRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bus's own signal or reply from another connection.
    case notTheBus(sender: String?)
    /// The installer's, while RAUC's name has no owner.
    case noOwner(sender: String?)
    /// The installer's, from a connection that does not own RAUC's name now.
    case notTheOwner(sender: String?, owner: String)

    public var description: String {
        switch self {
        case let .notTheBus(s): "from \(RaucRefusal.name(s)), not \(RaucSenders.bus)"
        case let .noOwner(s): "from \(RaucRefusal.name(s)) while \(Rauc.service) has no owner"
        case let .notTheOwner(s, o): "from \(RaucRefusal.name(s)), not \(Rauc.service)'s owner \(o)"
        }
    }

    /// A sender as a log line says it (the bus checks a name's syntax and its 255 bytes).
    static func name(_ s: String?) -> String { s.map { $0.isEmpty ? "an empty sender" : $0 } ?? "no sender" }
}

/// Who may say what to the follower (pure). The bus routes a signal to every connection whose
/// match rule it fits, and delivers one addressed to a connection whatever its rules: a match
/// rule's sender narrows what the bus sends, but only the message's own SENDER field — set by
/// the bus, not by the client — says who spoke. RAUC's name is its owner's unique name (":1.42")
/// in that field, so the follower keeps the owner (GetNameOwner at start, NameOwnerChanged
/// after) and compares.
public enum RaucSenders {
    /// The bus itself: the sender of its own signals and replies.
    public static let bus = "org.freedesktop.DBus"

    /// Why a message of `kind` from `sender` (its SENDER field) is not believed while `owner`
    /// (nil: nobody) owns RAUC's name; nil when it is believed.
    public static func refusal(_ kind: RaucMessageKind, sender: String?, owner: String?) -> RaucRefusal? {
        if kind.fromTheBus { return sender == bus ? nil : .notTheBus(sender: sender) }
        // Nothing is believed while the name has no owner: RAUC is not there to say anything.
        guard let owner else { return .noOwner(sender: sender) }
        return sender == owner ? nil : .notTheOwner(sender: sender, owner: owner)
    }
}
