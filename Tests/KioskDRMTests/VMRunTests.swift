import KioskTestSupport
import Glibc
import KioskSeams
import KioskPNG
import KioskSys
import Testing

/// Real kernel: `kiosk-hud run -- CMD` on its own display (bochs-drm at 800x480, real KMS, real
/// libinput with a uinput touch screen), one boot (Tests/VM/guest/run.sh):
/// * a tap on Cancel while `sleep 600` runs: "Cancelling…" (no button, the spinner), the sleep
///   ended by SIGTERM, "Cancelled" (mode error), exit 130 within --kill-after (5 s) + 1 s;
/// * progress from the command's output (`25%` … `100%` lines, a second apart, the loop started
///   once the HUD is up): the bar at each value (after the easing), then "Done" (mode success)
///   for --notice-duration 2, exit 0;
/// * a child whose SIGTERM trap records the time: tap → SIGTERM in the child and tap → run's exit
///   (next to `kill -TERM` from a shell in the same boot), its setsid'd grandchild ended too;
/// * a command that does not stop on SIGTERM (its trap records it too) and a setsid'd
///   grandchild that ignores it: "Cancelling…" until both are ended by SIGKILL after
///   --kill-after 2, then "Cancelled", exit 130;
/// * after each run, /proc holds nothing of it.
/// Screendumps are compared with `kiosk-hud render` of the state LongTask shows then, pixel for
/// pixel (a spinner state: one of the 12 phases): from the SIGTERM on they are taken back to back
/// and go "Cancelling…", "Cancelled" (see `sequence` for why sleep's may miss the first); in each
/// progress value's window (and Done's) at least one must equal it, the others may catch the
/// easing. Times come from run's own log lines, stamped in the guest; their limits leave out the
/// moments a heartbeat saw the guest stand still (the host busy elsewhere). The guest logs the
/// latencies (TCG: only ratios mean anything). If the VM cannot run the test FAILS, loudly,
/// unless KIOSK_VM_ALLOW_SKIP=1.
@Suite struct VMRunTests {
    /// What `matches` found, by picture and state.
    final class Seen: @unchecked Sendable { var results: [String: Bool] = [:] }
    let seen = Seen()

    /// run's --label in the cancel scenarios; the button's place comes from this state's layout.
    static let label = "Installing updates"
    static let runningState = ["--mode", "indeterminate", "--label", label, "--button", "Cancel", "--scale", "1"]
    /// What each screendump must equal: LongTask's content in that state. Cancelling: the label
    /// changes, the button goes, the mode stays (indeterminate: no progress was seen). The end
    /// notices clear the button and details and set the mode. The bar: run's default progress
    /// mode, no label given, the button kept.
    static let states: [String: [String]] = [
        "cancel-running": runningState,
        "cancel-pressed": runningState + ["--pressed"],
        "cancel-cancelling": ["--mode", "indeterminate", "--label", "Cancelling…", "--scale", "1"],
        "cancel-cancelled": ["--mode", "error", "--label", "Cancelled", "--scale", "1"],
        "progress-0.25": bar("0.25"), "progress-0.5": bar("0.5"), "progress-0.75": bar("0.75"), "progress-1.0": bar("1"),
        "done": ["--mode", "success", "--progress", "1", "--label", "Done", "--scale", "1"],
    ]
    /// An indeterminate state: the picture is one of the spinner's 12 phases.
    static func spinner(_ state: [String]) -> Bool { state.firstIndex(of: "--mode").map { state[$0 + 1] == "indeterminate" } ?? false }
    static func bar(_ p: String) -> [String] { ["--mode", "bar", "--progress", p, "--button", "Cancel", "--scale", "1"] }
    /// The screendumps, in order: "cancel-seq" those taken back to back once run logged the
    /// SIGTERM, each progress value and "done" those taken in its window.
    static let shots = ["cancel-running", "cancel-seq", "progress-0.25", "progress-0.5", "progress-0.75", "progress-1.0", "done", "kill-seq"]
    /// What the screendumps after the SIGTERM may show, in this order: the frame before the tap
    /// (the button up, or drawn pressed: the new frame not drawn yet), "Cancelling…", "Cancelled".
    static let cancelOrder = ["cancel-running", "cancel-pressed", "cancel-cancelling", "cancel-cancelled"]
    /// The guest's checks that must pass.
    static let checks = [
        "cancel-started", "cancel-sigterm", "cancel-sleep-ended", "cancel-exit", "cancel-exit-time", "cancel-nothing-left",
        "progress-0.25-window", "progress-0.5-window", "progress-0.75-window", "progress-1.0-window",
        "progress-command-ended", "progress-exit", "progress-notice-time", "progress-nothing-left",
        "term-reference", "term-child", "term-exit", "term-exit-time", "term-no-sigkill", "term-nothing-left",
        "kill-started", "kill-exit", "kill-exit-time", "kill-sigkill", "kill-nothing-left",
    ]

    @Test(.timeLimit(.minutes(60)))
    func runOnBochs() async throws {
        guard vmHarnessReady("VM RUN TESTS") else { return }
        let out = Proc.makeTempDir("kiosk-vm-run")
        guard let uinput = uinputTouchTool(in: out, suite: "VM RUN TESTS") else { return }

        // The button's centre while the command runs, in uinput device coordinates (0..4095).
        let (w, h) = (800, 480)
        let b = try buttonCentre(width: w, height: h)
        let bx = String(Int((b.x * 4096 / Double(w)).rounded())), by = String(Int((b.y * 4096 / Double(h)).rounded()))
        print("[run] button centre \(b) → device \(bx),\(by)")

        let args = ["--gpu", "bochs", "--out", out, "--timeout", "300", "--",
                    "bash", Proc.root + "/Tests/VM/guest/run.sh", Proc.kioskHUD, uinput, bx, by, Self.label]
        let t0 = monotonicSeconds()
        async let vm = Proc.runVM(args, qemuArgs: "-global VGA.xres=\(w) -global VGA.yres=\(h)", out: out)
        // While the guest boots: the reference renders (a spinner state's 12 phases at once).
        let refs = Renders(dir: out)
        for state in Self.states.values { _ = try? refs.render(state, width: w, height: h, phase: Self.spinner(state) ? 0 : nil) }
        let (status, stdout, stderr) = await vm
        print("[run] VM run took \(Int(monotonicSeconds() - t0)) s, exit \(status); files in \(out)")
        guard let verdict = guestVerdict((status, stdout, stderr), suite: "VM RUN TESTS", tag: "run", checks: Self.checks) else { return }
        var clean = verdict

        // The screendumps against offscreen renders of the states they were taken in.
        let manifest = Proc.readFile(out + "/manifest") ?? ""
        #expect(manifest.hasSuffix("end\n"), "the guest script did not finish: \(manifest)")
        var shots: [(file: String, name: String, ms: Double?)] = []
        var timing: [String: [Double]] = [:]
        for line in manifest.split(separator: "\n") {
            let f = line.split(separator: "\t").map(String.init)
            if f.count == 1, f[0].hasPrefix("timing ") {
                let t = f[0].split(separator: " ").map(String.init)
                timing[t[1]] = t.dropFirst(2).compactMap(Double.init)
            } else if f.count >= 3, f[0] == "shot" {
                shots.append((f[1], f[2], f.count > 3 ? Double(f[3]).map { $0 / 1000 } : nil))
            }
        }
        var names: [String] = []
        for s in shots where names.last != s.name { names.append(s.name) }
        #expect(names == Self.shots, "screendumps taken: \(names)")
        if names != Self.shots { clean = false }

        // The HUD before the tap: exactly its state.
        for s in shots where s.name == "cancel-running" {
            guard let ppm = PPM(path: out + "/" + s.file) else { Issue.record("\(s.file): not a PPM"); clean = false; continue }
            if try !matches(ppm, Self.states[s.name]!, refs) {
                try report(ppm, s.file, s.name, refs); clean = false
            }
        }

        // From the SIGTERM on (a: sleep 600; e: a command that does not stop, SIGKILL after 2 s).
        if try !sequence("cancel-seq", shots, out, refs, cancellingRequired: false) { clean = false }
        if try !sequence("kill-seq", shots, out, refs, cancellingRequired: true) { clean = false }

        // The bar at each value, then Done: at least one screendump of each window equals it
        // (the others may catch the easing, or the next value coming).
        for name in Self.shots where name.hasPrefix("progress-") || name == "done" {
            let window = shots.filter { $0.name == name }
            var equal = 0
            for s in window {
                guard let ppm = PPM(path: out + "/" + s.file) else { Issue.record("\(s.file): not a PPM"); clean = false; continue }
                if try matches(ppm, Self.states[name]!, refs) { equal += 1 }
            }
            print("[run] \(name): \(equal) of \(window.count) screendumps equal `kiosk-hud render \(Self.states[name]!.joined(separator: " "))`")
            if equal == 0, let last = window.last, let ppm = PPM(path: out + "/" + last.file) {
                try report(ppm, last.file, name, refs); clean = false
            }
        }

        // Timings (TCG: compare, do not quote as absolute).
        func first(_ key: String) -> String { timing[key]?.first.map { ms($0 / 1000) } ?? "?" }
        let shell = timing["shell-term-us"].map { ms(median($0) / 1000) } ?? "?"
        print("[run] TCG guest, the lift of a tap on Cancel → SIGTERM in the command: \(first("tap-term-us")) ms (a child that obeys it), " +
              "\(first("tap-term-stuck-us")) ms (one that does not); a shell's kill -TERM → a waiting child's trap, same boot: median \(shell) ms")
        print("[run] TCG guest, the lift → run exited: \(first("cancel-exit-us")) ms (sleep 600), \(first("tap-exit-us")) ms (the child that obeys " +
              "SIGTERM): \"Cancelling…\" at least 1 s, then \"Cancelled\" 1.5 s; \(first("kill-exit-us")) ms for the one that does not " +
              "(SIGKILL after --kill-after 2, then \"Cancelled\" 1.5 s)")
        if let ref = timing["shell-term-us"], !ref.isEmpty {
            let taps = ["tap-term-us", "tap-term-stuck-us"].compactMap { timing[$0]?.first }.map { ms($0 / median(ref)) + "x" }
            print("[run] tap → SIGTERM in the command against a shell's kill → the trap: \(taps.joined(separator: ", "))")
        }
        #expect(timing["tap-term-us"]?.count == 1 && timing["tap-term-stuck-us"]?.count == 1 && timing["shell-term-us"]?.count == 3,
                "timings: \(timing)")

        if clean { _ = Proc.run(["rm", "-rf", out]) } else { print("[run] kept \(out) for inspection") }
    }

    /// The screendumps taken back to back from the SIGTERM on (`name`): each exactly one state
    /// of `cancelOrder`, in that order, ending with "Cancelled" (then perhaps the console, the
    /// display closed before run exits); "Cancelling…" seen too when
    /// `cancellingRequired` (a command that does not stop keeps it until the SIGKILL). With
    /// `sleep 600` it should stay 1 s too, but that second counts from the SIGTERM, and under TCG
    /// its frame has reached the screen up to ~1 s later (a full relayout and redraw by a debug
    /// build), so it may show for less than one screendump; how long it was seen is printed.
    func sequence(_ name: String, _ shots: [(file: String, name: String, ms: Double?)], _ out: String, _ refs: Renders,
                  cancellingRequired: Bool) throws -> Bool {
        var seq: [Int] = [], firstSeen: [Int: Double] = [:], good = true, console = 0
        for s in shots where s.name == name {
            guard let ppm = PPM(path: out + "/" + s.file) else { Issue.record("\(s.file): not a PPM"); good = false; continue }
            // Tried from the end: the spinner states (12 renders each) only when needed.
            guard let k = try Self.cancelOrder.indices.reversed().first(where: { try matches(ppm, Self.states[Self.cancelOrder[$0]]!, refs) }) else {
                // After "Cancelled" the console may be back: run closes the display before it exits.
                if seq.last == 3 { console += 1; continue }
                let d = try difference(ppm, Self.states["cancel-cancelling"]!, refs), e = try difference(ppm, Self.states["cancel-cancelled"]!, refs)
                Issue.record("\(s.file): equals none of \(Self.cancelOrder) (\(d) pixels differ from Cancelling…, \(e) from Cancelled)")
                good = false
                continue
            }
            if let last = seq.last, k < last {
                Issue.record("\(s.file) shows \(Self.cancelOrder[k]) after \(Self.cancelOrder[last])"); good = false
            }
            seq.append(k)
            if let t = s.ms, firstSeen[k] == nil { firstSeen[k] = t }
        }
        let runs = seq.reduce(into: [(Int, Int)]()) { r, k in if r.last?.0 == k { r[r.count - 1].1 += 1 } else { r.append((k, 1)) } }
        var line = "[run] \(name), from the SIGTERM on, \(seq.count) screendumps: " +
            runs.map { "\(Self.cancelOrder[$0.0].dropFirst(7))×\($0.1)" }.joined(separator: ", ") + (console > 0 ? ", the console×\(console)" : "")
        if let a = firstSeen[2], let b = firstSeen[3] {
            line += "; \"Cancelling…\" first at \(ms(a)) ms after the lift, \"Cancelled\" at \(ms(b)) ms: seen for about \(ms(b - a)) ms"
        } else if !seq.contains(2) {
            line += "; \"Cancelling…\" not caught"
        }
        print(line)
        let want = cancellingRequired ? [2, 3] : [3]
        if !want.allSatisfy(seq.contains) {
            Issue.record("\(name): the screendumps from the SIGTERM on do not show \(cancellingRequired ? "Cancelling… then Cancelled" : "Cancelled"): \(seq)")
            good = false
        }
        return good
    }

    /// Records how a screendump differs from the state `name` and which state it shows instead, if any.
    func report(_ ppm: PPM, _ file: String, _ name: String, _ refs: Renders) throws {
        let state = Self.states[name]!
        let d = try difference(ppm, state, refs)
        var instead: [String] = []
        for (other, s) in Self.states.sorted(by: { $0.key < $1.key }) where other != name {
            if try matches(ppm, s, refs) { instead.append(other) }
        }
        let also = instead.isEmpty ? "" : "; it equals the \(instead.joined(separator: ", ")) state"
        Issue.record("\(file): \(d) pixels differ from `kiosk-hud render --size \(ppm.width)x\(ppm.height) \(state.joined(separator: " "))`\(also)")
    }

    /// Whether the screendump equals `kiosk-hud render` of `state` (a spinner state: one of the 12
    /// phases), stopping at the first pixel that differs.
    func matches(_ ppm: PPM, _ state: [String], _ refs: Renders) throws -> Bool {
        // Many screendumps are the same picture (a static state, the spinner's 12 phases): each
        // picture is compared with each state once.
        let key = "\(checksum(ppm.rgb)) \(ppm.width)x\(ppm.height) \(state)"
        if let known = seen.results[key] { return known }
        let result = try compare(ppm, state, refs)
        seen.results[key] = result
        return result
    }

    private func compare(_ ppm: PPM, _ state: [String], _ refs: Renders) throws -> Bool {
        let spinner = Self.spinner(state)
        for phase in spinner ? Array(0..<12) : [-1] {
            let ref = try refs.render(state, width: ppm.width, height: ppm.height, phase: phase < 0 ? nil : phase)
            guard ref.width == ppm.width, ref.height == ppm.height else { continue }
            let same = ref.rgba.withUnsafeBufferPointer { r in
                ppm.rgb.withUnsafeBufferPointer { p in
                    for i in 0..<(ref.width * ref.height) where r[i * 4] != p[i * 3] || r[i * 4 + 1] != p[i * 3 + 1] || r[i * 4 + 2] != p[i * 3 + 2] {
                        return false
                    }
                    return true
                }
            }
            if same { return true }
        }
        return false
    }

    /// FNV-1a over the bytes, 8 at a time.
    func checksum(_ b: [UInt8]) -> UInt64 {
        b.withUnsafeBytes { raw in
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            let words = raw.count / 8
            for i in 0..<words { h = (h ^ raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)) &* 0x100_0000_01b3 }
            for i in (words * 8)..<raw.count { h = (h ^ UInt64(raw[i])) &* 0x100_0000_01b3 }
            return h
        }
    }

    /// Pixels of the screendump that differ from `kiosk-hud render` of `state`; a spinner state
    /// (indeterminate) compares with each of the 12 phases and takes the closest.
    func difference(_ ppm: PPM, _ state: [String], _ refs: Renders) throws -> Int {
        let spinner = Self.spinner(state)
        var best = Int.max
        for phase in spinner ? Array(0..<12) : [-1] {
            let ref = try refs.render(state, width: ppm.width, height: ppm.height, phase: phase < 0 ? nil : phase)
            best = min(best, VMDisplayTests().diff(ppm, ref, .none))
            if best == 0 { break }
        }
        return best
    }

    /// The button's centre in picture pixels while the command runs, from `kiosk-hud render --print-layout`.
    func buttonCentre(width: Int, height: Int) throws -> (x: Double, y: Double) {
        let dir = Proc.makeTempDir("kiosk-layout")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let r = Proc.run([Proc.kioskHUD, "render", "--size", "\(width)x\(height)", "--print-layout", "-o", dir + "/l.png"] + Self.runningState)
        guard r.status == 0, let line = r.out.split(separator: "\n").first(where: { $0.hasPrefix("button ") }) else {
            throw RefError(description: "kiosk-hud render --print-layout: exit \(r.status): \(r.out) \(r.err)")
        }
        let v = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard v.count == 4 else { throw RefError(description: "bad layout line: \(line)") }
        return (v[0] + v[2] / 2, v[1] + v[3] / 2)
    }
}

/// Offscreen renders by `kiosk-hud render`, cached per size, options and spinner phase; the first
/// phase asked for of a spinner state has all 12 rendered at once, in parallel.
final class Renders: @unchecked Sendable {
    let dir: String
    private var cache: [String: PNGImage] = [:]
    private var count = 0
    init(dir: String) { self.dir = dir }

    func render(_ args: [String], width: Int, height: Int, phase: Int?) throws -> PNGImage {
        func key(_ p: Int?) -> String { "\(width)x\(height) \(args) \(p ?? -1)" }
        if let c = cache[key(phase)] { return c }
        let phases: [Int?] = phase == nil ? [nil] : Array(0..<12)
        var started: [(pid: pid_t, path: String, phase: Int?)] = []
        for p in phases {
            count += 1
            let path = dir + "/ref-\(count).png"
            var a = [Proc.kioskHUD, "render", "--size", "\(width)x\(height)"] + args + ["-o", path]
            if let p { a += ["--phase", String(p)] }
            guard let pid = Proc.spawn(a, stderr: path + ".err") else { throw RefError(description: "cannot start kiosk-hud render") }
            started.append((pid, path, p))
        }
        var failed: [String] = []
        for s in started where Proc.wait(s.pid) != 0 { failed.append(Proc.readFile(s.path + ".err") ?? "") }
        guard failed.isEmpty else { throw RefError(description: "kiosk-hud render failed: \(failed.joined(separator: "; "))") }
        for s in started { cache[key(s.phase)] = try PNG.read(path: s.path) }
        return cache[key(phase)]!
    }
}
