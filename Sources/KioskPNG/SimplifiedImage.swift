import CKioskPNG

/// Loads libpng (dlopen, once); a PNGError for `operation` on `path` when it cannot be.
func loadLibPNG(_ operation: String, path: String?) throws(PNGError) {
    if let why = kiosk_png_load() {
        throw PNGError(operation: operation, message: "libpng cannot be loaded (install libpng16-16): \(String(cString: why))", path: path)
    }
}

/// Runs `body` with a zeroed png_image (version set) and frees it afterwards,
/// whatever happens. png_image_free is a no-op on an already freed image.
/// Loads libpng first (dlopen, once); a PNGError for `operation` on `path` when it cannot be.
func withPNGImage<R>(_ operation: String, path: String?, _ body: (inout png_image) throws(PNGError) -> R) throws(PNGError) -> R {
    try loadLibPNG(operation, path: path)
    var image = png_image()
    image.version = png_uint_32(PNG_IMAGE_VERSION)
    defer { kiosk_png_image_free(&image) }
    return try body(&image)
}

extension png_image {
    /// libpng's message (a NUL-terminated char[64]) or `fallback` if empty.
    func errorMessage(or fallback: String) -> String {
        var copy = message
        let text = withUnsafeBytes(of: &copy) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? fallback : text
    }
}
