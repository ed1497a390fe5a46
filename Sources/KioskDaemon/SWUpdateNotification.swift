/// SWUpdate's notifications, as its control socket streams them to a subscriber
/// (`ipc_notify_connect`, `NOTIFY_STREAM`): the words of each log line SWUpdate's notifiers
/// get — the only place SWUpdate says *why* an update failed (its progress socket says only
/// that it did). Records are whole `ipc_message`s: the same size from 2022.12 to now on a given
/// machine (3120 bytes where `size_t` is 64-bit, 3104 where it is 32-bit).
public struct SWUpdateNotification: Equatable, Sendable {
    /// SWUpdate's state when it was sent (`RECOVERY_STATUS`; nil: one this decoder does not know).
    public var status: SWUpdateMessage.Status?
    /// `LOGLEVEL`: 1 error, 2 warning, 3 info, 4 trace, 5 debug.
    public var level: Int
    /// Its words (an error's: "ERROR : …").
    public var text: String

    /// A notification with these fields.
    public init(status: SWUpdateMessage.Status?, level: Int, text: String) {
        self.status = status; self.level = level; self.text = text
    }

    /// An error (SWUpdate's ERROR()).
    public var isError: Bool { level == 1 }

    /// `IPC_MAGIC`, and the message types read and sent.
    static let magic: UInt32 = 0x1405_2001
    static let ack: UInt32 = 1, nack: UInt32 = 2, notifyStream: UInt32 = 11

    /// The size of one `ipc_message` on this machine.
    public static let recordSize = MemoryLayout<Int>.size == 8 ? 3120 : 3104

    /// The subscription request: an `ipc_message` of type `NOTIFY_STREAM`.
    public static var subscription: [UInt8] {
        var b = [UInt8](repeating: 0, count: recordSize)
        for i in 0..<4 { b[i] = UInt8((magic >> (8 * UInt32(i))) & 0xFF); b[4 + i] = UInt8((notifyStream >> (8 * UInt32(i))) & 0xFF) }
        return b
    }
}

/// The control socket's bytes in, notifications out (a pure decoder, one per connection).
public struct SWUpdateNotificationDecoder: Sendable {
    /// What the bytes said.
    public enum Output: Equatable, Sendable {
        /// SWUpdate took the subscription.
        case acknowledged
        case notification(SWUpdateNotification)
        /// Not SWUpdate's records (a bad magic, a refusal): nothing more is read.
        case refused
    }

    private var pending: [UInt8] = []
    /// Set after `refused`: everything is dropped.
    public private(set) var stopped = false

    /// A decoder for a new connection.
    public init() {}

    static func word(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
    }

    /// Takes the bytes of one read; the records they complete.
    public mutating func feed<C: Collection>(_ bytes: C) -> [Output] where C.Element == UInt8 {
        guard !stopped else { return [] }
        pending.append(contentsOf: bytes)
        let size = SWUpdateNotification.recordSize
        var out: [Output] = []
        var at = 0
        while pending.count - at >= size {
            let record = Array(pending[at..<(at + size)])
            func w(_ o: Int) -> UInt32 { SWUpdateNotificationDecoder.word(record, o) }
            guard w(0) == SWUpdateNotification.magic else { stopped = true; out.append(.refused); break }
            switch w(4) {
            case SWUpdateNotification.ack: out.append(.acknowledged)
            case SWUpdateNotification.notifyStream:
                let text = record[20..<(20 + 2048)].prefix { $0 != 0 }
                out.append(.notification(SWUpdateNotification(status: SWUpdateMessage.Status(rawValue: w(8)), level: Int(Int32(bitPattern: w(16))),
                                                              text: String(decoding: text, as: UTF8.self))))
            case SWUpdateNotification.nack: stopped = true; out.append(.refused)
            default: break
            }
            if stopped { break }
            at += size
        }
        if stopped { pending = [] } else { pending.removeFirst(at) }
        return out
    }
}
