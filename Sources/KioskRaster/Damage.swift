/// The pixels that changed since the last present: a short list of rectangles. Overlapping or
/// nearby rectangles are merged when that costs little extra area, so the list stays short and
/// copying it stays cheap; past `maxRects` everything collapses into the bounding box.
public struct DamageRegion: Sendable, Equatable {
    public private(set) var rects: [IntRect] = []
    /// The most rectangles kept before collapsing.
    public var maxRects = 16

    public init() {}
    public init(_ rects: [IntRect]) { for r in rects { add(r) } }

    public var isEmpty: Bool { rects.isEmpty }

    /// The bounding box of all of it.
    public var bounds: IntRect { rects.reduce(IntRect.zero) { $0.union($1) } }

    /// Total area of the rectangles (they do not overlap).
    public var area: Int { rects.reduce(0) { $0 + $1.area } }

    /// Adds `r`, merging where that is cheap.
    public mutating func add(_ r: IntRect) {
        guard !r.isEmpty else { return }
        var r = r
        var merged = true
        while merged {
            merged = false
            for i in rects.indices {
                let o = rects[i]
                if o.contains(r) { return }
                let u = o.union(r)
                // Merge if they overlap, or the union wastes less than a quarter of itself.
                if r.contains(o) || o.intersects(r) || (u.area - o.area - r.area) * 4 <= u.area {
                    r = u
                    rects.remove(at: i)
                    merged = true
                    break
                }
            }
        }
        rects.append(r)
        if rects.count > maxRects { rects = [bounds] }
    }

    public mutating func add(_ other: DamageRegion) { for r in other.rects { add(r) } }

    /// Only the parts inside `clip`.
    public func clipped(to clip: IntRect) -> DamageRegion {
        var d = DamageRegion()
        d.maxRects = maxRects
        for r in rects { d.add(r.intersection(clip)) }
        return d
    }

    public mutating func removeAll() { rects.removeAll(keepingCapacity: true) }

    public func contains(x: Int, y: Int) -> Bool { rects.contains { $0.contains(x: x, y: y) } }
}

/// What a present changed: the whole picture (a first frame, a redraw after the display was
/// taken back), or some rectangles of it.
public enum Damage: Sendable, Equatable {
    /// Everything: the display copies the whole picture.
    case whole
    /// Only these rectangles changed.
    case region(DamageRegion)

    /// The rectangles to copy, clipped to `bounds` (`bounds` itself for `.whole`).
    public func rects(in bounds: IntRect) -> [IntRect] {
        switch self {
        case .whole: [bounds]
        case let .region(d): d.clipped(to: bounds).rects
        }
    }

    /// Nothing changed (an empty region).
    public var isEmpty: Bool {
        if case let .region(d) = self { return d.isEmpty }
        return false
    }
}
