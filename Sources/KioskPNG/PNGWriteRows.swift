import CKioskPNG
import KioskSys

extension PNG {
    /// Writes a `width` × `height` PNG whose rows `row` gives, one at a time, top-down:
    /// `row(y, bytes)` fills `bytes` (width × 4 straight RGBA8 when `alpha`, else width × 3
    /// RGB8). libpng's row API encodes each row as it comes and the bytes go straight to a new
    /// file beside `path`, renamed over it (KioskSys's `replaceFile(_:mode:writing:)`), so the
    /// memory used is one row and libpng's window whatever the size — `write(_:path:)` holds
    /// the image, a converted copy and the encoded file (an 8192 × 8192 frame: 600 MB more).
    /// The same checks and errors as `write(_:path:)`. The new file is made, written and closed
    /// through `kernel` (the real one unless a test plays it).
    public static func write(width: Int, height: Int, alpha: Bool, path: String, kernel: any KernelFiles & KernelDescriptors = LinuxKernel(),
                             row: (Int, UnsafeMutableBufferPointer<UInt8>) -> Void) throws(PNGError) {
        guard !path.isEmpty else { throw PNGError(operation: "write", message: "empty path", path: path) }
        if let status = try? kernel.fileStatus(path), status.kind != .regular {
            throw PNGError(operation: "write", message: "not a regular file (\(status.kind))", path: path)
        }
        guard width > 0, height > 0, width <= 0x7FFF_FFFF / 4, height <= 0x7FFF_FFFF else {
            throw PNGError(operation: "write", message: "invalid size \(width)x\(height)", path: path)
        }
        try loadLibPNG("write", path: path)
        var encodeFailure: String?
        do throws(SysError) {
            try kernel.replaceFile(path) { (fd) throws(SysError) in
                try withoutActuallyEscaping(row) { row throws(SysError) in
                    let sink = RowSink(fd: fd, kernel: kernel, width: width, alpha: alpha, row: row)
                    var q = kiosk_png_write_request()
                    q.width = png_uint_32(width); q.height = png_uint_32(height); q.alpha = alpha ? 1 : 0
                    q.fast = width * height > Self.fastWritePixels ? 1 : 0
                    q.context = Unmanaged.passUnretained(sink).toOpaque()
                    q.row = { context, y, bytes in
                        let s = Unmanaged<RowSink>.fromOpaque(context!).takeUnretainedValue()
                        s.row(Int(y), UnsafeMutableBufferPointer(start: bytes, count: s.width * (s.alpha ? 4 : 3)))
                    }
                    q.write = { context, buffer, size in
                        let s = Unmanaged<RowSink>.fromOpaque(context!).takeUnretainedValue()
                        do throws(SysError) { try s.kernel.writeAll(s.fd, UnsafeRawBufferPointer(start: buffer, count: size)); return 0 } catch {
                            s.failure = error
                            return -1
                        }
                    }
                    let status = withExtendedLifetime(sink) { kiosk_png_write_rows(&q) }
                    if let failure = sink.failure { throw failure }
                    guard status == KIOSK_PNG_READ_OK else {
                        encodeFailure = withUnsafeBytes(of: q.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                        throw SysError(call: "encode", errno: 0)
                    }
                }
            }
        } catch {
            if let encodeFailure { throw PNGError(operation: "write", message: encodeFailure, path: path) }
            throw PNGError(operation: "write", message: cannotWrite(error, path), path: path)
        }
    }
}

extension PNG {
    /// Above this many pixels a frame is written for speed (the Sub filter only, zlib's Z_RLE):
    /// libpng's defaults took ~1.9 s of CPU for an 8192x8192 frame.
    static let fastWritePixels = 1 << 22
}

/// What kiosk_png_write_rows's callbacks need (passed to C as an unretained pointer).
private final class RowSink {
    let fd: Int32
    let kernel: any KernelFiles & KernelDescriptors
    let width: Int
    let alpha: Bool
    let row: (Int, UnsafeMutableBufferPointer<UInt8>) -> Void
    var failure: SysError?
    init(fd: Int32, kernel: any KernelFiles & KernelDescriptors, width: Int, alpha: Bool, row: @escaping (Int, UnsafeMutableBufferPointer<UInt8>) -> Void) {
        self.fd = fd; self.kernel = kernel; self.width = width; self.alpha = alpha; self.row = row
    }
}

/// "cannot write: open x.png.123.tmp: Permission denied" — the new file beside `path` named by
/// its last part only when `path` is long (the message shows `path` already).
func cannotWrite(_ error: SysError, _ path: String) -> String {
    var target = error.target ?? path
    if target.hasPrefix(path), path.unicodeScalars.count > 40 { target = "…" + String(target.dropFirst(path.count)) }
    return "cannot write: \(error.call) \(shownPath(target)): \(error.reason)"
}
