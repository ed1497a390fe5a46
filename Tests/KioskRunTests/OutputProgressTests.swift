// The progress `kiosk-hud run` reads from a command's output: each format it knows, from the
// real programs where Debian has them (rsync, dd, curl on local files), and output that must
// not fool or balloon it.
import Glibc
import KioskRun
import KioskSys
import KioskTestSupport
import Testing

@Suite struct OutputProgressTests {
    func events(_ text: String, _ configure: (inout OutputProgress) -> Void = { _ in }) -> [OutputProgress.Event] {
        var p = OutputProgress()
        configure(&p)
        return p.feed(Array(text.utf8)) + p.flush()
    }

    func progress(_ e: [OutputProgress.Event]) -> [Double] {
        e.compactMap { if case let .progress(v) = $0 { v } else { nil } }
    }

    @Test func psplashWords() {
        #expect(events("PROGRESS 40\nMSG Copying files\nPROGRESS 140\n") == [.progress(0.4), .details("Copying files")])
    }

    @Test func theLastPercentOnALineWins() {
        #expect(progress(events("10% of part 1, 45% overall\n")) == [0.45])
        #expect(progress(events("Progress: [ 40%]\r")) == [0.4])        // apt
        #expect(progress(events("100%\n")) == [1])
        #expect(progress(events("x99% abc\nv2%\n")) == [])               // part of a word
        #expect(progress(events("150%\n")) == [])                         // not a percentage
        #expect(progress(events("12.5%")) == [0.125])                    // the last line, unterminated
    }

    @Test func stepsOfATotal() {
        #expect(progress(events("step 3/4 (installing)\n")) == [0.75])
        #expect(progress(events("[2/8] Building\n")) == [0.25])
        #expect(progress(events("5/0 7/3 a/b 2021/11/25\n")) == [])
    }

    @Test func theCallersPatternComesFirst() throws {
        let re = try PosixRegex("^Stage ([0-9]+) of ([0-9]+)")
        let stage = try PosixRegex("stage=([0-9]+/[0-9]+)")
        #expect(progress(events("Stage 3 of 4: 10%\n") { p in p.pattern = { re.firstCapture(in: $0) } }) == [0.03])
        #expect(progress(events("stage=3/4 10%\n") { p in p.pattern = { stage.firstCapture(in: $0) } }) == [0.75])
        #expect(throws: SysError.self) { try PosixRegex("([0-9]+") }
    }

    @Test func detailsFromOutputAndPsplashMessages() {
        let e = events("Unpacking foo\n50%\nSetting up bar\n") { $0.detailsFromOutput = true }
        // One chunk: its last progress and its last details, in their order.
        #expect(e == [.progress(0.5), .details("Setting up bar")])
        #expect(events("Unpacking foo\n50%\n") { $0.detailsFromOutput = true } == [.details("Unpacking foo"), .progress(0.5)])
        #expect(events("Unpacking foo\n") == [])
    }

    @Test func carriageReturnsEndLines() {
        var p = OutputProgress()
        #expect(progress(p.feed(Array("\r 10%\r 2".utf8))) == [0.1])
        #expect(progress(p.feed(Array("0%\r 30%".utf8))) == [0.2])
        #expect(progress(p.flush()) == [0.3])
    }

    /// A chunk of many lines gives its last progress only (the HUD shows that one anyway).
    @Test func aChunkGivesItsLastProgress() {
        #expect(progress(events("10%\n20%\nno progress here\n30%\nstill none\n")) == [0.3])
    }

    /// A line longer than 4 KiB is cut (what follows on it is ignored); the next line counts.
    @Test func aHugeLineIsBounded() {
        var p = OutputProgress()
        var e: [OutputProgress.Event] = []
        let chunk = [UInt8](repeating: 0x61, count: 65536)
        for _ in 0..<64 { e += p.feed(chunk) }            // 4 MiB without a newline
        e += p.feed(Array(" 50%\n60%\n".utf8))
        #expect(progress(e) == [0.6])
    }

    @Test func bytesThatAreNotUTF8() {
        #expect(progress(events("\u{FFFD}\u{01}\u{7F} 30%\n") + OutputProgressTests().events(String(decoding: [0xFF, 0xFE, 0x25, 0x0A], as: UTF8.self))) == [0.3])
    }

    // MARK: Real programs

    static let dir = Proc.makeTempDir("kiosk-run-formats")
    static let file: String = {
        let path = dir + "/4MiB.bin"
        _ = Proc.run(["dd", "if=/dev/urandom", "of=" + path, "bs=1M", "count=4"])
        return path
    }()

    func outputOf(_ command: [String]) -> [UInt8] {
        let out = Self.dir + "/out.\(UInt32.random(in: 0...UInt32.max))"
        defer { unlink(out) }
        guard let pid = Proc.spawn(command, stdout: out, stderr: out) else { Issue.record("cannot start \(command[0])"); return [] }
        #expect(Proc.wait(pid) == 0, "\(command)")
        return Proc.readBytes(out) ?? []
    }

    func read(_ bytes: [UInt8], _ configure: (inout OutputProgress) -> Void = { _ in }) -> [Double] {
        var p = OutputProgress()
        configure(&p)
        return progress(p.feed(bytes) + p.flush())
    }

    @Test func rsyncInfoProgress2() {
        let out = outputOf(["rsync", "--info=progress2", Self.file, Self.dir + "/rsync-copy.bin"])
        let p = read(out)
        #expect(p.last == 1 && p == p.sorted(), "\(String(decoding: out, as: UTF8.self))")
    }

    @Test func ddStatusProgressWithTheTotal() {
        let out = outputOf(["dd", "if=" + Self.file, "of=/dev/null", "bs=64k", "status=progress"])
        #expect(read(out) { $0.totalBytes = 4_194_304 }.last == 1, "\(String(decoding: out, as: UTF8.self))")
        #expect(read(out) { $0.totalBytes = 8_388_608 }.last == 0.5)
        // dd's running line (printed each second of a long copy) and GNU's wording for it.
        #expect(read(Array("\r1048576 bytes (1.0 MB, 1.0 MiB) copied, 1 s, 1.0 MB/s".utf8)) { $0.totalBytes = 4_194_304 } == [0.25])
    }

    @Test func curlsMeter() {
        // The meter's header, its first line (0) and its last (100), as a download prints them
        // (a local file is too quick for the lines between; one is added below).
        let out = outputOf(["curl", "-o", "/dev/null", "file://" + Self.file])
        let p = read(out)
        #expect(p.last == 1, "\(String(decoding: out, as: UTF8.self))")
        let middle = "\r 47 4096k   47 1939k    0     0   968k      0  0:00:04  0:00:02  0:00:02  968k"
        #expect(read(out.prefix { $0 != 0x0D } + Array(middle.utf8)) == [0.47])
    }
}
