// Who may say what to the RAUC follower (RaucSenders, pure): the bus's own signal and reply from
// the bus only; the installer's from the current owner of RAUC's name only, nothing while it
// has none. And what a log line says of a value of the wrong type: its type, never the value.
import KioskDaemon
import KioskTestSupport
import Testing

@Suite struct RaucSenderTests {
    @Test func theBusSpeaksForItself() {
        for kind in [RaucMessageKind.ownerChanged, .nameOwner] {
            #expect(RaucSenders.refusal(kind, sender: "org.freedesktop.DBus", owner: nil) == nil)
            #expect(RaucSenders.refusal(kind, sender: "org.freedesktop.DBus", owner: ":1.3") == nil)
            // Not even RAUC's owner may say who owns the name.
            #expect(RaucSenders.refusal(kind, sender: ":1.3", owner: ":1.3") == .notTheBus(sender: ":1.3"))
            #expect(RaucSenders.refusal(kind, sender: nil, owner: nil) == .notTheBus(sender: nil))
        }
    }

    @Test func theInstallerIsTheOwnerOnly() {
        for kind in [RaucMessageKind.propertiesChanged, .completed, .allProperties, .lastError] {
            #expect(RaucSenders.refusal(kind, sender: ":1.3", owner: ":1.3") == nil)
            #expect(RaucSenders.refusal(kind, sender: ":1.7", owner: ":1.3") == .notTheOwner(sender: ":1.7", owner: ":1.3"))
            // The well-known name is never a message's sender: the bus puts the unique name there.
            #expect(RaucSenders.refusal(kind, sender: "de.pengutronix.rauc", owner: ":1.3") != nil)
            #expect(RaucSenders.refusal(kind, sender: ":1.3", owner: nil) == .noOwner(sender: ":1.3"))
            #expect(RaucSenders.refusal(kind, sender: "org.freedesktop.DBus", owner: nil) != nil)
        }
        #expect(RaucRefusal.notTheOwner(sender: ":1.7", owner: ":1.3").description == "from :1.7, not de.pengutronix.rauc's owner :1.3")
        #expect(RaucRefusal.noOwner(sender: nil).description == "from no sender while de.pengutronix.rauc has no owner")
        #expect(RaucRefusal.notTheBus(sender: ":1.9").description == "from :1.9, not org.freedesktop.DBus")
    }

    @Test func signatures() {
        #expect(DBusValue.string("x").signature == "s")
        #expect(DBusValue.structure([.integer(1, .int32), .string("m"), .integer(1, .int32)]).signature == "(isi)")
        #expect(DBusValue.array([.dictEntry(.string("k"), .variant(.bool(true)))]).signature == "a{sv}")
        #expect(DBusValue.array([]).signature == "a?")
        let deep = (0..<40).reduce(DBusValue.byte(1)) { v, _ in .structure([v, .double(0)]) }
        #expect(deep.signature.count == DBusValue.signatureLimit && deep.signature.hasSuffix("…"))
    }

    /// A wrong type with a large value: the error is short and has none of the value.
    @Test func aMalformedSignalIsAShortLine() {
        let large = String(repeating: "X", count: 1_000_000)
        let errors = [
            caught(RaucDecodeError.self) { _ = try RaucDecoding.completed([.string(large)]) },
            caught(RaucDecodeError.self) { _ = try RaucDecoding.property("Progress", .variant(.string(large))) },
            caught(RaucDecodeError.self) { _ = try RaucDecoding.property("Operation", .variant(.array([.string(large)]))) },
            caught(RaucDecodeError.self) { _ = try RaucDecoding.property("LastError", .variant(.integer(1, .int32))) },
            caught(RaucDecodeError.self) { _ = try RaucDecoding.properties(.array([.string(large)])) },
            caught(RaucDecodeError.self) { _ = try RaucDecoding.properties(.string(large)) },
        ]
        for e in errors {
            #expect(e != nil)
            #expect((e?.description.utf8.count ?? 0) < 120 && e?.description.contains("XX") == false, "\(String(describing: e))")
        }
        #expect(errors[0]?.description == "Completed is not (i) but (s)")
        #expect(errors[1]?.description == "Progress is not (isi) but s")
    }
}
