/// SWUpdate's progress socket, as its progress clients read it (`swupdate-progress`,
/// `progress_ipc.h`): a stream of fixed-size `struct progress_msg`, in the machine's byte order
/// (read here as little-endian: x86-64, arm64, armhf).
///
/// Three generations of the wire, all read here:
/// - **2022.12** (Debian 12) and 2023.05: no version; the first word is an unused `magic`;
///   C's natural alignment (2416 bytes on 64-bit and ARM EABI targets).
/// - **API 1** (2023.12, 2024.05): the first word is the API version (major 1), the same layout.
/// - **API 2** (2024.12 on): the server first sends an acknowledgement (`struct
///   progress_connect_ack`: the API version and "ACK"); then the messages, whose first word is
///   the version (major 2): naturally aligned until 2025.05, packed (2408 bytes) from 2025.12.
///
/// Any other version is `SWUpdateDecoder.Output.unsupported`: the decoder reads nothing more.
public struct SWUpdateMessage: Equatable, Sendable {
    /// `RECOVERY_STATUS`.
    public enum Status: UInt32, Sendable, CaseIterable {
        case idle = 0, start, run, success, failure, download, done, subprocess, progress
    }

    /// `sourcetype`: what started the update.
    public enum Source: UInt32, Sendable, CaseIterable {
        case unknown = 0, webServer, suricatta, downloader, local, chunksDownloader

        /// How the HUD's details name it (SWUpdate's own names for its interfaces).
        public var name: String {
            switch self {
            case .unknown: ""
            case .webServer: "web"
            case .suricatta: "suricatta"
            case .downloader: "download"
            case .local: "local"
            case .chunksDownloader: "download"
            }
        }
    }

    /// What SWUpdate is doing.
    public var status: Status
    /// The download's percent (status `download`).
    public var downloadPercent: Int
    /// The download's size in bytes.
    public var downloadBytes: UInt64
    /// The update's steps (images to install) and the current one, from 1.
    public var steps: Int
    public var step: Int
    /// The current step's percent.
    public var stepPercent: Int
    /// The image being installed.
    public var image: String
    /// Its handler (`rawfile`, `ubivol`, …).
    public var handler: String
    /// What started the update.
    public var source: Source
    /// Extra information (JSON text from SWUpdate, or an error's words); empty when none.
    public var info: String

    /// A message with these fields.
    public init(status: Status, downloadPercent: Int = 0, downloadBytes: UInt64 = 0, steps: Int = 0, step: Int = 0,
                stepPercent: Int = 0, image: String = "", handler: String = "", source: Source = .unknown, info: String = "") {
        self.status = status; self.downloadPercent = downloadPercent; self.downloadBytes = downloadBytes
        self.steps = steps; self.step = step; self.stepPercent = stepPercent; self.image = image
        self.handler = handler; self.source = source; self.info = info
    }
}

/// Where the fields of a `progress_msg` are, by generation.
public enum SWUpdateLayout: Equatable, Sendable {
    /// 2022.12–2024.12.x: natural alignment (the version or magic word, then padding before
    /// the 64-bit byte count).
    case aligned
    /// 2025.12 on: `__attribute__((packed))`.
    case packed

    /// The size of one message.
    public var size: Int { self == .aligned ? 2416 : 2408 }

    /// Offsets: status, dwl_percent, dwl_bytes, nsteps, cur_step, cur_percent, cur_image[256],
    /// hnd_name[64], source, infolen, info[2048].
    var offsets: (status: Int, dwlPercent: Int, dwlBytes: Int, steps: Int, step: Int, percent: Int,
                  image: Int, handler: Int, source: Int, infoLength: Int, info: Int) {
        let shift = self == .aligned ? 4 : 0
        return (4, 8, 12 + shift, 20 + shift, 24 + shift, 28 + shift, 32 + shift, 288 + shift, 352 + shift, 356 + shift, 360 + shift)
    }

    /// One message from `bytes` (at least `size` of them from `start`). nil when its status
    /// is not one SWUpdate sends.
    public func decode(_ bytes: [UInt8], at start: Int = 0) -> SWUpdateMessage? {
        let o = offsets
        func word(_ at: Int) -> UInt32 {
            var v: UInt32 = 0
            for i in 0..<4 { v |= UInt32(bytes[start + at + i]) << (8 * UInt32(i)) }
            return v
        }
        func text(_ at: Int, _ count: Int) -> String {
            let field = bytes[(start + at)..<(start + at + count)]
            return String(decoding: field.prefix { $0 != 0 }, as: UTF8.self)
        }
        guard let status = SWUpdateMessage.Status(rawValue: word(o.status)) else { return nil }
        let bytesLow = UInt64(word(o.dwlBytes)), bytesHigh = UInt64(word(o.dwlBytes + 4))
        let infoLength = min(Int(word(o.infoLength)), 2047)
        return SWUpdateMessage(
            status: status, downloadPercent: Int(min(word(o.dwlPercent), 100)), downloadBytes: bytesHigh << 32 | bytesLow,
            steps: Int(min(word(o.steps), 1_000_000)), step: Int(min(word(o.step), 1_000_000)), stepPercent: Int(min(word(o.percent), 100)),
            image: text(o.image, 256), handler: text(o.handler, 64),
            source: SWUpdateMessage.Source(rawValue: word(o.source)) ?? .unknown,
            info: text(o.info, infoLength))
    }
}

/// The progress socket's bytes in, messages out: a pure decoder, one per connection. Partial
/// messages wait for their rest.
public struct SWUpdateDecoder: Sendable {
    /// What the bytes said.
    public enum Output: Equatable, Sendable {
        case message(SWUpdateMessage)
        /// A version this decoder does not read (the server's API version word): nothing more
        /// is read from this connection.
        case unsupported(version: UInt32)
    }

    /// The wire's generation, once known.
    public enum Wire: Equatable, Sendable {
        /// 2022.12–2023.05: no version.
        case unversioned
        /// A version word (major 1 or 2).
        case versioned(UInt32)
    }

    /// API 2's acknowledgement: the version, then "ACK\0".
    static let ackSize = 8
    static let ackMagic: [UInt8] = [0x41, 0x43, 0x4B, 0]

    /// The wire's generation, once the first bytes said it.
    public private(set) var wire: Wire?
    /// The messages' layout, once known.
    public private(set) var layout: SWUpdateLayout?
    /// Set after `unsupported`: everything is dropped.
    public private(set) var stopped = false
    private var pending: [UInt8] = []
    private var acknowledged = false

    /// A decoder for a new connection.
    public init() {}

    /// Bytes not yet a whole message.
    public var pendingCount: Int { pending.count }

    static func word(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
    }

    /// Takes the bytes of one read; the messages they complete.
    public mutating func feed<C: Collection>(_ bytes: C) -> [Output] where C.Element == UInt8 {
        guard !stopped else { return [] }
        // The size of this read, when it starts at a message's boundary: SWUpdate sends each
        // message with one send(), so a read of exactly 2408 bytes on an empty buffer is one
        // packed message.
        let startedEmpty = pending.isEmpty
        pending.append(contentsOf: bytes)
        var out: [Output] = []
        var at = 0
        defer { pending.removeFirst(at) }
        while !stopped {
            // API 2's acknowledgement comes first, on its own.
            if !acknowledged, wire == nil, pending.count - at >= SWUpdateDecoder.ackSize,
               Array(pending[(at + 4)..<(at + 8)]) == SWUpdateDecoder.ackMagic {
                let v = SWUpdateDecoder.word(pending, at)
                at += SWUpdateDecoder.ackSize
                acknowledged = true
                guard v >> 16 == 2 else { stopped = true; out.append(.unsupported(version: v)); break }
                wire = .versioned(v)
                continue
            }
            guard pending.count - at >= 4 else { break }
            if wire == nil {
                let first = SWUpdateDecoder.word(pending, at)
                switch first >> 16 {
                case 0 where first == 0: wire = .unversioned
                case 1, 2: wire = .versioned(first)
                default:
                    // Not yet sure it is no ACK: wait for its 8 bytes.
                    if pending.count - at < SWUpdateDecoder.ackSize { return out }
                    stopped = true; out.append(.unsupported(version: first)); return out
                }
            }
            if layout == nil {
                guard let l = detectLayout(from: at, readSize: startedEmpty ? pending.count - at : nil) else { break }
                layout = l
            }
            guard let layout, pending.count - at >= layout.size else { break }
            if case let .versioned(v) = wire, SWUpdateDecoder.word(pending, at) >> 16 != v >> 16 {
                stopped = true; out.append(.unsupported(version: SWUpdateDecoder.word(pending, at))); break
            }
            if let m = layout.decode(pending, at: at) { out.append(.message(m)) }
            at += layout.size
        }
        if stopped { at = pending.count }
        return out
    }

    /// The layout: aligned for the wires before API 2; for API 2, packed when a read brought
    /// exactly one packed message, or when a second message starts right after 2408 bytes.
    private func detectLayout(from at: Int, readSize: Int?) -> SWUpdateLayout? {
        guard case let .versioned(v) = wire, v >> 16 == 2 else { return .aligned }
        let have = pending.count - at
        if readSize == SWUpdateLayout.packed.size { return .packed }
        if readSize == SWUpdateLayout.aligned.size { return .aligned }
        if have >= SWUpdateLayout.packed.size + 4 {
            return SWUpdateDecoder.word(pending, at + SWUpdateLayout.packed.size) == v ? .packed : .aligned
        }
        return have >= SWUpdateLayout.aligned.size ? .aligned : nil
    }
}
