import CKioskWayland
import KioskRaster
import KioskSeams

/// One output's layer surface as a display — or, on a compositor without the layer shell, the
/// HUD's one window (`isWindow`): the picture is the surface's size in buffer pixels (the
/// compositor's logical size times the output's integer scale), shown over the compositor's
/// windows.
public final class WaylandDisplay: Display {
    public let width: Int
    public let height: Int
    public var preferredFormat: PixelFormat { .argb8888 }
    public let transform: DisplayTransform
    public let name: String
    public let scale: Double
    public var isOverlay: Bool { true }
    public private(set) var firstFrameTime: Double?
    /// The output's integer scale: buffer pixels per logical unit.
    public let bufferScale: Int
    /// The registry's name of the output (its identity on the connection).
    let outputID: UInt32
    let surface: OpaquePointer
    /// Per buffer, the rectangles it missed since it was last filled (presents into the others).
    private var missed: [[IntRect]] = Array(repeating: [], count: 4)
    /// Damage that found no free buffer, added to the next present.
    private var deferred: [IntRect] = []
    /// Presents committed, and presents that found every buffer busy.
    public private(set) var commits = 0, skipped = 0
    /// Whether presents reach the compositor (false while the screen is suspended).
    var isShowing = true
    let timeSource: () -> Double
    /// Sends the commit (the screen's flush).
    var onCommit: () -> Void = {}
    /// A window (an xdg toplevel, on a compositor without the layer shell) rather than a layer
    /// surface. A mapped window has the keyboard (cage focuses the newest), so it is unmapped
    /// while the HUD takes no input (hidden) and mapped again when it does.
    let isWindow: Bool
    /// The window has a buffer on screen.
    private var mapped = false
    /// A buffer may be attached: the configure after the last initial commit came.
    private var configured = true
    /// The HUD wants to be on screen (its input region is not empty), and a map was asked for.
    private var wanted = true, mapAsked = false
    /// The last frame presented, to present again once the window is configured (the HUD's
    /// shadow: the renderer keeps it for the display's life).
    private var lastFrame: Surface?

    init(surface: OpaquePointer, outputID: UInt32, name: String, logicalWidth: Int, logicalHeight: Int,
         bufferScale: Int, scale: Double?, timeSource: @escaping () -> Double) {
        self.surface = surface; self.outputID = outputID; self.name = name
        self.bufferScale = max(1, bufferScale)
        width = logicalWidth * self.bufferScale
        height = logicalHeight * self.bufferScale
        self.scale = scale ?? Double(self.bufferScale)
        transform = DisplayTransform(rotation: .none, width: width, height: height)
        self.timeSource = timeSource
        isWindow = kiosk_wl_surface_is_window(surface) != 0
    }

    /// The compositor configured the surface again (the screen's events): a window asked to map
    /// shows the HUD now, with everything presented meanwhile.
    func configuredAgain() {
        guard isWindow, !configured else { return }
        configured = true
        mapAsked = false
        if wanted, let f = lastFrame { try? present(f, damage: .whole) }
    }

    public func present(_ frame: Surface, damage: Damage) throws {
        precondition(frame.width == width && frame.height == height, "frame size differs from the display")
        let bounds = IntRect(x: 0, y: 0, width: width, height: height)
        var rects = damage.rects(in: bounds) + deferred
        deferred = []
        guard isShowing else { deferred = Self.bounded(rects); return }
        if isWindow {
            lastFrame = frame
            guard wanted && configured else { deferred = Self.bounded(rects); return }
        }
        var index: Int32 = 0
        guard let pixels = kiosk_wl_surface_buffer(surface, Int32(width), Int32(height), &index) else {
            skipped += 1
            deferred = Self.bounded(rects)
            return
        }
        let fresh = index & 0x100 != 0
        let slot = Int(index & 0xFF)
        let copy = fresh ? [bounds] : missed[slot] + rects
        for r in copy { Self.copy(frame, r, into: pixels, width: width) }
        missed[slot] = []
        for i in missed.indices where i != slot { missed[i] = Self.bounded(missed[i] + rects) }
        if rects.isEmpty { rects = [bounds] }
        var quads: [Int32] = []
        quads.reserveCapacity(rects.count * 4)
        for r in rects { quads += [Int32(r.minX), Int32(r.minY), Int32(r.width), Int32(r.height)] }
        kiosk_wl_surface_commit(surface, quads, Int32(rects.count), Int32(bufferScale))
        mapped = true
        commits += 1
        onCommit()
        if firstFrameTime == nil { firstFrameTime = timeSource() }
    }

    /// Sets the region that takes input (picture pixels; nil: the whole surface): outside it the
    /// compositor gives pointer and touch to the windows under the HUD.
    public func setInputRegion(_ rects: [IntRect]?) {
        if isWindow { follow(wanted: rects.map { !$0.isEmpty } ?? true) }
        guard let rects else { kiosk_wl_surface_set_input(surface, nil, 0); return }
        var quads: [Int32] = []
        for r in rects {
            // Logical units, rounded outwards.
            let x0 = r.minX / bufferScale, y0 = r.minY / bufferScale
            let x1 = (r.maxX + bufferScale - 1) / bufferScale, y1 = (r.maxY + bufferScale - 1) / bufferScale
            quads += [Int32(x0), Int32(y0), Int32(x1 - x0), Int32(y1 - y0)]
        }
        kiosk_wl_surface_set_input(surface, quads, Int32(rects.count))
    }

    /// A window taken off screen when the HUD takes no input, and asked back when it does.
    private func follow(wanted now: Bool) {
        guard now != wanted else { return }
        wanted = now
        if !now {
            guard mapped else { return }
            kiosk_wl_surface_unmap(surface)
            mapped = false
            configured = false
            onCommit()
        } else if !configured && !mapAsked {
            kiosk_wl_surface_map(surface)
            mapAsked = true
            onCommit()
        }
    }

    /// At most eight rectangles: more are merged into their bounding box.
    static func bounded(_ rects: [IntRect]) -> [IntRect] {
        guard rects.count > 8, var u = rects.first else { return rects }
        for r in rects.dropFirst() { u = u.union(r) }
        return [u]
    }

    /// Copies `r` of `frame` (ARGB8888, premultiplied) into the buffer's pixels (stride width×4).
    static func copy(_ frame: Surface, _ r: IntRect, into pixels: UnsafeMutablePointer<UInt32>, width: Int) {
        guard !r.isEmpty else { return }
        for y in r.minY..<r.maxY {
            (pixels + y * width + r.minX).update(from: frame.row32(y) + r.minX, count: r.width)
        }
    }
}
