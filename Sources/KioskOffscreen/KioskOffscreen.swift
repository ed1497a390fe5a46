// KioskOffscreen — the screen with no kernel behind it: one display in ordinary memory that keeps
// the picture as presented (only the damaged rectangles copied, as a real display does), counts
// the presents and remembers the last few. `kiosk-hud render` and `--offscreen` draw on it (the
// PNGs are written by the commands); the tests draw on it too. Production code, so apart from
// KioskTestDoubles, which re-exports it (it was there before 0.2.0).
import KioskSeams
import KioskRaster

/// A display in memory: keeps a copy of the picture as presented (only damaged rectangles are
/// copied, as a real display does), counts the presents and remembers the last few.
public final class OffscreenDisplay: Display {
    public struct Present: Sendable, Equatable {
        public var damage: [IntRect]
        public var area: Int
    }

    public let width: Int
    public let height: Int
    public let preferredFormat: PixelFormat
    public let transform: DisplayTransform
    public let name: String
    public let scale: Double
    /// The picture as presented so far (1×1 and never written when `keepsPicture` is false).
    public let screen: Bitmap
    /// Whether presents are copied into `screen`. `show --offscreen -` shows nothing to anyone:
    /// without the copy it costs one canvas, not two (at 8192x8192, 256 MB less).
    public let keepsPicture: Bool
    /// How many presents so far.
    public private(set) var presentCount = 0
    /// The last `recentLimit` presents, oldest first (bounded: a HUD may run for days).
    public private(set) var recentPresents: [Present] = []
    public static let recentLimit = 64
    /// The last present, if any.
    public var lastPresent: Present? { recentPresents.last }
    /// Keep a full copy of each presented frame (off by default: memory; tests only).
    public var keepFrames = false
    public private(set) var frames: [Bitmap] = []
    /// Where `firstFrameTime` is read from (e.g. CLOCK_MONOTONIC seconds); nil: not recorded.
    public var timeSource: (() -> Double)?
    /// Called after each present (a test noting what was shown, a benchmark timing frames).
    public var onPresent: (() -> Void)?
    public private(set) var firstFrameTime: Double?

    public init(width: Int, height: Int, format: PixelFormat = .xrgb8888, rotation: Rotation = .none,
                name: String = "offscreen", scale: Double = 1, keepsPicture: Bool = true) throws {
        self.width = width; self.height = height; preferredFormat = format
        self.name = name; self.scale = scale
        self.keepsPicture = keepsPicture
        transform = DisplayTransform(rotation: rotation, width: width, height: height)
        screen = try Bitmap(width: keepsPicture ? width : 1, height: keepsPicture ? height : 1, format: format)
    }

    public func present(_ frame: Surface, damage: Damage) throws {
        precondition(frame.width == width && frame.height == height, "frame size differs from the display")
        let rects = damage.rects(in: IntRect(x: 0, y: 0, width: width, height: height))
        if keepsPicture {
            let canvas = Canvas(screen.surface)
            for r in rects { canvas.copy(from: frame, rect: r) }
        }
        presentCount += 1
        if recentPresents.count == Self.recentLimit { recentPresents.removeFirst() }
        recentPresents.append(Present(damage: rects, area: rects.reduce(0) { $0 + $1.area }))
        if firstFrameTime == nil, let t = timeSource { firstFrameTime = t() }
        if keepFrames && keepsPicture {
            let b = try Bitmap(width: width, height: height, format: preferredFormat)
            Canvas(b.surface).copy(from: screen.surface)
            frames.append(b)
        }
        onPresent?()
    }
}

/// A screen of one offscreen display (the `--offscreen` stand-in for a real screen, and the
/// screen of tests): active unless suspended, no hotplug, every frame done at once.
public final class OffscreenScreen: Screen {
    public let display: OffscreenDisplay
    public var displays: [Display] { [display] }
    public private(set) var isActive = true
    public private(set) var isSuspended = false
    private var handler: ((ScreenEvent) -> Void)?
    private var loop: EventLoop?

    public init(_ display: OffscreenDisplay) { self.display = display }

    public func attach(to loop: EventLoop, _ handler: @escaping (ScreenEvent) -> Void) throws { self.handler = handler; self.loop = loop }
    public func close(retain: Bool) { handler = nil }

    /// Stops drawing (the picture stays as it is) until `resume`; the handler hears it after
    /// the current turn, as from a real screen.
    public func suspend() {
        guard !isSuspended else { return }
        isSuspended = true
        isActive = false
        tell(.deactivated)
    }

    public func resume() {
        guard isSuspended else { return }
        isSuspended = false
        isActive = true
        tell(.activated)
    }

    private func tell(_ e: ScreenEvent) {
        loop?.execute { [weak self] in self?.handler?(e) }
    }

    public var summary: String { "presents=\(display.presentCount)" }

    /// The display's picture as presented, when it keeps one (`OffscreenDisplay.keepsPicture`).
    public var presentedPicture: Bitmap? { display.keepsPicture ? display.screen : nil }
}
