// A PNG file is opened, read and closed (and written, row by row) through the `Kernel` seam; the
// decoding itself stays pure. A fake kernel sees each call and fails any of them.
import Glibc
import KioskFakeKernel
import KioskPNG
import KioskSys
import KioskTestSupport
import Testing

@Suite struct PNGKernelSeamTests {
    /// A 4×3 picture written through `kernel`.
    func written(_ kernel: Kernel) throws -> String {
        let path = Proc.makeTempDir("kiosk-png-seam") + "/p.png"
        try PNG.write(width: 4, height: 3, alpha: true, path: path, kernel: kernel) { y, row in
            for i in 0..<row.count { row[i] = i % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: y * 16 + i) }
        }
        return path
    }

    @Test func theFileIsReadAndWrittenThroughTheKernel() throws {
        let w = FakeKernel()
        let path = try written(w)
        let temporary = "\(path).\(getpid()).tmp"
        #expect(Array(w.calls.prefix(3)) == ["stat \(path)", "unlink \(temporary)", "open \(temporary)"])
        #expect(w.calls.contains("write"))
        #expect(Array(w.calls.suffix(2)) == ["close", "rename \(temporary) \(path)"])
        let k = FakeKernel()
        let image = try PNG.read(path: path, kernel: k)
        #expect(image.width == 4 && image.height == 3)
        #expect(image.pixel(x: 1, y: 2).g == UInt8(2 * 16 + 5))
        // Looked up, checked and opened in one call (no stat by path first: what is checked is
        // the descriptor read).
        #expect(k.calls.first == "open \(path)" && !k.calls.contains("stat \(path)"))
        #expect(k.calls.contains("pread"))
        #expect(k.calls.last == "close")
        #expect(k.count("close") == 1)
        let header = try PNG.header(path: path, kernel: k)
        #expect(header.width == 4)
    }

    @Test func aWholeImageIsWrittenAndRenamedThroughTheKernel() throws {
        let path = Proc.makeTempDir("kiosk-png-seam") + "/whole.png"
        let k = FakeKernel()
        try PNG.write(PNGImage(width: 2, height: 2, fill: (255, 0, 0, 255)), path: path, kernel: k)
        let temporary = "\(path).\(getpid()).tmp"
        #expect(k.calls.first == "stat \(path)" && k.calls.contains("open \(temporary)") && k.calls.contains("write"))
        #expect(k.calls.last == "rename \(temporary) \(path)")
        let back = try PNG.read(path: path)
        #expect(back.width == 2)
    }

    @Test func aFailedRenameLeavesNoNewFile() throws {
        let path = Proc.makeTempDir("kiosk-png-seam") + "/kept.png"
        let k = FakeKernel()
        k.failAt = (5, EXDEV)   // stat, unlink, open, write, close, then the rename
        let error = caught(PNGError.self) { try PNG.write(PNGImage(width: 1, height: 1, fill: (0, 0, 0, 255)), path: path, kernel: k) }
        #expect(error?.message.hasPrefix("cannot write: rename") == true, "\(String(describing: error)) \(k.calls)")
        #expect(k.calls.last == "unlink \(path).\(getpid()).tmp")
        #expect(!fileExists(path) && !fileExists("\(path).\(getpid()).tmp"))
    }

    @Test func aFailedReadIsAClearError() throws {
        let path = try written(LinuxKernel())
        let k = FakeKernel()
        k.failAt = (1, EIO)   // the open, then the first pread
        let error = caught(PNGError.self) { _ = try PNG.read(path: path, kernel: k) }
        #expect(error == PNGError(operation: "read", message: "cannot read: Input/output error", path: path))
        #expect(k.calls.last == "close")
    }

    @Test func aFailedOpenIsAClearError() {
        let k = FakeKernel()
        k.failAt = (0, EACCES)   // the open
        let error = caught(PNGError.self) { _ = try PNG.read(path: "/tmp/kiosk-seam-absent.png", kernel: k) }
        #expect(error?.message == "cannot open: Permission denied")
        #expect(k.calls == ["open /tmp/kiosk-seam-absent.png"])
    }
}
