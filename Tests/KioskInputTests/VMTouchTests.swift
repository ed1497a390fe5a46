// Real kernel: uinput touch screens (Tests/VM/ref/uinput-touch.c) and QEMU's virtio-tablet in
// the QEMU harness (Tests/VM), read by the built `kiosk-hud touch` through libinput while
// Tests/VM/guest/touch-uinput.sh taps known device positions. Loud failure if the VM cannot
// run, unless KIOSK_VM_ALLOW_SKIP=1.
import KioskTestSupport
import Foundation
import KioskSys
import Testing

/// Tests/KioskInputTests/<this file> → the package root.
private let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// What each scenario must print (panel 800x480, device 0..4095: device 1024 = panel 200 / 120).
private let expected: [String: [String]] = [
    "path-r0": ["down 0 400 240", "frame", "up 0", "frame",
                "down 0 200 120", "frame", "motion 0 600 360", "frame", "up 0", "frame",
                "down 0 200 120", "frame", "down 1 600 360", "frame", "up 0", "frame", "up 1", "frame"],
    // Panel (200, 120) in a 480x800 picture: (y, H − x).
    "path-r90": ["down 0 120 600", "frame", "up 0", "frame"],
    // 0.5,0,0.25,0,0.5,0.25: normalised 0.25 → 0.375, panel (300, 180); then 270°: (W − y, x).
    "path-matrix-r270": ["down 0 300 300", "frame", "up 0", "frame"],
    // b: (2048, 1024) as is; cal: udev's LIBINPUT_CALIBRATION_MATRIX -1 0 1 0 -1 1 applied by
    // libinput; r: removed with the finger down (libinput cancels the touch).
    "seat-hotplug": ["down 0 400 120", "frame", "up 0", "frame", "down 0 600 360", "frame", "up 0", "frame",
                     "down 0 400 240", "frame", "cancel 0", "frame"],
    // a is bound to HDMI-A-1: only b's and cal's taps; cal with --touch-matrix identity: raw.
    "seat-bind": ["down 0 200 360", "frame", "up 0", "frame", "down 0 200 120", "frame", "up 0", "frame"],
    "tablet-keys": ["pointer 400 240", "button pressed", "button released",
                    "key 28 pressed", "key 28 released", "key 57 pressed", "key 57 released",
                    "key 1 pressed", "key 1 released", "key 96 pressed", "key 96 released"],
]

@Suite struct VMTouchTests {
    @Test(.timeLimit(.minutes(60)))
    func uinputTouchAndVirtioTabletThroughLibinput() async throws {
        func cannotRun(_ why: String) {
            if let issue = VMGate.cannotRun("VMTouchTests", why) { Issue.record(Comment(rawValue: issue)) }
        }
        guard let bin = kioskHUDBinary() else {
            Issue.record("no kiosk-hud beside the tests or in <package>/.build/debug (swift test should have built it)")
            return
        }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-touch-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }

        // The uinput program, built on the host (the guest runs the host's binaries).
        let uinput = out.appendingPathComponent("uinput-touch").path
        let gcc = Proc.run(["gcc", "-O2", "-Wall", "-o", uinput, packageRoot.appendingPathComponent("Tests/VM/ref/uinput-touch.c").path])
        guard gcc.status == 0 else { cannotRun("gcc uinput-touch.c failed: \(gcc.err)"); return }

        let guest = packageRoot.appendingPathComponent("Tests/VM/guest/touch-uinput.sh").path
        let started = Date()
        // The guest runs for minutes (longer when it waits for a VM slot): off the cooperative pool.
        let vmArgs = ["--gpu", "none", "--tablet", "--out", out.path, "--timeout", "150", "--", guest, bin, uinput, out.path]
        let (status, stdout, stderr) = await Proc.runVM(vmArgs, qemuArgs: "", out: out.path)
        let vm = (status: status, out: stdout, err: stderr)
        let seconds = Date().timeIntervalSince(started)
        let lines = vm.out.split(separator: "\n").map(String.init)
        let ran = lines.filter { $0.hasPrefix("ran ") }
        for l in lines where l.hasPrefix("info ") || l.hasPrefix("ran ") { print("vm: \(l)") }
        print("vm: exit \(vm.status), \(Int(seconds)) s")
        if (vm.status == 124 || vm.status == 125) && ran.isEmpty {
            cannotRun("run-in-vm.sh exit \(vm.status): \(vm.err.split(separator: "\n").suffix(15).joined(separator: "\n"))")
            return
        }
        for f in lines where f.hasPrefix("FAIL ") { Issue.record("\(f)") }
        #expect(vm.status == 0, "guest script exit \(vm.status); stdout:\n\(vm.out.suffix(2000))\nstderr:\n\(vm.err.suffix(3000))")

        func file(_ name: String) -> String { (try? String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)) ?? "" }
        for (name, want) in expected.sorted(by: { $0.key < $1.key }) {
            let got = file("\(name).out").split(separator: "\n").map(String.init)
            #expect(sameEvents(got, want), "\(name): got \(got), want \(want); stderr:\n\(file("\(name).err"))")
            #expect(file("\(name).rc").hasPrefix("0"), "\(name) exit \(file("\(name).rc")); stderr:\n\(file("\(name).err"))")
        }
        // What the log says about calibration and binding.
        #expect(file("seat-hotplug.err").contains("udev LIBINPUT_CALIBRATION_MATRIX -1.0,0.0,1.0,0.0,-1.0,1.0 (libinput's default)"),
                "\(file("seat-hotplug.err"))")
        #expect(file("seat-bind.err").contains("calibration: 1.0,0.0,0.0,0.0,1.0,0.0 (replaces udev LIBINPUT_CALIBRATION_MATRIX"),
                "\(file("seat-bind.err"))")
        #expect(file("seat-bind.err").contains("\"kiosk-touch-a\" (touch); ignored"), "\(file("seat-bind.err"))")
        for name in expected.keys.sorted() {
            if let l = file("\(name).err").split(separator: "\n").first(where: { $0.contains("latency") }) { print("vm: \(name): \(l)") }
        }
    }
}

/// Events equal line by line, numbers within half a pixel.
private func sameEvents(_ got: [String], _ want: [String]) -> Bool {
    guard got.count == want.count else { return false }
    for (g, w) in zip(got, want) {
        let a = g.split(separator: " "), b = w.split(separator: " ")
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) where x != y {
            guard let u = Double(x), let v = Double(y), abs(u - v) <= 0.5 else { return false }
        }
    }
    return true
}

/// kiosk-hud beside the test bundle (any --scratch-path), else <package>/.build/debug.
private func kioskHUDBinary() -> String? {
    var candidates: [String] = []
    if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("kiosk-hud").path)
    }
    candidates.append(packageRoot.appendingPathComponent(".build/debug/kiosk-hud").path)
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
}
