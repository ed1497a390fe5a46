import CKioskPNG

extension PNG {
    /// Reads a PNG file as RGBA8 (`png_image_begin_read_from_file`).
    /// Throws `PNGError` (operation "read") with libpng's message and `path`.
    public static func read(path: String) throws(PNGError) -> PNGImage {
        try withPNGImage("read", path: path) { (image) throws(PNGError) in
            guard kiosk_png_image_begin_read_from_file(&image, path) != 0 else {
                throw PNGError(operation: "read", message: image.errorMessage(or: "cannot open file"), path: path)
            }
            return try finishRead(&image, operation: "read", path: path)
        }
    }

    /// Decodes PNG bytes as RGBA8 (`png_image_begin_read_from_memory`).
    /// Throws `PNGError` (operation "decode") for anything that is not a valid PNG.
    public static func decode(_ bytes: [UInt8]) throws(PNGError) -> PNGImage {
        guard !bytes.isEmpty else { throw PNGError(operation: "decode", message: "no data") }
        return try withPNGImage("decode", path: nil) { (image) throws(PNGError) in
            let began = bytes.withUnsafeBytes { raw in
                kiosk_png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count)
            }
            guard began != 0 else {
                throw PNGError(operation: "decode", message: image.errorMessage(or: "not a PNG"))
            }
            return try finishRead(&image, operation: "decode", path: nil)
        }
    }

    /// Converts whatever the header announced into straight RGBA8.
    private static func finishRead(_ image: inout png_image, operation: String, path: String?) throws(PNGError) -> PNGImage {
        image.format = kiosk_png_format_rgba
        image.flags |= png_uint_32(PNG_IMAGE_FLAG_16BIT_sRGB)
        let width = Int(image.width), height = Int(image.height)
        let (count, overflow) = width.multipliedReportingOverflow(by: height * 4)
        guard !overflow, count > 0 else {
            throw PNGError(operation: operation, message: "image size \(width)x\(height) too large", path: path)
        }
        var pixels = [UInt8](repeating: 0, count: count)
        let finished = pixels.withUnsafeMutableBytes { raw in
            kiosk_png_image_finish_read(&image, nil, raw.baseAddress, 0, nil)
        }
        guard finished != 0 else {
            throw PNGError(operation: operation, message: image.errorMessage(or: "cannot decode image data"), path: path)
        }
        return PNGImage(width: width, height: height, rgba: pixels)
    }
}
