// kiosk-hud-bench — times the canonical HUD scene (shared/bench/scene.md §4) with KioskRaster,
// next to the memset/memcpy floor measured in the same run, and — when the C peers are built —
// next to cairo and pixman drawing the same scene on the same machine. Each operation that covers
// pixels also prints its time over the memcpy of one frame measured in the same run ("memcpy
// ×"): how far it is from the memory limit (a full-frame pass reads and writes at least as much
// as that copy).
//
//   swift run -c release kiosk-hud-bench [--seconds S] [--peer DIR] [--sizes 800x480,1920x1080]
//
// Medians of batched samples (a batch lasts ≥ 20 µs), like the peers' harness (common.h).
import Glibc
import KioskSeams
import KioskTestDoubles
import KioskHUD
import KioskRaster
import KioskText

func nowNs() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

var targetSeconds = 1.0
var peerDir: String?
var sizes = [(800, 480), (1920, 1080)]
var only: String?
/// With --count N, each operation runs exactly N times untimed (for instruction counts under
/// valgrind --tool=callgrind, which are repeatable where times on a shared machine are not).
var fixedCount: Int?
var daemonLoad: Double?
var loadClients = 32
var runMegabytes: Int?
var soakMinutes: Double?
var soakRate = 20.0
var loopIdleTurns: Int?
var args = CommandLine.arguments.dropFirst()
while let a = args.popFirst() {
    switch a {
    case "--daemon-load": daemonLoad = Double(args.popFirst() ?? "") ?? 10
    case "--daemon-soak": soakMinutes = Double(args.popFirst() ?? "") ?? 60
    case "--rate": soakRate = Double(args.popFirst() ?? "") ?? soakRate
    case "--run-passthrough": runMegabytes = Int(args.popFirst() ?? "") ?? 100
    case "--loop-idle": loopIdleTurns = Int(args.popFirst() ?? "") ?? 1000
    case "--clients": loadClients = Int(args.popFirst() ?? "") ?? loadClients
    case "--seconds": targetSeconds = Double(args.popFirst() ?? "") ?? targetSeconds
    case "--peer": peerDir = args.popFirst()
    case "--only": only = args.popFirst()
    case "--count": fixedCount = Int(args.popFirst() ?? "")
    case "--sizes":
        sizes = (args.popFirst() ?? "").split(separator: ",").compactMap { s in
            let p = s.split(separator: "x").compactMap { Int($0) }
            return p.count == 2 ? (p[0], p[1]) : nil
        }
    case "-h", "--help":
        print("usage: kiosk-hud-bench [--seconds S] [--peer DIR-with-hud_cairo-hud_pixman-floor] [--sizes WxH,…]")
        print("       kiosk-hud-bench --daemon-load SECONDS [--clients N]   (the daemon under N clients sending updates)")
        print("       kiosk-hud-bench --daemon-soak MINUTES [--sizes WxH,…] [--rate N]   (kiosk-hud daemon under mixed requests; RSS each minute)")
        print("       kiosk-hud-bench --run-passthrough MB   (kiosk-hud run passing MB of output through, against cat)")
        print("       kiosk-hud-bench --loop-idle TURNS   (the event loop's idle turns between mtrace() and muntrace())")
        exit(0)
    default:
        print("kiosk-hud-bench: unknown argument \(a)"); exit(2)
    }
}

if let minutes = soakMinutes {
    var ok = true
    for (w, h) in sizes { ok = runDaemonSoak(minutes: minutes, width: w, height: h, requestsPerSecond: soakRate) && ok }
    exit(ok ? 0 : 1)
}

if let turns = loopIdleTurns { exit(runLoopIdle(turns: turns) ? 0 : 1) }

if let mb = runMegabytes { exit(runPassThrough(megabytes: mb) ? 0 : 1) }

if let seconds = daemonLoad {
    exit(runDaemonLoad(seconds: seconds, clients: loadClients) ? 0 : 1)
}

/// Median ns per call.
@MainActor func bench(_ body: (Int) -> Void) -> Double {
    if let n = fixedCount {
        for i in 0..<n { body(i) }
        return 0
    }
    var it = 0
    let t0 = nowNs()
    while it < 20 || nowNs() - t0 < 150_000_000 { body(it); it += 1 }
    let per = Double(nowNs() - t0) / Double(it)
    let k = max(1, Int((20_000 / per).rounded(.up)))
    let n = min(200_000, max(50, Int(targetSeconds * 1e9 / (per * Double(k)))))
    var samples = [Double](repeating: 0, count: n)
    for i in 0..<n {
        let a = nowNs()
        for _ in 0..<k { body(it); it += 1 }
        samples[i] = Double(nowNs() - a) / Double(k)
    }
    samples.sort()
    return n % 2 == 1 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2
}

func tickProgress(_ i: Int) -> Double { 0.6 + 0.001 * Double(i % 100) }

/// `count` CJK ideographs from the `from`th after U+4E00 on (20,000 of them, round again).
func ideographs(_ count: Int, from: Int) -> String {
    var view = String.UnicodeScalarView()
    for n in 0..<count { view.append(Unicode.Scalar(UInt32(0x4E00 + (from + n) % 20_000))!) }
    return String(view)
}

/// Runs a peer binary's `bench WxH S` and returns name → median ns.
func peer(_ cmd: String) -> [String: Double] {
    guard let p = popen(cmd + " 2>/dev/null", "r") else { return [:] }
    defer { pclose(p) }
    var out: [String: Double] = [:]
    var buf = [CChar](repeating: 0, count: 4096)
    while fgets(&buf, Int32(buf.count), p) != nil {
        let line = String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let f = line.split(separator: "\t").map { $0.trimmingCharacters() }
        if f.count >= 4, !f[0].hasPrefix("#"), let v = Double(f[3]) { out[String(f[0])] = v }
    }
    return out
}

extension Substring {
    func trimmingCharacters() -> String { String(self.drop { $0 == " " }.reversed().drop { $0 == " " || $0 == "\n" }.reversed()) }
}

/// The memcpy of one frame in this run (ns), for the "memcpy ×" column.
var memcpyFloor: Double?

@MainActor func row(_ name: String, _ ns: @autoclosure () -> Double, _ pixels: Int, _ refs: @autoclosure () -> [(String, Double?)]) {
    if let only, only != name { return }
    let ns = ns(), refs = refs()
    var s = name.padding(24) + String(format1(ns / 1000)).leftPad(10) + " µs"
    s += (pixels > 0 ? format3(ns / Double(pixels)) : "-").leftPad(9)
    if let f = memcpyFloor, f > 0, pixels > 0 { s += ("×" + format2(ns / f)).leftPad(9) } else { s += "-".leftPad(9) }
    for (label, r) in refs {
        if let r { s += "   \(label) " + format1(r / 1000).leftPad(8) + " µs  ×" + format2(ns / r) } else { s += "   \(label)        n/a" }
    }
    print(s)
}

extension String {
    func padding(_ n: Int) -> String { count >= n ? self : self + String(repeating: " ", count: n - count) }
    func leftPad(_ n: Int) -> String { count >= n ? self : String(repeating: " ", count: n - count) + self }
}
func fmt(_ v: Double, _ digits: Int) -> String {
    var buf = [CChar](repeating: 0, count: 64)
    _ = withVaList([v]) { vsnprintf(&buf, 64, "%.\(digits)f", $0) }
    return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
func format1(_ v: Double) -> String { fmt(v, 1) }
func format2(_ v: Double) -> String { fmt(v, 2) }
func format3(_ v: Double) -> String { fmt(v, 3) }

let fonts = try FontLibrary()
print("kiosk-hud-bench: median per call; ns/px over the pixels the operation covers; memcpy × = ours / the memcpy")
print("of one frame in this run; × after a peer = ours / peer")
for (w, h) in sizes {
    let scene = try BenchScene(width: w, height: h, fonts: fonts)
    let frame = try Bitmap(width: w, height: h, format: .xrgb8888, stride: w * 4)
    let c = Canvas(frame.surface)
    // Caches: gradient only; gradient + dim; everything but the ring.
    let content = try Bitmap(width: w, height: h, format: .xrgb8888, stride: w * 4)
    scene.drawGradient(Canvas(content.surface))
    let bg = try Bitmap(width: w, height: h, format: .xrgb8888, stride: w * 4)
    let bgc = Canvas(bg.surface)
    scene.drawGradient(bgc); scene.drawDim(bgc)
    let noring = try Bitmap(width: w, height: h, format: .xrgb8888, stride: w * 4)
    let nrc = Canvas(noring.surface)
    nrc.copy(from: bg.surface)
    scene.drawHUD(nrc, ringProgress: 0, ring: false)
    let src = try Bitmap(width: w, height: h, format: .xrgb8888, stride: w * 4)
    for y in 0..<h { for x in 0..<w { src.surface.row32(y)[x] = UInt32(truncatingIfNeeded: (y * w + x) &* 2_654_435_761 >> 8) } }

    var cairo: [String: Double] = [:], pixman: [String: Double] = [:]
    if let d = peerDir {
        cairo = peer("\(d)/hud_cairo bench \(w)x\(h) \(targetSeconds)")
        pixman = peer("\(d)/hud_pixman bench \(w)x\(h) \(targetSeconds)")
    }
    let px = w * h
    let bytes = w * h * 4
    // The floor first, so that every row can be put next to it.
    memcpyFloor = fixedCount == nil ? bench { _ in memcpy(frame.surface.base, src.surface.base, bytes) } : nil
    print("\n\(w)x\(h)".padding(25) + "ours".leftPad(13) + "    ns/px" + "memcpy ×".leftPad(9))
    func refs(_ op: String) -> [(String, Double?)] {
        peerDir == nil ? [] : [("cairo", cairo["cairo_\(op)_\(w)x\(h)"]), ("pixman", pixman["pixman_\(op)_\(w)x\(h)"])]
    }
    scene.drawFull(c)
    row("full", bench { _ in scene.drawFull(c) }, px, refs("full"))
    row("full_blitbg", bench { _ in
        c.copy(from: content.surface, dim: Color(white: 0, a: 0.5))  // (a) SOURCE blit and (b) dim, one pass
        scene.drawHUD(c, ringProgress: 0.6)
    }, px, refs("full_blitbg"))
    scene.drawFull(c)
    row("tick_bezel", bench { i in
        c.copy(from: bg.surface, rect: scene.bezelRect)
        scene.drawHUD(c, ringProgress: tickProgress(i))
    }, 200 * 160, refs("tick_bezel"))
    scene.drawFull(c)
    row("tick_ring", bench { i in
        c.copy(from: noring.surface, rect: scene.ringBox)
        scene.drawRing(c, progress: tickProgress(i))
    }, scene.ringBox.area, refs("tick_ring"))
    scene.drawFull(c)
    row("text2", bench { _ in scene.drawLabels(c) }, 0, refs("text2"))
    // Text laid out for a request (HUDLayoutEngine): the usual label, details and button, their
    // glyphs cached; and issue #24's label of 341 ideographs at 500 px, new ones each time (only
    // what the line shows is rendered, and kept within the glyph budget).
    let engine = HUDLayoutEngine(fonts: fonts)
    let usual = HUDContent(mode: .annular, progress: 0.6, label: "Updating firmware…", details: "Step 3 of 7: writing the image",
                           buttonTitle: "Cancel", buttonHasAction: true)
    row("layout", bench { _ in _ = try? engine.layout(usual, style: HUDStyle(), width: w, height: h) }, 0, [])
    var large = HUDStyle()
    large.labelFontSize = 500
    row("layout_500px_new_cjk", bench { i in
        var changed = usual
        changed.label = ideographs(341, from: 341 * i)
        _ = try? engine.layout(changed, style: large, width: w, height: h)
    }, 0, [])
    row("el_gradient", bench { _ in scene.drawGradient(c) }, px, refs("el_gradient"))
    row("el_dim", bench { _ in scene.drawDim(c) }, px, refs("el_dim"))
    row("el_copy+dim", bench { _ in c.copy(from: content.surface, dim: Color(white: 0, a: 0.5)) }, px, [])
    row("el_bezel", bench { _ in HUDDraw.bezel(c, scene.bezelRect.rect, radius: 5, color: Color(white: 0.9, a: 0.8)) },
        200 * 160, refs("el_bezel"))
    row("el_ring", bench { _ in scene.drawRing(c, progress: 0.6) }, 0, refs("el_ring"))
    row("el_hud", bench { _ in scene.drawHUD(c, ringProgress: 0.6) }, 200 * 160, refs("el_hud_c-g"))
    c.damage.removeAll()
    // A show/hide fade over a picture with a dim, as the HUD draws it: every frame a new opacity,
    // so the whole frame is redrawn (the picture, the dim at that opacity, the fading bezel).
    var fadeStyle = HUDStyle()
    fadeStyle.background = .dim(Color(white: 0, a: 0.5))
    let fader = try HUDRenderer(width: w, height: h, fonts: fonts, style: fadeStyle,
                                content: HUDContent(mode: .annular, progress: 0.6, label: "Updating", details: "Step 3 of 7"))
    fader.setUnderlay(color: .black, image: content)
    row("hud_fade", bench { i in fader.render(HUDFrameState(opacity: 0.05 + 0.9 * Double(i % 19) / 18, scale: 1)) }, px, [])
    // Input latency, our own time: touch-down → pressed frame presented (offscreen display),
    // and touch-up → the button's action.
    let display = try OffscreenDisplay(width: w, height: h)
    let clock = ManualClock(0)
    let hud = try HUD(display: display, clock: clock, fonts: fonts,
                      content: HUDContent(mode: .annular, progress: 0.5, label: "Updating", buttonTitle: "Cancel",
                                          buttonHasAction: true))
    hud.show(animated: false)
    _ = try hud.tick()
    let b = hud.renderer.layout.button!
    var actions = 0
    hud.addObserver { if $0 == .buttonPressed { actions += 1 } }
    var t = 0.0
    let down = [TimedInputEvent(time: 0, event: .touchDown(slot: 0, x: b.midX, y: b.midY))]
    let up = [TimedInputEvent(time: 0, event: .touchUp(slot: 0))]
    row("touch_down_to_frame", bench { _ in
        hud.handle(down)
        _ = try? hud.tick()
        hud.handle(up)
        t += 0.001; clock.set(t)
        _ = try? hud.tick()
    } / 2, 0, [])
    row("touch_up_to_action", bench { _ in
        hud.handle(down)
        hud.handle(up)
    }, 0, [])
    row("floor memset", bench { i in memset(frame.surface.base, Int32(i & 0xFF), bytes) }, px, [])
    row("floor memcpy", bench { _ in memcpy(frame.surface.base, src.surface.base, bytes) }, px, [])
}
