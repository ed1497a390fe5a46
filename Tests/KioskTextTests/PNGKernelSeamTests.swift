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
        #expect(w.calls.first == "open \(path).\(getpid()).tmp")
        #expect(w.calls.contains("write"))
        #expect(w.calls.last == "close")
        let k = FakeKernel()
        let image = try PNG.read(path: path, kernel: k)
        #expect(image.width == 4 && image.height == 3)
        #expect(image.pixel(x: 1, y: 2).g == UInt8(2 * 16 + 5))
        #expect(k.calls.first == "open \(path)")
        #expect(k.calls.contains("fstat") && k.calls.contains("pread"))
        #expect(k.calls.last == "close")
        #expect(k.count("close") == 1)
        let header = try PNG.header(path: path, kernel: k)
        #expect(header.width == 4)
    }

    @Test func aFailedReadIsAClearError() throws {
        let path = try written(LinuxKernel())
        let k = FakeKernel()
        k.failAt = (2, EIO)   // open, fstat, then the first pread
        let error = caught(PNGError.self) { _ = try PNG.read(path: path, kernel: k) }
        #expect(error == PNGError(operation: "read", message: "cannot read: Input/output error", path: path))
        #expect(k.calls.last == "close")
    }

    @Test func aFailedOpenIsAClearError() {
        let k = FakeKernel()
        k.failAt = (0, EACCES)
        let error = caught(PNGError.self) { _ = try PNG.read(path: "/tmp/kiosk-seam-absent.png", kernel: k) }
        #expect(error?.message == "cannot open: Permission denied")
        #expect(k.calls == ["open /tmp/kiosk-seam-absent.png"])
    }
}
