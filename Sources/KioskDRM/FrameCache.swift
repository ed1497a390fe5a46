import CKioskSys
import Glibc
import KioskSeams
import KioskRaster
import KioskSys

/// The frame cache's writer: the first frame an output showed, in its scanout format and
/// rotation, with what the C reader (CKioskFrameCache.h, CKioskEarlyFrame) needs to show it
/// again before the Swift runtime starts — the card, connector, CRTC, mode — and what it was drawn
/// from (file identities: the binary, the board profile, fonts …) so that a change to any of
/// them means the normal start.
public enum FrameCache {
    /// Where a command line's first frame is kept (KioskSeams' `FrameCacheLocation`, the word
    /// every screen's frame cache uses), found by the C constructor's own rule
    /// (`kiosk_frame_cache_locate`), so the writer and the early frame agree on the file and the
    /// arguments that count.
    public typealias Location = FrameCacheLocation

    /// Where `argv` (the whole command line, argv[0] first) keeps its first frame; nil when it
    /// has none (not a command that owns a display, offscreen, --no-frame-cache, no cache
    /// directory).
    public static func locate(_ argv: [String]) -> Location? {
        argv.withCArgv { argc, p -> Location? in
            var where_ = kiosk_frame_cache_location()
            guard kiosk_frame_cache_locate(argc, p, &where_) == 0 else { return nil }
            let path = withUnsafeBytes(of: where_.path) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            return Location(path: path, arguments: Array(argv[1..<Int(where_.argc)]), key: where_.key)
        }
    }

    /// Whether `name` is a frame file's name (frame-KEY.bin; with `prefix`, one kept under that
    /// prefix: the initramfs's frame in the real root's directory). The C side names them
    /// (`kiosk_frame_cache_locate`).
    public static func isFrameFile(_ name: String, prefix: String = "") -> Bool {
        name.hasPrefix(prefix + "frame-") && name.hasSuffix(".bin")
    }

    /// The cache directory (glyphs and frames) for `argv`: --glyph-cache DIR, else the default;
    /// nil for 'none' or when there is no place. The C constructor's own rule.
    public static func cacheDirectory(_ argv: [String]) -> String? {
        argv.withCArgv { argc, p -> String? in
            var out = [CChar](repeating: 0, count: Int(KIOSK_FRAME_CACHE_PATH_MAX))
            guard kiosk_cache_directory(argc, p, &out, out.count) == 0 else { return nil }
            return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// What `save` did (KioskSeams' `FrameCacheOutcome`).
    public typealias Outcome = FrameCacheOutcome

    /// Writes the first display's last presented picture (call right after the first frame) for
    /// its first head at `location`, unless `previousHash` (the early frame's) says the file
    /// holds it already. `files`: what the picture was drawn from. The file is written (and old
    /// ones pruned) through `kernel`.
    public static func save(screen: DRMScreen, at location: Location, files: [String], previousHash: UInt64?,
                            kernel: any Kernel = LinuxKernel()) -> Outcome {
        let path = location.path, arguments = location.arguments
        guard let o = screen.drmDisplays.first, let head = o.heads.first, let frame = o.lastFrame,
              let pitch = o.scanoutPitch
        else { return .skipped("nothing on screen yet") }
        let w = o.mode.width, h = o.mode.height
        let frameSize = pitch * h
        guard frameSize <= Int(KIOSK_FRAME_CACHE_FRAME_MAX) else { return .skipped("a \(w)x\(h) frame is over the size limit") }
        var args: [UInt8] = []
        for a in arguments { args += Array(a.utf8); args.append(0) }
        guard args.count <= Int(KIOSK_FRAME_CACHE_ARGS_MAX) else { return .skipped("arguments too long") }

        var header = kiosk_frame_cache_header()
        withUnsafeMutableBytes(of: &header.magic) { m in for (i, c) in "KHFRAME".utf8.enumerated() { m[i] = c } }
        header.version = KIOSK_FRAME_CACHE_VERSION
        header.header_size = UInt32(MemoryLayout<kiosk_frame_cache_header>.size)
        header.args_size = UInt32(args.count)
        var count = 0
        for f in files where count < Int(KIOSK_FRAME_CACHE_MAX_FILES) {
            var id = kiosk_file_identity()
            guard kiosk_file_identity_of(f, &id) == 0 else { return .skipped("\(f): cannot stat") }
            withUnsafeMutableBytes(of: &header.files) { all in
                withUnsafeBytes(of: id) { all.baseAddress!.advanced(by: count * MemoryLayout<kiosk_file_identity>.stride).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            }
            count += 1
        }
        guard count == files.count else { return .skipped("more than \(KIOSK_FRAME_CACHE_MAX_FILES) files") }
        header.file_count = UInt32(count)
        let card = Array(screen.card.path.utf8)
        guard card.count < MemoryLayout.size(ofValue: header.card) else { return .skipped("card path too long") }
        withUnsafeMutableBytes(of: &header.card) { m in for (i, c) in card.enumerated() { m[i] = c } }
        header.connector_id = head.connector.id
        header.crtc_id = head.crtc
        header.mode = o.mode.raw
        header.fourcc = fourcc(o.preferredFormat)
        header.bpp = UInt32(o.preferredFormat.bytesPerPixel * 8)
        header.width = UInt32(w)
        header.height = UInt32(h)
        header.pitch = UInt32(pitch)
        header.frame_size = UInt64(frameSize)
        header.rotation = UInt32(o.transform.rotation.rawValue)
        header.scale = o.scale

        // The picture as the scanout buffer holds it (rotated, converted), built in ordinary memory.
        let headerSize = MemoryLayout<kiosk_frame_cache_header>.size
        var bytes = [UInt8](repeating: 0, count: headerSize + args.count + frameSize)
        let hash: UInt64 = bytes.withUnsafeMutableBytes { all -> UInt64 in
            let base = all.baseAddress!.advanced(by: headerSize + args.count)
            return scanout(frame, into: base, width: w, height: h, pitch: pitch, format: o.preferredFormat, rotation: o.transform.rotation)
        }
        if previousHash == hash { return .unchanged }
        header.frame_hash = hash
        header.key = location.key
        bytes.withUnsafeMutableBytes { all in
            withUnsafeBytes(of: header) { all.copyMemory(from: $0) }
            for (i, b) in args.enumerated() { all[headerSize + i] = b }
        }
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) }
        do {
            if let directory { try kernel.makeDirectories(directory) }
            try kernel.replaceFile(path, with: bytes)
        } catch {
            return .skipped("\(path): \(error)")
        }
        if let directory { prune(directory, keeping: path, kernel: kernel) }
        return .written
    }

    /// Copies `frame` (the picture as drawn, before rotation) into `base` as the scanout buffer
    /// holds it — `width`×`height` (the mode), rows `pitch` bytes apart, in `format`, rotated —
    /// and returns its `kiosk_frame_hash` (0 when the geometry cannot hold it).
    static func scanout(_ frame: Surface, into base: UnsafeMutableRawPointer, width: Int, height: Int, pitch: Int,
                        format: PixelFormat, rotation: Rotation) -> UInt64 {
        guard let target = try? Surface(base: base, width: width, height: height, stride: pitch, format: format) else { return 0 }
        ScanoutCopy.copy(frame, rect: IntRect(x: 0, y: 0, width: frame.width, height: frame.height), to: target, rotation: rotation)
        return kiosk_frame_hash(base, pitch * height)
    }

    /// How many frame files a cache directory keeps: a script that shows a different label at
    /// each step leaves one file per step, and each is a whole frame (1.5 MB at 800x480).
    public static let filesKept = 4

    /// Removes all but the `filesKept` newest frame-*.bin files in `directory` (never `current`).
    static func prune(_ directory: String, keeping current: String, kernel: any Kernel) {
        var frames: [(path: String, modified: UInt64)] = []
        for name in kernel.listDirectory(directory) ?? [] where isFrameFile(name) {
            let p = directory + "/" + name
            if p != current, let id = kernel.fileIdentity(p) { frames.append((p, id.modified)) }
        }
        guard frames.count >= filesKept else { return }
        frames.sort { $0.modified > $1.modified }
        for f in frames[(filesKept - 1)...] { try? kernel.removeFile(f.path) }
    }
}

extension DRMScreen: FrameCacheSource {
    /// The frame cache of this screen: its first display's first head (`FrameCache.save`).
    public var frameCache: FrameCacheSource? { self }

    /// The early frame's hash when it was continued (`continuedEarlyFrame`), else nil.
    public var earlyFrameHash: UInt64? { continuedEarlyFrame ? options.earlyFrame?.frameHash : nil }

    /// `FrameCache.save` through the card's kernel, with `filesIfPresent` that exist added to
    /// `files`, and `earlyFrameHash` as the hash the file holds.
    public func saveFrame(at location: FrameCacheLocation, files: [String], filesIfPresent: [String]) -> FrameCacheOutcome {
        let kernel = card.kernel
        let all = files + filesIfPresent.filter { kernel.fileExists($0) }
        return FrameCache.save(screen: self, at: location, files: all, previousHash: earlyFrameHash, kernel: kernel)
    }
}

extension Array where Element == String {
    /// Calls `body` with these strings as a C argv (argc, then the pointers and a NULL).
    func withCArgv<R>(_ body: (Int32, UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
        var pointers: [UnsafeMutablePointer<CChar>?] = map { strdup($0) }
        defer { for p in pointers { free(p) } }
        pointers.append(nil)
        return pointers.withUnsafeBufferPointer { body(Int32(count), $0.baseAddress!) }
    }
}
