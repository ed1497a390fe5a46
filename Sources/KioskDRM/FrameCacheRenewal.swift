import CKioskSys
import Glibc
import KioskRaster
import KioskSeams
import KioskSys

// The frame cache across a package upgrade. A cached frame names the program it was drawn by
// (its build ID), so a new package refuses every frame the old one kept and the first boot after
// an upgrade draws — the slow start, on the boot that follows every OTA update. Most upgrades do
// not change the picture. The new program cannot know that from its code, so it draws the
// picture again (`renew`), offscreen, from what the file records — the arguments, the mode, the
// format, the rotation and the scale — and compares it with the cached frame, pixel for pixel
// (the frame's hash): the same picture, and the file is the new program's (its identity put in
// place of the old one's); another picture, and the file goes (the next start draws and keeps
// the new one). Any other file the frame was drawn from that changed meanwhile leaves the file
// as it is (the start refuses it, as before). The package's postinst runs it
// (`kiosk-hud frame-cache renew`), before the initramfs is made again.

/// One frame cache file as read back.
public struct FrameCacheFile {
    public var path: String
    /// The arguments it was drawn with (argv[1] up to "--": the command first).
    public var arguments: [String]
    /// The mode's size, the format, the rotation and the scale the frame was drawn at.
    public var width: Int, height: Int, pitch: Int
    public var format: PixelFormat
    public var rotation: Rotation
    public var scale: Double
    public var frameHash: UInt64
    /// The whole file (header, arguments, frame).
    var bytes: [UInt8]
    var header: kiosk_frame_cache_header

    /// The file at `path` read through `kernel`; nil when it is not a frame cache file of this
    /// version (or cannot be read).
    /// The largest frame cache file: a header, the arguments and the frame at their limits.
    public static let sizeLimit = MemoryLayout<kiosk_frame_cache_header>.size + Int(KIOSK_FRAME_CACHE_ARGS_MAX) + Int(KIOSK_FRAME_CACHE_FRAME_MAX)

    public init?(path: String, kernel: any KernelFiles & KernelDescriptors) {
        let size = MemoryLayout<kiosk_frame_cache_header>.size
        guard let bytes = try? kernel.readFileBytes(path, limit: Self.sizeLimit), bytes.count >= size else { return nil }
        let h = bytes.withUnsafeBytes { $0.loadUnaligned(as: kiosk_frame_cache_header.self) }
        let magic = withUnsafeBytes(of: h.magic) { Array($0.prefix(7)) }
        guard magic == Array("KHFRAME".utf8), h.version == KIOSK_FRAME_CACHE_VERSION, h.header_size == UInt32(size),
              bytes.count == size + Int(h.args_size) + Int(h.frame_size), h.file_count <= KIOSK_FRAME_CACHE_MAX_FILES,
              let rotation = Rotation(rawValue: Int(h.rotation)), h.scale > 0
        else { return nil }
        self.path = path
        arguments = bytes[size..<size + Int(h.args_size)].split(separator: 0, omittingEmptySubsequences: false).dropLast()
            .map { String(decoding: $0, as: UTF8.self) }
        width = Int(h.width); height = Int(h.height); pitch = Int(h.pitch)
        format = h.fourcc == KIOSK_DRM_FORMAT_RGB565 ? .rgb565 : .xrgb8888
        self.rotation = rotation
        scale = h.scale
        frameHash = h.frame_hash
        self.bytes = bytes
        header = h
    }

    /// The picture's size as drawn (the mode's, turned by a quarter rotation).
    public var pictureSize: (width: Int, height: Int) {
        rotation == .quarter || rotation == .threeQuarters ? (height, width) : (width, height)
    }

    /// The files the frame was drawn from, as recorded (the program is "/proc/self/exe").
    var files: [kiosk_file_identity] {
        withUnsafeBytes(of: header.files) { Array($0.bindMemory(to: kiosk_file_identity.self).prefix(Int(header.file_count))) }
    }

    /// The recorded path of a file identity.
    static func path(of id: kiosk_file_identity) -> String {
        withUnsafeBytes(of: id.path) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

/// What `FrameCache.renew` did with one file.
public enum FrameCacheRenewal: Equatable, Sendable {
    /// Already this program's.
    case current
    /// The same picture drawn by this program: the file is now its own.
    case renewed
    /// This program draws another picture: the file was removed (the next start keeps the new one).
    case removed(String)
    /// Left as it is (why): a file it was drawn from changed, a command whose first frame is not
    /// drawn here, a picture that could not be drawn.
    case left(String)
}

extension FrameCache {
    /// The program's own entry in a frame's files.
    static let program = "/proc/self/exe"

    /// Makes `file` this program's when `draw` gives the same picture (see the file's header).
    /// `draw`: the picture for the file's arguments at its size, format, rotation and scale (the
    /// first frame, as the command would draw it); throws when it cannot.
    public static func renew(_ file: FrameCacheFile, kernel: any Kernel,
                             draw: (FrameCacheFile) throws -> Bitmap) -> FrameCacheRenewal {
        var ids = file.files
        var programAt: Int?
        for (i, id) in ids.enumerated() {
            var now = kiosk_file_identity()
            let path = FrameCacheFile.path(of: id)
            guard kiosk_file_identity_of(path, &now) == 0 else { return .left("\(path) is gone") }
            var then = id
            if path == program { programAt = i; ids[i] = now; continue }
            guard kiosk_file_identity_same(&then, &now) != 0 else { return .left("\(path) changed") }
        }
        guard let at = programAt else { return .left("it names no program") }
        var recorded = file.files[at], now = ids[at]
        if kiosk_file_identity_same(&recorded, &now) != 0 { return .current }
        let bitmap: Bitmap
        do { bitmap = try draw(file) } catch { return .left("\(error)") }
        let picture = bitmap.surface
        let (w, h) = file.pictureSize
        guard picture.width == w, picture.height == h else { return .left("drawn at \(picture.width)x\(picture.height), not \(w)x\(h)") }
        var buffer = [UInt8](repeating: 0, count: file.pitch * file.height)
        let hash = buffer.withUnsafeMutableBytes {
            FrameCache.scanout(picture, into: $0.baseAddress!, width: file.width, height: file.height, pitch: file.pitch, format: file.format, rotation: file.rotation)
        }
        withExtendedLifetime(bitmap) {}
        guard hash == file.frameHash else {
            do throws(SysError) { try kernel.removeFile(file.path) } catch { return .left("another picture, and \(error)") }
            return .removed("this program draws another picture")
        }
        var header = file.header
        withUnsafeMutableBytes(of: &header.files) { all in
            withUnsafeBytes(of: now) { all.baseAddress!.advanced(by: at * MemoryLayout<kiosk_file_identity>.stride).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        }
        var bytes = file.bytes
        bytes.withUnsafeMutableBytes { all in withUnsafeBytes(of: header) { all.copyMemory(from: $0) } }
        do throws(SysError) { try kernel.replaceFile(file.path, with: bytes) } catch { return .left("\(error)") }
        return .renewed
    }
}
