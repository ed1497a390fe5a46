/// A point in pixels; y points down.
public struct Point: Sendable, Equatable, Hashable {
    public var x: Double, y: Double
    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// A rectangle with fractional coordinates.
public struct Rect: Sendable, Equatable, Hashable {
    public var x: Double, y: Double, width: Double, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    public var isEmpty: Bool { !(width > 0 && height > 0) }

    /// Moved inward by `d` on every side (outward when negative).
    public func insetBy(_ d: Double) -> Rect {
        Rect(x: x + d, y: y + d, width: width - 2 * d, height: height - 2 * d)
    }

    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width, height: height)
    }

    /// The smallest whole-pixel rectangle that contains this one.
    public var enclosingPixels: IntRect {
        guard x.isFinite, y.isFinite, width.isFinite, height.isFinite, !isEmpty else { return .zero }
        let clampD = { (v: Double) in Swift.max(-1e9, Swift.min(1e9, v)) }
        let x0 = Int(clampD(x).rounded(.down)), y0 = Int(clampD(y).rounded(.down))
        let x1 = Int(clampD(maxX).rounded(.up)), y1 = Int(clampD(maxY).rounded(.up))
        return IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public func contains(_ p: Point) -> Bool { p.x >= x && p.x < maxX && p.y >= y && p.y < maxY }
}

/// A rectangle of whole pixels.
public struct IntRect: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var x: Int, y: Int, width: Int, height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    public static let zero = IntRect(x: 0, y: 0, width: 0, height: 0)

    public var minX: Int { x }
    public var minY: Int { y }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    public var area: Int { isEmpty ? 0 : width * height }

    public func intersection(_ o: IntRect) -> IntRect {
        let x0 = Swift.max(x, o.x), y0 = Swift.max(y, o.y)
        let x1 = Swift.min(maxX, o.maxX), y1 = Swift.min(maxY, o.maxY)
        return x1 > x0 && y1 > y0 ? IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : .zero
    }

    /// The bounding box of both (an empty rectangle adds nothing).
    public func union(_ o: IntRect) -> IntRect {
        if isEmpty { return o }
        if o.isEmpty { return self }
        let x0 = Swift.min(x, o.x), y0 = Swift.min(y, o.y)
        return IntRect(x: x0, y: y0, width: Swift.max(maxX, o.maxX) - x0, height: Swift.max(maxY, o.maxY) - y0)
    }

    public func intersects(_ o: IntRect) -> Bool { !intersection(o).isEmpty }

    public func contains(_ o: IntRect) -> Bool {
        o.isEmpty || (o.x >= x && o.y >= y && o.maxX <= maxX && o.maxY <= maxY)
    }

    public func contains(x px: Int, y py: Int) -> Bool { px >= x && px < maxX && py >= y && py < maxY }

    public var rect: Rect { Rect(x: Double(x), y: Double(y), width: Double(width), height: Double(height)) }

    public var description: String { "(\(x),\(y) \(width)x\(height))" }
}
