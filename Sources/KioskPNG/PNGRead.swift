import CKioskPNG
import Glibc
import KioskSys

extension PNG {
    /// Reads a PNG file as RGBA8 with `PNGReadLimit.default` (see `read(path:limit:)`).
    public static func read(path: String, kernel: any KernelFiles & KernelDescriptors = LinuxKernel()) throws(PNGError) -> PNGImage {
        try read(path: path, limit: .default, kernel: kernel)
    }

    /// Reads a PNG file as RGBA8, deciding from its header, before decoding, how (`limit`):
    /// as is, scaled down while streaming, or refused. The file is opened without blocking and
    /// must be a regular file of at most `limit.maxFileBytes`; libpng reads it from the
    /// descriptor, so the memory used is the result plus a few rows however big the file is.
    /// Throws `PNGError` (operation "read", `path` set) with one line of why: "empty path",
    /// "not a regular file (a FIFO)", "cannot open: …", "not a PNG file", "image is WxH (N
    /// pixels); at most …", "cannot decode: <libpng's message>". The file is opened, read and
    /// closed through `kernel` (the real one unless a test plays it); decoding is pure.
    public static func read(path: String, limit: PNGReadLimit, kernel: any KernelFiles & KernelDescriptors = LinuxKernel()) throws(PNGError) -> PNGImage {
        let (file, header, size) = try open(path: path, limit: limit, kernel: kernel)
        defer { file.close() }
        return try decodeRows(header, size: size, operation: "read", path: path, sourceFailure: { file.failure }) { request in
            file.attach(to: &request)
            return kiosk_png_read_rgba(&request)
        }
    }

    /// The file opened, its header read and the decoded size decided (`limit`).
    private static func open(path: String, limit: PNGReadLimit, kernel: any KernelFiles & KernelDescriptors, as user: PeerCredentials? = nil) throws(PNGError)
        -> (InputFile, PNGHeader, (width: Int, height: Int)) {
        let file = try InputFile(path: path, maxBytes: limit.maxFileBytes, kernel: kernel, as: user)
        do {
            let header = try file.header()
            let size = try limit.decodedSize(of: header).mapError { PNGError(operation: "read", message: $0.message, path: path) }.get()
            return (file, header, size)
        } catch {
            file.close()
            throw error
        }
    }

    /// Reads a PNG file as `read(path:limit:kernel:)` does, straight into memory the caller
    /// owns: `target` is called once, with the size decided from the header, and returns
    /// width × height × 4 bytes that stay valid until this returns (nil: refused as "no memory
    /// for WxH"); the rows are written top-down as straight RGBA8, without padding. A picture
    /// then costs one copy in memory, not two (KioskCommands' `loadPNG` premultiplies it in
    /// place in its bitmap: 8 MB less while a 1920x1080 underlay is read). Returns the size.
    /// With `user`, the file is opened with that user's rights (a picture a daemon's client
    /// named: the client can show only what it could read itself).
    public static func read(path: String, limit: PNGReadLimit, kernel: any KernelFiles & KernelDescriptors = LinuxKernel(), as user: PeerCredentials? = nil,
                            into target: (_ width: Int, _ height: Int) -> UnsafeMutableRawBufferPointer?) throws(PNGError) -> (width: Int, height: Int) {
        let (file, header, size) = try open(path: path, limit: limit, kernel: kernel, as: user)
        defer { file.close() }
        guard let out = target(size.width, size.height), out.count >= size.width * size.height * 4, let base = out.baseAddress else {
            throw PNGError(operation: "read", message: "no memory for \(size.width)x\(size.height)", path: path)
        }
        try decodeRows(header, size: size, into: base, operation: "read", path: path, sourceFailure: { file.failure }) { request in
            file.attach(to: &request)
            return kiosk_png_read_rgba(&request)
        }
        return size
    }

    /// The header of a PNG file (size, bit depth, colour type, interlacing), from its first 33
    /// bytes: nothing is decoded. The same checks on the path as `read(path:limit:)`.
    public static func header(path: String, kernel: any KernelFiles & KernelDescriptors = LinuxKernel()) throws(PNGError) -> PNGHeader {
        let file = try InputFile(path: path, maxBytes: .max, kernel: kernel)
        defer { file.close() }
        return try file.header()
    }

    /// The header of PNG bytes (see `header(path:)`).
    public static func header(_ bytes: [UInt8]) throws(PNGError) -> PNGHeader {
        try PNGHeader.parse(bytes[...]).mapError { PNGError(operation: "decode", message: $0.message) }.get()
    }

    /// Decodes PNG bytes as RGBA8 with `PNGReadLimit.default`.
    public static func decode(_ bytes: [UInt8]) throws(PNGError) -> PNGImage {
        try decode(bytes, limit: .default)
    }

    /// Decodes PNG bytes as RGBA8 as `read(path:limit:)` does a file (`limit.maxFileBytes`
    /// does not apply: the bytes are already in memory). Throws `PNGError` (operation
    /// "decode") for anything that is not a valid PNG or is refused by `limit`.
    public static func decode(_ bytes: [UInt8], limit: PNGReadLimit) throws(PNGError) -> PNGImage {
        guard !bytes.isEmpty else { throw PNGError(operation: "decode", message: "no data") }
        let header = try header(bytes)
        let size = try limit.decodedSize(of: header).mapError { PNGError(operation: "decode", message: $0.message) }.get()
        return try decodeRows(header, size: size, operation: "decode", path: nil, sourceFailure: { nil }) { request in
            bytes.withUnsafeBufferPointer { memory in
                request.memory = memory.baseAddress
                request.memory_size = memory.count
                return kiosk_png_read_rgba(&request)
            }
        }
    }

    /// Runs kiosk_png_read_rgba (through `run`, which sets the source) into a new `size` image;
    /// `sourceFailure` says why the source failed, when that was why.
    private static func decodeRows(_ header: PNGHeader, size: (width: Int, height: Int), operation: String, path: String?,
                                   sourceFailure: () -> String?,
                                   run: (inout kiosk_png_read_request) -> kiosk_png_read_status) throws(PNGError) -> PNGImage {
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 4)
        var failure: PNGError?
        pixels.withUnsafeMutableBytes { out in
            do throws(PNGError) {
                try decodeRows(header, size: size, into: out.baseAddress!, operation: operation, path: path, sourceFailure: sourceFailure, run: run)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return PNGImage(width: size.width, height: size.height, rgba: pixels)
    }

    /// Runs kiosk_png_read_rgba (through `run`, which sets the source) into `out`, which holds
    /// size.width × size.height × 4 bytes.
    private static func decodeRows(_ header: PNGHeader, size: (width: Int, height: Int), into out: UnsafeMutableRawPointer,
                                   operation: String, path: String?, sourceFailure: () -> String?,
                                   run: (inout kiosk_png_read_request) -> kiosk_png_read_status) throws(PNGError) {
        try loadLibPNG(operation, path: path)
        var request = kiosk_png_read_request()
        request.width = png_uint_32(header.width)
        request.height = png_uint_32(header.height)
        request.out_width = png_uint_32(size.width)
        request.out_height = png_uint_32(size.height)
        request.max_side = png_uint_32(PNGReadLimit.maxSide)
        request.chunk_malloc_max = png_alloc_size_t(PNGReadLimit.chunkMallocMax)
        request.out = out.assumingMemoryBound(to: UInt8.self)
        let status = run(&request)
        request.out = nil
        switch status {
        case KIOSK_PNG_READ_OK:
            return
        case KIOSK_PNG_READ_SOURCE_FAILED:
            throw PNGError(operation: operation, message: sourceFailure() ?? "cannot read", path: path)
        default:
            var message = withUnsafeBytes(of: &request.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if message.isEmpty { message = "libpng error" }
            throw PNGError(operation: operation, message: "cannot decode: \(message)", path: path)
        }
    }
}

/// A PNG file opened for reading: never blocks in open (a FIFO, a device), refuses anything but
/// a regular file of at most `maxBytes`, and hands libpng its bytes from a 64 kB buffer.
final class InputFile {
    /// Makes the file `request`'s source: libpng's reads come back to `read(into:)` (a C function
    /// pointer, so no captures: the file is the context); a failure returns -1 and read.c
    /// longjmps from C, never from Swift.
    func attach(to request: inout kiosk_png_read_request) {
        request.read = { context, buffer, count in
            Unmanaged<InputFile>.fromOpaque(context!).takeUnretainedValue()
                .read(into: UnsafeMutableRawBufferPointer(start: buffer, count: count))
        }
        request.context = Unmanaged.passUnretained(self).toOpaque()
    }

    let path: String
    private let fd: Int32
    /// The seam the file is opened, read and closed through.
    private let kernel: any KernelFiles & KernelDescriptors
    private let maxBytes: Int
    private var buffer = [UInt8](repeating: 0, count: 64 << 10)
    /// The file offset of buffer[0], the bytes valid in the buffer, and the next byte to give.
    private var bufferStart = 0, bufferCount = 0, position = 0
    /// Why a read failed (what the read callback could not throw).
    private(set) var failure: String?

    init(path: String, maxBytes: Int, kernel: any KernelFiles & KernelDescriptors, as user: PeerCredentials? = nil) throws(PNGError) {
        func refuse(_ message: String) -> PNGError { PNGError(operation: "read", message: message, path: path) }
        guard !path.isEmpty else { throw refuse("empty path") }
        // Looked up, checked and opened in one call (the kernel seam's `openRegularFile`): a
        // FIFO or a device is never opened, and what was checked is what is read; with the
        // rights of `user` when a client named the file.
        let fd: Int32, status: FileStatus
        do { (fd, status) = try kernel.openRegularFile(path, as: user) } catch {
            if error.errno == EINVAL, let why = error.detail { throw refuse(why) }
            throw refuse("cannot open: \(error.reason)")
        }
        guard status.size <= maxBytes else {
            kernel.close(fd)
            throw refuse("file is \(status.size) bytes; at most \(maxBytes)")
        }
        self.path = path
        self.fd = fd
        self.kernel = kernel
        self.maxBytes = maxBytes
    }

    func close() { kernel.close(fd) }

    /// The signature and IHDR, parsed (PNGHeader.parse); the stream still starts at byte 0.
    func header() throws(PNGError) -> PNGHeader {
        while bufferCount < PNGHeader.byteCount {
            let before = bufferCount
            fill()
            if let failure { throw PNGError(operation: "read", message: failure, path: path) }
            if bufferCount == before { break }
        }
        return try PNGHeader.parse(buffer[0..<bufferCount]).mapError {
            PNGError(operation: "read", message: $0.message, path: path)
        }.get()
    }

    /// Reads more into the buffer, after what it holds.
    private func fill() {
        let offset = bufferStart + bufferCount
        let room = buffer.count - bufferCount
        // One byte past maxBytes is asked for, to see a file that grew since fstat.
        let ask = maxBytes - offset < room ? maxBytes - offset + 1 : room
        let (kernel, fd) = (kernel, fd)
        let result: Result<Int, SysError> = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(SysError) in
                try kernel.pread(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[bufferCount..<bufferCount + ask]), at: offset)
            }
        }
        switch result {
        case let .success(n):
            bufferCount += n
            if bufferStart + bufferCount > maxBytes { failure = "the file grew past \(maxBytes) bytes while read" }
        case let .failure(e): failure = "cannot read: \(e.reason)"
        }
    }

    /// libpng's read callback: up to `out.count` bytes (0 at the end of the file), -1 on failure.
    func read(into out: UnsafeMutableRawBufferPointer) -> Int {
        if position == bufferStart + bufferCount {
            bufferStart = position
            bufferCount = 0
            fill()
            if failure != nil { return -1 }
            if bufferCount == 0 { return 0 }
        }
        let available = bufferStart + bufferCount - position
        let n = min(available, out.count)
        buffer.withUnsafeBytes { raw in
            out.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[(position - bufferStart)..<(position - bufferStart + n)]))
        }
        position += n
        return n
    }
}
