import CKioskPNG
import KioskSys

/// PNG reading and writing through libpng's simplified API.
public enum PNG {}

extension PNG {
    /// Writes `image` to a PNG file, as RGB when every pixel is opaque, else RGBA: encoded in
    /// memory first, then written to a new file beside `path` and renamed over it (KioskSys's
    /// `replaceFile`), so a failure leaves no half-written file, and nothing ever blocks: an
    /// existing `path` that is not a regular file (a FIFO, a device, a directory) is refused
    /// without being opened. (A symbolic link at `path` is replaced, not written through.)
    /// Throws `PNGError` (operation "write", `path` set): "empty path", "not a regular file
    /// (a FIFO)", "cannot write: open x.png.123.tmp: Permission denied" …
    public static func write(_ image: PNGImage, path: String) throws(PNGError) {
        try write(image, path: path, kernel: LinuxKernel())
    }

    /// `write(_:path:)` with the file's stat, new file, unlink and rename through `kernel`
    /// (the real one unless a test plays it).
    public static func write(_ image: PNGImage, path: String, kernel: any KernelFiles & KernelDescriptors) throws(PNGError) {
        guard !path.isEmpty else { throw PNGError(operation: "write", message: "empty path", path: path) }
        if let status = try? kernel.fileStatus(path), status.kind != .regular {
            throw PNGError(operation: "write", message: "not a regular file (\(status.kind))", path: path)
        }
        let bytes: [UInt8]
        do { bytes = try encode(image) } catch {
            throw PNGError(operation: "write", message: error.message, path: path)
        }
        do {
            try kernel.replaceFile(path) { (fd) throws(SysError) in
                let written: Result<Void, SysError> = bytes.withUnsafeBytes { b in Result { () throws(SysError) in try kernel.writeAll(fd, b) } }
                try written.get()
            }
        } catch {
            throw PNGError(operation: "write", message: cannotWrite(error, path), path: path)
        }
    }

    /// Encodes `image` as PNG bytes (`png_image_write_to_memory`).
    /// Throws `PNGError` (operation "encode").
    public static func encode(_ image: PNGImage) throws(PNGError) -> [UInt8] {
        let (pixels, format) = try prepare(image, operation: "encode", path: nil)
        // A first guess of the size; libpng reports the size needed if larger.
        var capacity = pixels.count + pixels.count / 8 + image.height + 1024
        for _ in 0..<2 {
            let result = try withPNGImage("encode", path: nil) { (png) throws(PNGError) -> [UInt8]? in
                configure(&png, image, format)
                var output = [UInt8](repeating: 0, count: capacity)
                var size = png_alloc_size_t(capacity)
                let ok = output.withUnsafeMutableBytes { out in
                    pixels.withUnsafeBytes { raw in
                        kiosk_png_image_write_to_memory(&png, out.baseAddress, &size, 0, raw.baseAddress, 0, nil)
                    }
                }
                if ok != 0 {
                    output.removeSubrange(Int(size)...)
                    return output
                }
                if Int(size) > capacity {  // only the buffer was too small
                    capacity = Int(size)
                    return nil
                }
                throw PNGError(operation: "encode", message: png.errorMessage(or: "cannot encode image"))
            }
            if let result { return result }
        }
        throw PNGError(operation: "encode", message: "output buffer kept growing")
    }

    private static func configure(_ png: inout png_image, _ image: PNGImage, _ format: png_uint_32) {
        png.width = png_uint_32(image.width)
        png.height = png_uint_32(image.height)
        png.format = format
    }

    /// Validates the image and picks RGB (all opaque) or RGBA.
    private static func prepare(_ image: PNGImage, operation: String, path: String?) throws(PNGError) -> ([UInt8], png_uint_32) {
        guard image.width > 0, image.height > 0, image.width <= 0x7FFF_FFFF / 4, image.height <= 0x7FFF_FFFF else {
            throw PNGError(operation: operation, message: "invalid size \(image.width)x\(image.height)", path: path)
        }
        let (expected, overflow) = image.width.multipliedReportingOverflow(by: image.height * 4)
        guard !overflow, image.rgba.count == expected else {
            throw PNGError(operation: operation,
                           message: "rgba has \(image.rgba.count) bytes, expected \(image.width)x\(image.height)x4",
                           path: path)
        }
        var opaque = true
        for index in stride(from: 3, to: image.rgba.count, by: 4) where image.rgba[index] != 255 {
            opaque = false
            break
        }
        guard opaque else { return (image.rgba, kiosk_png_format_rgba) }
        var rgb = [UInt8]()
        rgb.reserveCapacity(image.width * image.height * 3)
        for index in stride(from: 0, to: image.rgba.count, by: 4) {
            rgb.append(image.rgba[index])
            rgb.append(image.rgba[index + 1])
            rgb.append(image.rgba[index + 2])
        }
        return (rgb, kiosk_png_format_rgb)
    }
}
