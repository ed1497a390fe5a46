// RAUC's installer as the daemon reads it: its properties and signals decoded from typed D-Bus
// values (what sd-bus reads), and the state machine that maps them to the HUD (pure, no bus).
import KioskDaemon
import KioskTestDoubles
import KioskTestSupport
import Testing

@Suite struct RaucDecodingTests {
    static func progress(_ p: Int64, _ m: String, _ d: Int64) -> DBusValue {
        .variant(.structure([.integer(p, .int32), .string(m), .integer(d, .int32)]))
    }

    @Test func propertiesDecodeToEvents() throws {
        let v1 = try RaucDecoding.property("Operation", .variant(.string("installing")))
        #expect(v1 == .operation(.installing))
        let v2 = try RaucDecoding.property("Operation", .variant(.string("idle")))
        #expect(v2 == .operation(.idle))
        let v3 = try RaucDecoding.property("Operation", .string("downloading"))
        #expect(v3 == .operation(.other("downloading")))
        let v4 = try RaucDecoding.property("LastError", .variant(.string("signature verification failed")))
        #expect(v4 == .lastError("signature verification failed"))
        let v5 = try RaucDecoding.property("Progress", Self.progress(40, "Checking bundle", 2))
        #expect(v5 == .progress(RaucProgress(percentage: 40, message: "Checking bundle", depth: 2)))
        let v6 = try RaucDecoding.property("Compatible", .variant(.string("board")))
        #expect(v6 == nil)
        // Clamped: a percentage past 100, a depth under 1.
        let v7 = try RaucDecoding.property("Progress", Self.progress(250, "x", 0))
        #expect(v7 == .progress(RaucProgress(percentage: 100, message: "x", depth: 1)))
    }

    @Test func valuesOfTheWrongTypeAreErrors() {
        let e = caught(RaucDecodeError.self) { _ = try RaucDecoding.property("Progress", .variant(.structure([.integer(1, .uint32), .string("m"), .integer(1, .int32)]))) }
        #expect(e?.description.hasPrefix("Progress is not (isi)") == true, "\(String(describing: e))")
        let operation = caught(RaucDecodeError.self) { _ = try RaucDecoding.property("Operation", .variant(.integer(1, .int32))) }
        let completed = caught(RaucDecodeError.self) { _ = try RaucDecoding.completed([.string("0")]) }
        let dictionary = caught(RaucDecodeError.self) { _ = try RaucDecoding.properties(.string("a{sv}")) }
        #expect(operation != nil && completed != nil && dictionary != nil)
    }

    /// GetAll's dictionary and PropertiesChanged: Operation first, then LastError, then
    /// Progress, whatever order the dictionary has; the properties not followed left out.
    @Test func aDictionaryOfPropertiesInItsOrder() throws {
        let dict = DBusValue.array([
            .dictEntry(.string("Progress"), Self.progress(0, "Installing", 1)),
            .dictEntry(.string("Compatible"), .variant(.string("kiosk"))),
            .dictEntry(.string("LastError"), .variant(.string(""))),
            .dictEntry(.string("Operation"), .variant(.string("installing"))),
        ])
        let events = try RaucDecoding.properties(dict)
        #expect(events == [.operation(.installing), .lastError(""), .progress(RaucProgress(percentage: 0, message: "Installing", depth: 1))])
        let changed = try RaucDecoding.propertiesChanged([.string(Rauc.interface), dict, .array([.string("LastError"), .string("BootSlot")])])
        #expect(changed.events == events && changed.invalidated == ["LastError"])
        let other = try RaucDecoding.propertiesChanged([.string("org.example.Other"), dict, .array([])])
        #expect(other.events.isEmpty && other.invalidated.isEmpty)
    }

    @Test func signals() throws {
        let v8 = try RaucDecoding.completed([.integer(0, .int32)])
        #expect(v8 == .completed(0))
        let v9 = try RaucDecoding.completed([.integer(1, .int32)])
        #expect(v9 == .completed(1))
        let v10 = try RaucDecoding.nameOwnerChanged([.string(Rauc.service), .string(""), .string(":1.7")])
        #expect(v10 == .appeared(owner: ":1.7"))
        let v11 = try RaucDecoding.nameOwnerChanged([.string(Rauc.service), .string(":1.7"), .string("")])
        #expect(v11 == .vanished)
        let v12 = try RaucDecoding.nameOwnerChanged([.string("org.example"), .string(""), .string(":1.8")])
        #expect(v12 == nil)
    }
}

@Suite struct RaucMachineTests {
    static func p(_ percent: Int, _ message: String, _ depth: Int) -> RaucEvent {
        .progress(RaucProgress(percentage: percent, message: message, depth: depth))
    }

    /// An installation as RAUC 1.8 reports it (the messages of a real one): the label is the
    /// top step, the details the nested steps, the bar the percentage; Completed 0 the success.
    @Test func anInstallationToItsSuccess() {
        let m = MachineDriver()
        #expect(m.handle(.appeared(owner: ":1.3"), at: 0) == [.log("rauc: following de.pengutronix.rauc (:1.3)")])
        // The progress of an earlier installation, read at start: not shown.
        #expect(m.handle(.operation(.idle), at: 0).isEmpty)
        #expect(m.handle(Self.p(100, "Installing failed.", 1), at: 0).isEmpty)
        #expect(!m.isActive)
        #expect(m.handle(.operation(.installing), at: 1) == [.show(RaucView(label: "", details: "", progress: 0))])
        #expect(m.isActive)
        #expect(m.handle(Self.p(0, "Installing", 1), at: 1) == [.show(RaucView(label: "Installing", details: "", progress: 0))])
        #expect(m.handle(Self.p(20, "Checking bundle", 2), at: 1) == [.show(RaucView(label: "Installing", details: "Checking bundle", progress: 0.2))])
        #expect(m.handle(Self.p(20, "Verifying signature", 3), at: 1)
                == [.show(RaucView(label: "Installing", details: "Checking bundle\nVerifying signature", progress: 0.2))])
        #expect(m.handle(Self.p(40, "Verifying signature done.", 3), at: 1)
                == [.show(RaucView(label: "Installing", details: "Checking bundle", progress: 0.4))])
        #expect(m.handle(Self.p(40, "Checking bundle done.", 2), at: 1) == [.show(RaucView(label: "Installing", details: "", progress: 0.4))])
        #expect(m.handle(Self.p(90, "Copying image to rootfs.1", 3), at: 1)
                == [.show(RaucView(label: "Installing", details: "Copying image to rootfs.1", progress: 0.9))])
        #expect(m.handle(Self.p(100, "Installing done.", 1), at: 2) == [.show(RaucView(label: "Installing", details: "", progress: 1))])
        #expect(m.handle(.completed(0), at: 2) == [.succeeded])
        #expect(m.handle(.operation(.idle), at: 2).isEmpty)
        #expect(!m.isActive && m.nextDeadline == nil)
    }

    /// A failure: with LastError set during the installation, at once; without, LastError is
    /// read, and its answer (or the deadline) gives the notice.
    @Test func aFailureTakesLastError() {
        let m = MachineDriver()
        _ = m.handle(.appeared(owner: ":1.3"), at: 0)
        _ = m.handle(.lastError("an old error"), at: 0)
        _ = m.handle(.operation(.installing), at: 1)
        _ = m.handle(.lastError("signature verification failed: Verify error: self-signed certificate"), at: 1)
        #expect(m.handle(.completed(1), at: 1) == [.failed(.error("signature verification failed: Verify error: self-signed certificate"))])

        _ = m.handle(.operation(.installing), at: 2)
        #expect(m.handle(.completed(1), at: 2) == [.readLastError])
        #expect(m.isActive && m.nextDeadline == 2 + RaucMachine.lastErrorWait)
        #expect(m.handle(.lastError("no space left"), at: 2.5) == [.failed(.error("no space left"))])
        #expect(m.nextDeadline == nil)

        _ = m.handle(.operation(.installing), at: 3)
        #expect(m.handle(.completed(2), at: 3) == [.readLastError])
        #expect(m.advance(to: 3.5).isEmpty)
        #expect(m.advance(to: 4) == [.failed(.code(2))])
        #expect(m.handle(.lastError("late"), at: 4.1).isEmpty)
    }

    /// The service leaving mid-install keeps the last state with a note; back and idle, the
    /// installation was interrupted; back and installing again, it is followed.
    @Test func theServiceGoingAwayAndComingBack() {
        let m = MachineDriver()
        _ = m.handle(.appeared(owner: ":1.3"), at: 0)
        _ = m.handle(.operation(.installing), at: 1)
        _ = m.handle(Self.p(0, "Installing", 1), at: 1)
        _ = m.handle(Self.p(80, "Updating slots", 2), at: 1)
        let gone = m.handle(.vanished, at: 2)
        #expect(gone.first == .show(RaucView(label: "Installing", details: "Updating slots", progress: 0.8, note: .serviceGone)), "\(gone)")
        #expect(m.isActive && !m.present && m.interrupted)
        #expect(m.handle(.appeared(owner: ":1.9"), at: 3) == [.log("rauc: following de.pengutronix.rauc (:1.9)")])
        #expect(m.handle(Self.p(100, "Installing failed.", 1), at: 3).isEmpty)
        #expect(m.handle(.operation(.idle), at: 3) == [.failed(.interrupted)])
        #expect(!m.isActive)
        // Followed again.
        #expect(m.handle(.operation(.installing), at: 4) == [.show(RaucView(label: "Installing", details: "", progress: 0))])
        #expect(m.handle(.completed(0), at: 5) == [.succeeded])
        // Idle when it leaves: nothing to show.
        #expect(m.handle(.vanished, at: 6) == [.log("rauc: de.pengutronix.rauc left the bus; waiting for it")])
    }

    @Test func anUnknownOperationIsLoggedOnce() {
        let m = MachineDriver()
        #expect(m.handle(.operation(.other("downloading")), at: 0) == [.log("rauc: operation downloading is not one this daemon knows; shown as idle")])
        #expect(m.handle(.operation(.other("downloading")), at: 0).isEmpty)
        #expect(m.handle(Self.p(5, "x", 1), at: 0).isEmpty)
    }
}


/// The machine behind a class, so that `#expect` sees no mutating call (Swift 6.0's macro).
final class MachineDriver {
    var machine = RaucMachine()
    func handle(_ e: RaucEvent, at t: Double) -> [RaucAction] { machine.handle(e, at: t) }
    func advance(to t: Double) -> [RaucAction] { machine.advance(to: t) }
    var isActive: Bool { machine.isActive }
    var nextDeadline: Double? { machine.nextDeadline }
    var present: Bool { machine.present }
    var interrupted: Bool { machine.interrupted }
}

/// The follower on a loop with no bus at its address: one log line, a retry every second
/// (a loop timer, never a wait), nothing shown; closing it leaves nothing on the loop.
@Suite struct RaucFollowerTests {
    @Test func aBusThatIsNotThereIsTriedAgainOnTheLoop() throws {
        let loop = EmbeddedEventLoop()
        final class Lines { var all: [String] = []; var actions: [RaucAction] = [] }
        let lines = Lines()
        let follower: RaucFollower
        do {
            follower = try RaucFollower(address: "unix:path=/nonexistent-kiosk-rauc/bus.sock", loop: loop,
                                        log: { lines.all.append($0) }, perform: { lines.actions.append($0) })
        } catch {
            // A machine without libsystemd.so.0: the daemon says so at start.
            #expect("\(error)".hasPrefix("cannot load libsystemd.so.0"), "\(error)")
            return
        }
        #expect(!follower.connected)
        #expect(lines.all == ["rauc: cannot reach the bus (unix:path=/nonexistent-kiosk-rauc/bus.sock: No such file or directory); trying again every 1.0 s"])
        #expect(loop.pendingTimers == 1 && loop.nextTimer == RaucFollower.retryInterval)
        loop.advance(by: 1)
        loop.advance(by: 1)
        #expect(lines.all.count == 1 && loop.pendingTimers == 1 && lines.actions.isEmpty)
        follower.close()
        #expect(loop.pendingTimers == 0 && loop.watchedDescriptors.isEmpty)
    }
}
