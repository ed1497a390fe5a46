// Each reproduction of the bad-input issue, run against the built kiosk-hud: a clear one-line
// refusal with the exact message and exit status, quickly — never a signal death, a hang or a
// silent clamp.
import Glibc
import KioskSys
import KioskTestSupport
import Testing

/// A temporary directory with the hostile files the cases use.
final class Hostile: @unchecked Sendable {
    let dir = Proc.makeTempDir("kiosk-bad-input")
    init() throws {
        try replaceFile(dir + "/deep.toml", with: Array(("connectors = " + String(repeating: "[", count: 100_000)
                                                         + String(repeating: "]", count: 100_000) + "\n").utf8))
        try replaceFile(dir + "/zero.toml", with: Array("name = \"x\"\n[display]\nscale = 01.5\n".utf8))
        try replaceFile(dir + "/nul.toml", with: Array("[fonts]\nprimary = \"a\\u0000b\"\n".utf8))
        try replaceFile(dir + "/font-fifo.toml", with: Array("[fonts]\nprimary = \"\(dir)/fifo\"\n".utf8))
        precondition(mkfifo(dir + "/fifo", 0o644) == 0)
    }
    deinit { _ = Proc.run(["rm", "-rf", dir]) }
}

@Suite(.serialized) struct BadInputTests {
    let h = try! Hostile()

    /// Runs kiosk-hud with `args` ($D is the hostile directory); its status, first stderr line
    /// (with the directory put back as $D) and seconds taken.
    func run(_ args: [String]) -> (status: Int32, line: String, seconds: Double) {
        let t0 = monotonicSeconds()
        let r = Proc.run(["timeout", "10", Proc.kioskHUD] + args.map { $0.replacing("$D", with: h.dir) })
        let line = String(r.err.split(separator: "\n").first ?? "").replacing(h.dir, with: "$D")
        return (r.status, line, monotonicSeconds() - t0)
    }

    static let refusals: [([String], Int32, String)] = [
        (["render", "--motion-offset", "1e19,0", "--out", "$D/a.png"], 64,
         "Error: --motion-offset 1e19,0: expected X,Y in pixels, each from -1000000 to 1000000"),
        (["show", "--offscreen", "-", "--no-input", "--depth", "1e300", "--neutral", "face-up"], 64,
         "Error: --depth 1e300: expected points from 0 to 100"),
        (["render", "--board", "$D/deep.toml", "--out", "$D/a.png"], 64, "Error: $D/deep.toml:1:46: nesting deeper than 32"),
        (["render", "--size", "16384x16384", "--out", "$D/a.png"], 64, "Error: --size 16384x16384: expected WIDTHxHEIGHT, each from 1 to 8192"),
        (["show", "--offscreen", "-", "--size", "16384x16384"], 64, "Error: --size 16384x16384: expected WIDTHxHEIGHT, each from 1 to 8192"),
        (["render", "--board", "$D/zero.toml", "--out", "$D/a.png"], 64, "Error: $D/zero.toml:3:9: leading zero in a number"),
        (["render", "--progress", "5", "--out", "$D/a.png"], 64, "Error: --progress 5: expected a fraction from 0 to 1"),
        (["render", "--progress", "-3", "--out", "$D/a.png"], 64, "Error: --progress -3: expected a fraction from 0 to 1"),
        (["render", "--progress", "inf", "--out", "$D/a.png"], 64, "Error: --progress inf: expected a fraction from 0 to 1"),
        (["render", "--progress", "0x1p-1", "--out", "$D/a.png"], 64, "Error: --progress 0x1p-1: expected a fraction from 0 to 1"),
        (["render", "--offset", "1,2,", "--out", "$D/a.png"], 64, "Error: --offset 1,2,: expected X,Y in points, each from -1000000 to 1000000"),
        (["render", "--scene", "bench", "--mode", "bogus", "--out", "$D/a.png"], 64, "Error: --mode does not go with --scene bench"),
        (["render", "--mode", "bogus", "--out", "$D/a.png"], 64,
         "Error: --mode bogus: expected indeterminate, determinate, annular, bar, text, custom, success or error"),
        (["tilt", "--rotate", "450"], 64, "Error: --rotate 450: expected 0, 90, 180 or 270"),
        (["tilt", "--rotate", "-90"], 64, "Error: --rotate -90: expected 0, 90, 180 or 270"),
        (["tilt", "--rate", "0.0001"], 64, "Error: --rate 0.0001: expected samples per second from 0.1 to 1000"),
        (["show", "--offscreen", "-", "--card", "/dev/dri/card0"], 64, "Error: --card does not go with --offscreen"),
        (["show", "--offscreen", "-", "--fbdev", "/dev/fb0"], 64, "Error: --fbdev does not go with --offscreen"),
        (["render", "--board", "$D/nul.toml", "--out", "$D/a.png"], 64,
         "Error: $D/nul.toml:2:11: [fonts] primary = \"a\\u0000b\": expected a path (without NUL characters)"),
        (["render", "--out", ""], 64, "Error: --out: empty value; expected a path"),
        // FIFOs where a file is expected: refused at once, never opened for a read that blocks.
        (["render", "--board", "$D/fifo", "--out", "$D/a.png"], 64, "Error: cannot read board profile: $D/fifo: not a regular file (a FIFO)"),
        (["render", "--mode", "custom", "--image", "$D/fifo", "--out", "$D/a.png"], 1, "Error: --image $D/fifo: not a regular file (a FIFO)"),
        (["render", "--underlay", "$D/fifo", "--out", "$D/a.png"], 1, "Error: --underlay $D/fifo: not a regular file (a FIFO)"),
        (["render", "--logo", "$D/fifo", "--out", "$D/a.png"], 1, "Error: --logo $D/fifo: not a regular file (a FIFO)"),
        (["render", "--underlay-fit", "tile", "--out", "$D/a.png"], 64, "Error: --underlay-fit tile: expected fill, fit, center or stretch"),
        (["render", "--out", "$D/fifo"], 1, "Error: --out $D/fifo: not a regular file (a FIFO)"),
        (["render", "--board", "$D/font-fifo.toml", "--label", "x", "--out", "$D/a.png"], 64, "Error: font $D/fifo: not a regular file (a FIFO)"),
    ]

    @Test(arguments: refusals)
    func refusedWithTheExactMessage(_ args: [String], _ status: Int32, _ message: String) {
        let r = run(args)
        #expect(r.status == status, "\(args): \(r.line)")
        #expect(r.line == message)
        #expect(r.seconds < 5, "\(args) took \(r.seconds) s")
    }

    /// A value of 80 KB comes back cut at 80 characters, and the whole message stays one line.
    @Test func longValuesAreCut() {
        let long = String(repeating: "m", count: 80_000)
        for args in [["render", "--mode", long, "--out", "$D/a.png"], ["render", "--\(long)"], ["bogus\(long)"]] {
            let r = run(args)
            #expect(r.status == 64)
            #expect(r.line.count < 200 && r.line.contains("…"), "\(r.line.prefix(300))")
        }
    }

    /// A long path is cut at 80 characters wherever a failed call names it (SysError,
    /// PNGError, LibinputError; found by kiosk-hud-fuzz cli: lines of 307 to 576 characters for
    /// --board, --underlay and --out naming a 300-character file, and --bind-touch).
    @Test func longPathsAreCut() {
        let name = String(repeating: "n", count: 300), cut = String(repeating: "n", count: 80) + "…"
        // A --board without a slash is a shipped profile's name: the file is ./NAME.
        let board = run(["render", "--out", "$D/a.png", "--board", "./" + name]), underlay = run(["render", "--out", "$D/a.png", "--underlay", name])
        #expect(board.status == 64 && board.line == "Error: cannot read board profile: open ./\(cut.dropFirst(2)) failed: File name too long (errno 36)")
        #expect(underlay.status == 1 && underlay.line == "Error: --underlay \(cut): cannot open: File name too long")
        let binding = run(["show", "--offscreen", "-", "--no-input", "--bind-touch", String(repeating: "n", count: 256)])
        #expect(binding.status == 64 && binding.line == "Error: touch binding \(cut) failed: expected DEVICE=OUTPUT, e.g. ILITEK=DSI-1 or event5=HDMI-A-1", "\(binding.line)")
        let out = run(["render", "--out", name])
        #expect(out.status == 1)
        #expect(out.line.hasPrefix("Error: --out \(cut): cannot write: open ….") && out.line.hasSuffix(".tmp: File name too long"), "\(out.line)")
    }

    /// `show --offscreen -` costs one canvas, not two: nothing is shown, so the offscreen
    /// display keeps no copy of the picture (found by kiosk-hud-fuzz cli: 520 MB at 8192x8192,
    /// the frame and its copy; the budget is the canvas and 64 MB more).
    @Test func anOffscreenShowKeepsOneCanvas() {
        guard let pid = Proc.spawn([Proc.kioskHUD, "show", "--offscreen", "-", "--no-input", "--size", "4096x4096",
                                    "--duration", "0.5", "--label", "x"]) else {
            Issue.record("cannot start kiosk-hud"); return
        }
        // The peak as the kernel keeps it for the process's own memory (VmHWM), read until it
        // exits: wait4's ru_maxrss would also count this test process, which posix_spawn's
        // vfork shares until the exec.
        var status: Int32 = 0, peakKB = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            let text = (try? readSmallFile("/proc/\(pid)/status", limit: 1 << 16)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
               let kb = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) { peakKB = max(peakKB, kb) }
            usleep(10_000)
        }
        let canvasMB = 4096 * 4096 * 4 / (1 << 20), peakMB = peakKB / 1024
        print("[offscreen] show --offscreen - at 4096x4096: peak RSS \(peakMB) MB for a \(canvasMB) MB canvas")
        #expect(status & 0x7f == 0 && (status >> 8) & 0xff == 0)
        #expect(peakKB > 0, "no VmHWM read while it ran")
        #expect(peakMB <= canvasMB + 64, "peak RSS \(peakMB) MB for a \(canvasMB) MB canvas")
    }

    /// SIGTERM ends a running show through its clean-up at once, even while it draws a large
    /// frame (drawing stops between bands of rows).
    @Test func aRunningShowAnswersSIGTERMQuickly() throws {
        let out = h.dir + "/term.err"
        guard let pid = Proc.spawn([Proc.kioskHUD, "show", "--offscreen", "-", "--no-input", "--size", "3840x2160",
                                    "--background", "gradient", "--bezel", "blur", "--label", "x"], stderr: out) else {
            Issue.record("cannot start kiosk-hud"); return
        }
        // Drawing the first frame begins right after the output line: wait for that line (at
        // most 10 s), then SIGTERM while the 4K frame is being drawn.
        for _ in 0..<1000 where (try? readSmallFile(out, limit: 1 << 16))?.contains("kiosk-hud: output") != true { usleep(10_000) }
        let t0 = monotonicSeconds()
        kill(pid, SIGTERM)
        let status = Proc.wait(pid)
        let took = monotonicSeconds() - t0
        #expect(status == 0)
        // Counted, not timed: the frame was left between two bands (nothing presented), where
        // drawing it whole would have presented it. (A 1 s bound here failed at 1.01 s beside
        // the whole run's guests; release builds answer well under 0.25 s.) The time only
        // guards against a hang.
        let log = (try? readSmallFile(out, limit: 1 << 16)) ?? ""
        #expect(log.contains("kiosk-hud: done presents=0"), "\(log)")
        #expect(took < 10, "SIGTERM answered after \(took) s")
    }
}
