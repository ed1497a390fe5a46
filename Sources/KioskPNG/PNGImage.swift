/// An 8-bit RGBA image: straight (non-premultiplied) alpha, rows top-down,
/// stride `width * 4`.
public struct PNGImage: Sendable, Equatable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// `width * height * 4` bytes: R, G, B, A per pixel.
    public var rgba: [UInt8]

    /// An image from existing pixels; `rgba.count` should be `width * height * 4`
    /// (checked when encoding).
    public init(width: Int, height: Int, rgba: [UInt8]) {
        self.width = width
        self.height = height
        self.rgba = rgba
    }

    /// A blank image filled with one color.
    public init(width: Int, height: Int, fill: (r: UInt8, g: UInt8, b: UInt8, a: UInt8) = (0, 0, 0, 0)) {
        self.width = width
        self.height = height
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 4)
        for _ in 0..<(width * height) { pixels += [fill.r, fill.g, fill.b, fill.a] }
        self.rgba = pixels
    }

    /// The pixel at (x, y) as (r, g, b, a).
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        precondition(x >= 0 && y >= 0 && x < width && y < height, "pixel out of bounds")
        let i = (y * width + x) * 4
        return (rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3])
    }
}
