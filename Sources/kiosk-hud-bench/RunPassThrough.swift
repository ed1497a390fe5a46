// `kiosk-hud run` passing a command's output through: the same N MB of data written by `cat`
// into a pipe and copied to /dev/null by (a) a second `cat` — the reference, what a shell
// pipeline costs — and (b) kiosk-hud run (no HUD; and on an offscreen display, drawing the
// progress it reads), each the median of 5 runs, with the CPU time of the reader (user +
// system, from wait4) and the memcpy floor of the same bytes measured here.
import Glibc
import KioskSys

/// Wall seconds and the CPU seconds of the process tree spawned by `command` (via sh -c).
func timedShell(_ command: String) -> (wall: Double, cpu: Double, status: Int32) {
    var pid: pid_t = 0
    let words: [String] = ["sh", "-c", command]
    let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    let start = nowNs()
    guard posix_spawnp(&pid, "sh", nil, nil, argv, environ) == 0 else { return (0, 0, 127) }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
    let wall = Double(nowNs() - start) / 1e9
    func s(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    // wait4's rusage covers sh and what it waited for (cat, cat or run and its cat).
    return (wall, s(usage.ru_utime) + s(usage.ru_stime), (status >> 8) & 0xff)
}

func runPassThrough(megabytes: Int) -> Bool {
    let kioskHUD = CommandLine.arguments[0].replacing("kiosk-hud-bench", with: "kiosk-hud")
    let file = "/tmp/kiosk-bench-run-\(getpid()).bin"
    defer { unlink(file) }
    guard timedShell("head -c \(megabytes * 1_000_000) /dev/urandom > \(file)").status == 0 else { print("cannot write \(file)"); return false }
    let bytes = megabytes * 1_000_000
    let src = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64), dst = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
    defer { src.deallocate(); dst.deallocate() }
    memset(src, 1, bytes); memset(dst, 2, bytes)
    var floor: [Double] = []
    for _ in 0..<5 { let t = nowNs(); memcpy(dst, src, bytes); floor.append(Double(nowNs() - t) / 1e9) }
    let cases: [(String, String)] = [
        ("cat | cat (reference)", "cat \(file) | cat > /dev/null"),
        ("run --hud none -- cat", "\(kioskHUD) run --hud none -- cat \(file) > /dev/null 2>/dev/null"),
        ("run (offscreen HUD) -- cat", "\(kioskHUD) run --hud display --offscreen - --no-input --notice-duration 0 -- cat \(file) > /dev/null 2>/dev/null"),
        ("run -- sh: 100 000 progress lines", "\(kioskHUD) run --hud none -- sh -c 'i=0; while [ $i -lt 100000 ]; do echo \"$((i/1000))% line $i\"; i=$((i+1)); done' > /dev/null 2>/dev/null"),
    ]
    print("kiosk-hud run pass-through: \(megabytes) MB of random bytes, median of 5 (wall, CPU of the whole pipeline)")
    print("case".padding(36) + "wall s".leftPad(9) + "MB/s".leftPad(9) + "CPU s".leftPad(9))
    func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
    print("floor memcpy (same bytes)".padding(36) + fmt(median(floor), 4).leftPad(9) + fmt(Double(megabytes) / median(floor), 0).leftPad(9) + "".leftPad(9))
    var ok = true
    for (name, command) in cases {
        var walls: [Double] = [], cpus: [Double] = []
        for _ in 0..<5 {
            let r = timedShell(command)
            if r.status != 0 { print("\(name): exit \(r.status)"); ok = false }
            walls.append(r.wall); cpus.append(r.cpu)
        }
        let mbps = name.contains("lines") ? "" : fmt(Double(megabytes) / median(walls), 0)
        print(name.padding(36) + fmt(median(walls), 3).leftPad(9) + mbps.leftPad(9) + fmt(median(cpus), 3).leftPad(9))
    }
    return ok
}
