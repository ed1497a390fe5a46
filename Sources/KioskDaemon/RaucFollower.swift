import CKioskSystemd
import Glibc
import KioskSeams
import KioskSettings
import KioskSys

/// `kiosk-hud daemon --rauc`: RAUC's installer followed on the system bus through sd-bus
/// (libsystemd.so.0, loaded with dlopen when it starts; CKioskSystemd), on the daemon's event
/// loop — the bus's descriptor watched, sd_bus_process run when it is ready, its timeout a loop
/// timer, every call asynchronous. What it reads goes through `RaucDecoding` into the pure
/// `RaucMachine`; the machine's actions go to `perform` (`.readLastError` it answers itself).
///
/// It follows the service as it comes and goes (NameOwnerChanged), and the bus too: a bus that
/// is not there yet, or that goes away, is connected again every `retryInterval`.
///
/// Any client of the system bus may emit a signal with RAUC's path and interface, or send one
/// to this connection alone: a message is believed only from the connection that may send it
/// (`RaucSenders`: the bus's own from the bus, the installer's from the current owner of
/// RAUC's name, nothing while it has none), checked before its arguments are read. Refusals,
/// and values of the wrong type, are one short log line each, then counted (`RepeatLog`).
public final class RaucFollower {
    /// The system bus: $DBUS_SYSTEM_BUS_ADDRESS, else D-Bus's default.
    public static var systemBus: String {
        environmentValue("DBUS_SYSTEM_BUS_ADDRESS") ?? "unix:path=/run/dbus/system_bus_socket"
    }

    /// How often a bus that cannot be reached is tried again, in seconds.
    public static let retryInterval = 1.0
    /// How long a call to the bus or the service may take, in microseconds.
    static let callTimeout: UInt64 = 5_000_000
    /// Seconds a trouble's repeats are counted before one line says how many (as the control
    /// socket's refusals are).
    static let logWindow = ControlServer.logWindow

    /// Why following cannot start.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The bus's address.
    public let address: String
    /// The state machine (what the HUD shows of RAUC).
    public private(set) var machine = RaucMachine()
    /// Whether connected to the bus now.
    public var connected: Bool { bus != nil }
    /// Messages not believed: not from the connection that may send them (`ctl status`).
    public private(set) var refused = 0

    private let loop: EventLoop
    private let perform: (RaucAction) -> Void
    private let log: (String) -> Void
    /// Refusals and undecodable messages: one line a kind, then a count. Kinds are the
    /// message's kind, never its sender: a client can take a new unique name per connection.
    private let troubles: RepeatLog<RaucTrouble>
    private var bus: OpaquePointer?
    private var watchToken: LoopToken?
    private var busTimer: LoopToken?
    private var machineTimer: LoopToken?
    private var retryTimer: LoopToken?
    /// The service's unique name while it is on the bus.
    private var owner: String?
    /// The connection failed inside sd_bus_process (closed once it returns).
    private var lostReason: Int32?
    /// The log said the bus cannot be reached (said once until it can).
    private var saidUnreachable = false
    private var closed = false

    /// Starts following at `address` on `loop` (libsystemd.so.0 is loaded now: a board without
    /// it fails here, at start). `perform` gets the machine's actions, `log` the log lines.
    public init(address: String = RaucFollower.systemBus, loop: EventLoop, log: @escaping (String) -> Void,
                perform: @escaping (RaucAction) -> Void) throws(Failure) {
        if let why = kiosk_systemd_load() {
            throw Failure(description: "cannot load libsystemd.so.0, which --rauc needs: \(String(cString: why))")
        }
        self.address = address; self.loop = loop; self.log = log; self.perform = perform
        troubles = RepeatLog(loop: loop, window: RaucFollower.logWindow, log: log) { trouble in
            switch trouble {
            case let .refused(kind): "rauc: ignored \(kind)"
            case let .malformed(kind): "rauc: undecodable \(kind)"
            }
        }
        connect()
    }

    /// Stops following (the bus closed, timers cancelled).
    public func close() {
        closed = true
        disconnect()
        if let t = retryTimer { loop.cancel(t) }
        if let t = machineTimer { loop.cancel(t) }
        retryTimer = nil; machineTimer = nil
        troubles.close()
    }

    deinit { if !closed { close() } }

    // MARK: The connection

    private func connect() {
        retryTimer = nil
        guard !closed else { return }
        var made: OpaquePointer?
        var r = kiosk_sd_bus_new(&made)
        guard r >= 0, let b = made else { return retry("sd_bus_new: \(errnoText(-r))") }
        r = kiosk_sd_bus_set_address(b, address)
        if r >= 0 { r = kiosk_sd_bus_set_bus_client(b, 1) }
        if r >= 0 { r = kiosk_sd_bus_start(b) }
        if r < 0 {
            _ = kiosk_sd_bus_unref(b)
            return retry("\(address): \(errnoText(-r))")
        }
        bus = b
        let user = Unmanaged.passUnretained(self).toOpaque()
        let owners = "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Rauc.service)'"
        // With a sender, the bus routes the installer's signals from RAUC's owner only (other
        // clients' broadcasts never reach this connection); `received` still compares each
        // message's sender, for what is sent to this connection by name.
        let changes = "type='signal',sender='\(Rauc.service)',path='\(Rauc.path)',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',arg0='\(Rauc.interface)'"
        let completed = "type='signal',sender='\(Rauc.service)',path='\(Rauc.path)',interface='\(Rauc.interface)',member='Completed'"
        r = kiosk_sd_bus_add_match_async(b, nil, owners, { m, user, _ in
            RaucFollower.from(user)?.received(m, .ownerChanged); return 0
        }, nil, user)
        if r >= 0 {
            r = kiosk_sd_bus_add_match_async(b, nil, changes, { m, user, _ in
                RaucFollower.from(user)?.received(m, .propertiesChanged); return 0
            }, nil, user)
        }
        if r >= 0 {
            r = kiosk_sd_bus_add_match_async(b, nil, completed, { m, user, _ in
                RaucFollower.from(user)?.received(m, .completed); return 0
            }, nil, user)
        }
        if r < 0 {
            disconnect()
            return retry("adding the matches on \(address): \(errnoText(-r))")
        }
        let fd = kiosk_sd_bus_get_fd(b)
        guard fd >= 0 else { disconnect(); return retry("sd_bus_get_fd: \(errnoText(-fd))") }
        watchToken = loop.watch(fd, .readable) { [weak self] _ in self?.pump() }
        saidUnreachable = false
        log("rauc: connected to the bus at \(address)")
        // Whether the service is there now (asking the bus: a call to the service itself
        // would start it by D-Bus activation).
        call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
             member: "GetNameOwner", argument: Rauc.service, .nameOwner)
        rearm()
    }

    private func retry(_ why: String) {
        if !saidUnreachable { log("rauc: cannot reach the bus (\(why)); trying again every \(RaucFollower.retryInterval) s") }
        saidUnreachable = true
        retryTimer = loop.schedule(after: RaucFollower.retryInterval) { [weak self] in self?.connect() }
    }

    private func disconnect() {
        if let t = watchToken { loop.cancel(t) }
        if let t = busTimer { loop.cancel(t) }
        watchToken = nil; busTimer = nil
        if let b = bus {
            kiosk_sd_bus_close(b)
            _ = kiosk_sd_bus_unref(b)
        }
        bus = nil
        owner = nil
    }

    /// Runs sd-bus's work (reading, writing, callbacks) until it has none, then waits again.
    private func pump() {
        guard let b = bus else { return }
        while lostReason == nil {
            let r = kiosk_sd_bus_process(b, nil)
            if r < 0 { lostReason = -r; break }
            if r == 0 { break }
        }
        if let why = lostReason {
            lostReason = nil
            let wasThere = owner != nil
            disconnect()
            log("rauc: the bus connection ended (\(errnoText(why)))")
            if wasThere { feed(.vanished) }
            saidUnreachable = false
            retry("the connection ended")
            return
        }
        rearm()
    }

    /// Waits for what sd-bus waits for: its descriptor's events, and its timeout as a timer.
    private func rearm() {
        guard let b = bus, let w = watchToken else { return }
        let want = kiosk_sd_bus_get_events(b)
        var events: LoopEvents = []
        if want > 0 {
            if want & 0x001 != 0 { events.insert(.readable) }
            if want & 0x004 != 0 { events.insert(.writable) }
        }
        loop.setEvents(w, events)
        if let t = busTimer { loop.cancel(t) }
        busTimer = nil
        var usec: UInt64 = 0
        if kiosk_sd_bus_get_timeout(b, &usec) >= 0, usec != UInt64.max {
            let delay = max(Double(usec) / 1e6 - monotonicSeconds(), 0)
            busTimer = loop.schedule(after: delay) { [weak self] in
                self?.busTimer = nil
                self?.pump()
            }
        }
    }

    // MARK: Messages

    typealias Kind = RaucMessageKind

    /// What went wrong with a message, as the log counts it.
    enum RaucTrouble: Hashable, Sendable {
        case refused(RaucMessageKind), malformed(RaucMessageKind)
    }

    static func from(_ user: UnsafeMutableRawPointer?) -> RaucFollower? {
        user.map { Unmanaged<RaucFollower>.fromOpaque($0).takeUnretainedValue() }
    }

    /// An asynchronous method call with one string argument; the reply comes to `received`.
    private func call(destination: String, path: String, interface: String, member: String, argument: String?, _ kind: Kind,
                      second: String? = nil) {
        guard let b = bus else { return }
        var m: OpaquePointer?
        var r = kiosk_sd_bus_message_new_method_call(b, &m, destination, path, interface, member)
        guard r >= 0, let message = m else { return log("rauc: \(member): \(errnoText(-r))") }
        defer { _ = kiosk_sd_bus_message_unref(message) }
        _ = kiosk_sd_bus_message_set_auto_start(message, 0)
        for a in [argument, second].compactMap({ $0 }) where r >= 0 {
            r = a.withCString { kiosk_sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
        }
        let user = Unmanaged.passUnretained(self).toOpaque()
        if r >= 0 {
            switch kind {
            case .nameOwner:
                r = kiosk_sd_bus_call_async(b, nil, message, { m, user, _ in RaucFollower.from(user)?.received(m, .nameOwner); return 0 },
                                            user, RaucFollower.callTimeout)
            case .allProperties:
                r = kiosk_sd_bus_call_async(b, nil, message, { m, user, _ in RaucFollower.from(user)?.received(m, .allProperties); return 0 },
                                            user, RaucFollower.callTimeout)
            default:
                r = kiosk_sd_bus_call_async(b, nil, message, { m, user, _ in RaucFollower.from(user)?.received(m, .lastError); return 0 },
                                            user, RaucFollower.callTimeout)
            }
        }
        if r < 0 { log("rauc: \(member): \(errnoText(-r))") }
    }

    private func readAllProperties(of owner: String) {
        call(destination: owner, path: Rauc.path, interface: "org.freedesktop.DBus.Properties", member: "GetAll",
             argument: Rauc.interface, .allProperties)
    }

    private func received(_ m: OpaquePointer?, _ kind: Kind) {
        guard let m, bus != nil else { return }
        // An error reply is not checked: it believes nothing (a log line; for LastError the
        // failure notice without a reason, which the machine's own wait gives anyway), and
        // sd-bus makes some itself (a call's timeout) with no sender of the service's.
        if let e = kiosk_sd_bus_message_get_error(m) {
            let name = e.pointee.name.map { String(cString: $0) } ?? ""
            // Shown cut (80 characters, controls escaped): an error's text is any size its sender likes.
            let text = shown(e.pointee.message.map { String(cString: $0) } ?? name)
            switch kind {
            case .nameOwner:
                if name == "org.freedesktop.DBus.Error.NameHasNoOwner" {
                    log("rauc: \(Rauc.service) is not on the bus; waiting for it")
                } else {
                    log("rauc: asking for \(Rauc.service): \(text)")
                }
            case .allProperties: log("rauc: reading the installer's properties: \(text)")
            case .lastError:
                log("rauc: reading LastError: \(text)")
                feed(.lastError(""))
            default: break
            }
            return
        }
        // Who sent it, before anything of it is read: a stranger's arguments are not decoded.
        // RAUC's own signals before the owner is known (between the matches and GetNameOwner's
        // reply, at start) are refused too: the GetAll that follows the reply reads their state.
        let sender = DBusMessageReader.sender(m)
        if let why = RaucSenders.refusal(kind, sender: sender, owner: owner) {
            refused += 1
            troubles.write(.refused(kind), "rauc: ignored \(kind) \(why)")
            return
        }
        let args: [DBusValue]
        do throws(RaucDecodeError) { args = try DBusMessageReader.read(m) } catch {
            return troubles.write(.malformed(kind), "rauc: \(error)")
        }
        do throws(RaucDecodeError) {
            switch kind {
            case .ownerChanged:
                guard let event = try RaucDecoding.nameOwnerChanged(args) else { return }
                if case let .appeared(o) = event {
                    owner = o
                    feed(event)
                    readAllProperties(of: o)
                } else if owner != nil {
                    owner = nil
                    feed(event)
                }
            case .nameOwner:
                guard args.count == 1, let o = args[0].string else { throw RaucDecodeError("GetNameOwner's reply is not (s)") }
                guard owner == nil else { return }
                owner = o
                feed(.appeared(owner: o))
                readAllProperties(of: o)
            case .propertiesChanged:
                let (events, invalidated) = try RaucDecoding.propertiesChanged(args)
                for e in events { feed(e) }
                if !invalidated.isEmpty, let o = owner { readAllProperties(of: o) }
            case .completed:
                feed(try RaucDecoding.completed(args))
            case .allProperties:
                guard args.count == 1 else { throw RaucDecodeError("GetAll's reply is not (a{sv})") }
                for e in try RaucDecoding.properties(args[0]) { feed(e) }
            case .lastError:
                guard args.count == 1, let e = try RaucDecoding.property("LastError", args[0]) else {
                    throw RaucDecodeError("LastError's reply is not (v)")
                }
                feed(e)
            }
        } catch {
            troubles.write(.malformed(kind), "rauc: \(error)")
        }
    }

    // MARK: The machine

    private func feed(_ event: RaucEvent) {
        let actions = machine.handle(event, at: loop.now)
        run(actions)
    }

    private func run(_ actions: [RaucAction]) {
        for a in actions {
            switch a {
            case .readLastError:
                if let o = owner {
                    call(destination: o, path: Rauc.path, interface: "org.freedesktop.DBus.Properties", member: "Get",
                         argument: Rauc.interface, .lastError, second: "LastError")
                }
            case let .log(line): log(line)
            default: perform(a)
            }
        }
        if let t = machineTimer { loop.cancel(t) }
        machineTimer = nil
        if let at = machine.nextDeadline {
            machineTimer = loop.schedule(at: at) { [weak self] in
                guard let self else { return }
                self.machineTimer = nil
                self.run(self.machine.advance(to: self.loop.now))
            }
        }
    }
}

/// strerror's text for an errno.
func errnoText(_ code: Int32) -> String { String(cString: strerror(code)) }
