// Bad PNG files (found by fuzzing the release binary) and bad paths: decided from the header
// before decoding, scaled while streaming, refused in one line, never blocking.
import Glibc
import KioskPNG
import KioskSys
import KioskTestSupport
import Testing

/// The limit kiosk-hud uses for an 800x480 canvas (RenderCommand.swift's pictureLimit).
private let canvasLimit = PNGReadLimit(maxPixels: 4 * 800 * 480, maxWidth: 1600, maxHeight: 960)

/// A 30000x30000 1-bit gray header over an IDAT of two rows.
private func hugeHeader(interlaced: Bool = false) -> [UInt8] {
    PNGForge.file(width: 30000, height: 30000, bitDepth: 1, colorType: 0, interlaced: interlaced,
                  idat: PNGForge.zlibStored([UInt8](repeating: 0, count: 2 * (1 + 30000 / 8))))
}

/// 8192x8192 1-bit gray, all black (the most pixels PNGReadLimit.maxWorkBytes lets through):
/// 8.4 MB of zeros in a ~8 KB zlib stream (made once).
private let bombPNG = PNGForge.file(width: 8192, height: 8192, bitDepth: 1, colorType: 0,
                                    idat: PNGForge.zeroBomb(count: 8192 * (1 + 8192 / 8)))
private func zeroBomb() -> [UInt8] { bombPNG }

/// The large-but-real image: smooth, so a box average is well defined whatever the box's edges.
private let largeWidth = 4000, largeHeight = 3000
private let largeSines = (0..<largeWidth).map { sin(Double($0) / 90) }
private let largeCosines = (0..<largeHeight).map { cos(Double($0) / 70) }
private func largePixel(_ x: Int, _ y: Int) -> (Int, Int, Int) {
    let b = 128 + 100 * largeSines[x] * largeCosines[y]
    return (x * 255 / (largeWidth - 1), y * 255 / (largeHeight - 1), Int(b.rounded()))
}
/// 4000x3000 RGB, 36 MB in stored zlib blocks (made once).
private let largePNG = makeLargeImage()
private func largeImage() -> [UInt8] { largePNG }
private func makeLargeImage() -> [UInt8] {
    let rowBytes = 1 + largeWidth * 3
    let reds = (0..<largeWidth).map { UInt8($0 * 255 / (largeWidth - 1)) }
    var raw = [UInt8](repeating: 0, count: rowBytes * largeHeight)
    raw.withUnsafeMutableBufferPointer { p in
        reds.withUnsafeBufferPointer { reds in
            largeSines.withUnsafeBufferPointer { sines in
                for y in 0..<largeHeight {
                    let green = UInt8(y * 255 / (largeHeight - 1)), cosine = 100 * largeCosines[y]
                    var i = y * rowBytes + 1
                    for x in 0..<largeWidth {  // largePixel(x, y), written out: this runs 12M times unoptimized
                        p[i] = reds[x]; p[i + 1] = green; p[i + 2] = UInt8((128 + sines[x] * cosine).rounded())
                        i += 3
                    }
                }
            }
        }
    }
    return PNGForge.file(width: largeWidth, height: largeHeight, bitDepth: 8, colorType: 2, idat: PNGForge.zlibStored(raw))
}

/// A small RGBA image, as a PNG and as the pixels it holds.
private func smallRGBA(width: Int = 13, height: Int = 11) -> (png: [UInt8], image: PNGImage) {
    var pixels: [UInt8] = []
    for y in 0..<height {
        for x in 0..<width {
            let r = UInt8(x * 19 % 256), g = UInt8(y * 23 % 256), b = UInt8(x * y % 256), a = UInt8(255 - x * 3)
            pixels += [r, g, b, a]
        }
    }
    var rows: [UInt8] = []
    for y in 0..<height {
        let start = y * width * 4
        rows.append(0)
        rows += pixels[start..<start + width * 4]
    }
    return (PNGForge.file(width: width, height: height, bitDepth: 8, colorType: 6, idat: PNGForge.zlibStored(rows)),
            PNGImage(width: width, height: height, rgba: pixels))
}

/// A directory of its own for each test, removed afterwards.
private final class Scratch {
    let dir = Proc.makeTempDir("kiosk-png")
    func path(_ name: String) -> String { dir + "/" + name }
    func write(_ name: String, _ bytes: [UInt8]) -> String {
        let p = path(name)
        let f = fopen(p, "wb")!
        _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
        fclose(f)
        return p
    }
    func fifo(_ name: String) -> String {
        let p = path(name)
        mkfifo(p, 0o600)
        return p
    }
    deinit {
        for name in listDirectory(dir) ?? [] {
            let p = dir + "/" + name
            if rmdir(p) != 0 { unlink(p) }
        }
        rmdir(dir)
    }
}

private func message(_ body: () throws -> Void) -> String? {
    do { try body() } catch let e as PNGError { return e.description } catch { return "\(error)" }
    return nil
}

@Suite struct PNGHostileTests {
    // MARK: Decided from the header

    @Test func headerWithoutDecoding() throws {
        let h = try PNG.header(hugeHeader(interlaced: true))
        #expect(h == PNGHeader(width: 30000, height: 30000, bitDepth: 1, colorType: 0, interlaced: true))
        let s = Scratch()
        let file = try PNG.header(path: s.write("bomb.png", zeroBomb()))
        #expect(file.width == 8192 && file.height == 8192 && !file.interlaced && file.pixels == 1 << 26)
    }

    @Test func sizesFromTheLimit() throws {
        func size(_ w: Int, _ h: Int, interlaced: Bool = false) -> String {
            switch canvasLimit.decodedSize(of: PNGHeader(width: w, height: h, bitDepth: 8, colorType: 2, interlaced: interlaced)) {
            case let .success(s): return "\(s.width)x\(s.height)"
            case let .failure(e): return e.message
            }
        }
        #expect(size(800, 480) == "800x480")
        #expect(size(1600, 960) == "1600x960")          // exactly 4x the canvas: as is
        #expect(size(1200, 1280, interlaced: true) == "1200x1280")  // under the pixel limit: as is
        #expect(size(4000, 3000) == "1280x960")
        #expect(size(8192, 8192) == "960x960")
        #expect(size(30000, 30000) == "image is 30000x30000 (900000000 pixels); at most 67108864 pixels are decoded, even to be scaled down")
        #expect(size(20000, 1) == "20000x1")              // few pixels: as is, however wide
        #expect(size(40000, 40) == "1600x2")
        #expect(size(40, 40000) == "1x960")
        #expect(size(16384, 16384) == "image is 16384x16384 (268435456 pixels); at most 67108864 pixels are decoded, even to be scaled down")
        #expect(size(8000, 8000, interlaced: true)
                == "image is 8000x8000 (64000000 pixels); at most 1536000 pixels, or a non-interlaced PNG to be scaled down")
        #expect(size(70000, 10) == "image is 70000x10 (700000 pixels); at most 65535 pixels on a side and 2147483648 in all")
        #expect(size(65535, 65535).hasPrefix("image is 65535x65535 (4294836225 pixels); at most"))
    }

    @Test func hugeHeaderFailsFastWithoutAllocating() throws {
        let start = monotonicSeconds()
        // More work than PNGReadLimit.maxWorkBytes (interlaced or not): refused from the header.
        let streamed = message { _ = try PNG.decode(hugeHeader(), limit: canvasLimit) }
        #expect(streamed == "PNG decode failed: image is 30000x30000 (900000000 pixels); at most 67108864 pixels are decoded, even to be scaled down")
        let s = Scratch()
        let path = s.write("huge.png", hugeHeader(interlaced: true))
        #expect(message { _ = try PNG.read(path: path, limit: canvasLimit) }
                == "\(path): image is 30000x30000 (900000000 pixels); at most 67108864 pixels are decoded, even to be scaled down")
        // 16-bit RGBA costs twice as much a pixel: half as many.
        let deep = PNGForge.file(width: 8192, height: 8192, bitDepth: 16, colorType: 6, idat: PNGForge.zlibStored([0]))
        #expect(message { _ = try PNG.decode(deep, limit: canvasLimit) }
                == "PNG decode failed: image is 8192x8192 (67108864 pixels); at most 33554432 pixels are decoded at 16 bits a sample with 4 channels, even to be scaled down")
        // Over the hard cap: refused whatever the limit.
        let wide = PNGForge.file(width: 70000, height: 70000, bitDepth: 1, colorType: 0, idat: PNGForge.zlibStored([0]))
        #expect(message { _ = try PNG.decode(wide, limit: PNGReadLimit(maxPixels: .max, maxWidth: 100, maxHeight: 100)) }?
            .contains("image is 70000x70000 (4900000000 pixels); at most 65535 pixels on a side") == true)
        #expect(monotonicSeconds() - start < 5)
    }

    /// What follows the last row in the zlib stream is never inflated: a bomb after the pixels
    /// (found by kiosk-hud-fuzz png: a 1 MB file with a 4000x3000 image then ~1 GB of zeros
    /// took 2.3 s; a 64 MiB one would take minutes) is not read, so a file that ends inside it
    /// still gives its complete image — as is, interlaced, and scaled while streaming.
    @Test func dataAfterTheLastRowIsNotInflated() throws {
        for (w, h, interlaced) in [(100, 60, false), (100, 60, true), (4000, 500, false)] {
            let needed = interlaced ? 60 * 101 : h * (1 + w)   // Adam7's rows of a 100x60 image fit in 60 full rows
            var stream = PNGForge.zeroBomb(count: needed + (1 << 28))
            stream.removeSubrange((stream.count / 2)...)   // the file ends inside what follows the image
            let png = PNGForge.file(width: w, height: h, bitDepth: 8, colorType: 0, interlaced: interlaced, idat: stream)
            let image = try PNG.decode(png, limit: canvasLimit)
            #expect(image.width == min(w, 1600) && image.rgba.count == image.width * image.height * 4, "\(w)x\(h) interlaced \(interlaced)")
            #expect(image.rgba[0] == 0 && image.rgba[3] == 255)
        }
    }

    @Test func zeroBombIsScaledWhileStreaming() throws {
        let bomb = zeroBomb()
        #expect(bomb.count < 40_000)
        let image = try PNG.decode(bomb, limit: canvasLimit)
        #expect(image.width == 960 && image.height == 960)
        #expect(image.rgba.count == 960 * 960 * 4)
        var allBlack = true
        for i in stride(from: 0, to: image.rgba.count, by: 4)
        where image.rgba[i] != 0 || image.rgba[i + 1] != 0 || image.rgba[i + 2] != 0 || image.rgba[i + 3] != 255 {
            allBlack = false
            break
        }
        #expect(allBlack)
    }

    // MARK: Scaling

    @Test func largeImageIsBoxFiltered() throws {
        let s = Scratch()
        let path = s.write("large.png", largeImage())
        let image = try PNG.read(path: path, limit: canvasLimit)
        #expect(image.width == 1280 && image.height == 960)
        // The reference, computed another way: the mean of the source pixels whose centres fall
        // in each output pixel's real-valued box.
        let sx = Double(largeWidth) / Double(image.width), sy = Double(largeHeight) / Double(image.height)
        var worst = 0
        for oy in stride(from: 0, to: image.height, by: 37) {
            for ox in stride(from: 0, to: image.width, by: 41) {
                let x0 = Int((Double(ox) * sx - 0.5).rounded(.up)), x1 = Int((Double(ox + 1) * sx - 0.5).rounded(.up))
                let y0 = Int((Double(oy) * sy - 0.5).rounded(.up)), y1 = Int((Double(oy + 1) * sy - 0.5).rounded(.up))
                var sum = (0, 0, 0)
                for y in max(0, y0)..<min(largeHeight, y1) {
                    for x in max(0, x0)..<min(largeWidth, x1) {
                        let p = largePixel(x, y)
                        sum.0 += p.0; sum.1 += p.1; sum.2 += p.2
                    }
                }
                let n = Double((min(largeWidth, x1) - max(0, x0)) * (min(largeHeight, y1) - max(0, y0)))
                let got = image.pixel(x: ox, y: oy)
                #expect(got.a == 255)
                for (g, r) in [(got.r, sum.0), (got.g, sum.1), (got.b, sum.2)] {
                    worst = max(worst, abs(Int(g) - Int((Double(r) / n).rounded())))
                }
            }
        }
        #expect(worst <= 3, "largest difference from the reference: \(worst)")
        // Interlaced, the same image is refused, from its header.
        let interlaced = s.write("interlaced.png", PNGForge.markedInterlaced(Proc.readBytes(path)!))
        #expect(message { _ = try PNG.read(path: interlaced, limit: canvasLimit) }
                == "\(interlaced): image is 4000x3000 (12000000 pixels); at most 1536000 pixels, or a non-interlaced PNG to be scaled down")
    }

    @Test func scalingWeighsColourByAlpha() throws {
        // Opaque red and a transparent green: red at half alpha, no green.
        let png = PNGForge.file(width: 2, height: 1, bitDepth: 8, colorType: 6,
                                idat: PNGForge.zlibStored([0, 255, 0, 0, 255, 0, 255, 0, 0]))
        let one = PNGReadLimit(maxPixels: 1, maxWidth: 1, maxHeight: 1)
        #expect(try PNG.decode(png, limit: one).rgba == [255, 0, 0, 128])
        // 16-bit gray, 2x2, to 1x1: the mean of the high bytes (16 → 8 rounded).
        let gray16 = PNGForge.file(width: 2, height: 2, bitDepth: 16, colorType: 0,
                                   idat: PNGForge.zlibStored([0, 0x10, 0x10, 0x30, 0x30, 0, 0x50, 0x50, 0x70, 0x70]))
        #expect(try PNG.decode(gray16, limit: one).rgba == [0x40, 0x40, 0x40, 255])
        // Palette with tRNS, 4x1 to 2x1.
        let palette = PNGForge.file(width: 4, height: 1, bitDepth: 8, colorType: 3,
                                    idat: PNGForge.zlibStored([0, 0, 1, 2, 2]),
                                    before: [("PLTE", [255, 0, 0, 0, 0, 255, 0, 200, 0]), ("tRNS", [255, 0])])
        #expect(try PNG.decode(palette, limit: PNGReadLimit(maxPixels: 3, maxWidth: 2, maxHeight: 1)).rgba
                == [255, 0, 0, 128, 0, 200, 0, 255])
    }

    @Test func interlacedUnderTheLimitDecodesAsIs() throws {
        let (png, image) = smallRGBA()
        let interlaced = PNGForge.file(width: image.width, height: image.height, bitDepth: 8, colorType: 6, interlaced: true,
                                       idat: PNGForge.zlibStored(PNGForge.adam7(width: image.width, height: image.height,
                                                                                channels: 4, pixels: image.rgba)))
        #expect(try PNG.decode(png) == image)
        #expect(try PNG.decode(interlaced) == image)
        #expect(try PNG.header(interlaced).interlaced)
        // Over a limit, refused rather than decoded.
        let small = PNGReadLimit(maxPixels: 100, maxWidth: 5, maxHeight: 5)
        #expect(message { _ = try PNG.decode(interlaced, limit: small) }
                == "PNG decode failed: image is 13x11 (143 pixels); at most 100 pixels, or a non-interlaced PNG to be scaled down")
        #expect(try PNG.decode(png, limit: small).width == 5)
    }

    // MARK: Damaged files

    @Test func everyTruncationFailsCleanly() throws {
        let (png, image) = smallRGBA()
        let idatEnd = PNGForge.end(of: "IDAT", in: png)
        for n in 0..<png.count {
            let cut = Array(png.prefix(n))
            if n < idatEnd {
                #expect(throws: PNGError.self, "prefix of \(n) bytes") { try PNG.decode(cut) }
            } else {
                #expect(try PNG.decode(cut) == image)  // only IEND is missing: the pixels are all there
            }
        }
        let s = Scratch()
        for n in [0, 7, 8, 20, 33, 40, idatEnd - 30, idatEnd - 1] {
            let path = s.write("cut-\(n).png", Array(png.prefix(n)))
            let m = message { _ = try PNG.read(path: path) }
            #expect(m?.hasPrefix(path + ": ") == true, "\(n): \(m ?? "decoded")")
        }
        #expect(message { _ = try PNG.decode(Array(png.prefix(20))) } == "PNG decode failed: truncated: the file ends in the PNG header")
        #expect(message { _ = try PNG.decode(Array(png.prefix(idatEnd - 30))) }?.contains("cannot decode:") == true)
    }

    @Test func badCRCs() throws {
        let (png, image) = smallRGBA()
        #expect(message { _ = try PNG.decode(PNGForge.withBadCRC(of: "IHDR", in: png)) } == "PNG decode failed: damaged PNG: IHDR CRC error")
        #expect(message { _ = try PNG.decode(PNGForge.withBadCRC(of: "IDAT", in: png)) } == "PNG decode failed: cannot decode: IDAT: CRC error")
        // An ancillary chunk's bad CRC is a warning: the chunk is dropped, the pixels are fine.
        let text = PNGForge.file(width: 13, height: 11, bitDepth: 8, colorType: 6,
                                 idat: Array(png[PNGForge.chunks(png).first { $0.type == "IDAT" }!.offset + 8..<PNGForge.end(of: "IDAT", in: png) - 4]),
                                 before: [("tEXt", Array("Comment\0hello".utf8))])
        #expect(try PNG.decode(text) == image)
        #expect(try PNG.decode(PNGForge.withBadCRC(of: "tEXt", in: text)) == image)
        #expect(message { _ = try PNG.decode(Array("not a png at all, really not".utf8)) } == "PNG decode failed: not a PNG file")
    }

    @Test func badChunkLengths() throws {
        let (png, _) = smallRGBA()
        let text = PNGForge.file(width: 13, height: 11, bitDepth: 8, colorType: 6,
                                 idat: PNGForge.zlibStored([UInt8](repeating: 0, count: 11 * (1 + 13 * 4))),
                                 before: [("tEXt", Array("Comment\0hello".utf8))])
        let start = monotonicSeconds()
        #expect(message { _ = try PNG.decode(PNGForge.withLength(0xFFFF_FFFF, of: "IHDR", in: png)) }
                == "PNG decode failed: damaged PNG: IHDR length is 4294967295, not 13")
        for (type, bytes) in [("IDAT", png), ("tEXt", text)] {
            for length: UInt32 in [0xFFFF_FFFF, 0x8000_0000, 0x7FFF_FFFF, 0x0100_0000] {
                let bad = PNGForge.withLength(length, of: type, in: bytes)
                let m = message { _ = try PNG.decode(bad) }
                #expect(m?.hasPrefix("PNG decode failed: cannot decode: ") == true, "\(type) length \(length): \(m ?? "decoded")")
                let s = Scratch()
                let path = s.write("bad.png", bad)
                #expect(throws: PNGError.self) { try PNG.read(path: path) }
            }
        }
        #expect(monotonicSeconds() - start < 5)
    }

    // MARK: Paths

    @Test func fifoDirectoryAndEmptyPathsAreRefused() throws {
        let s = Scratch()
        let fifo = s.fifo("pipe.png")
        let start = monotonicSeconds()
        #expect(message { _ = try PNG.read(path: fifo) } == "\(fifo): not a regular file (a FIFO)")
        #expect(message { _ = try PNG.header(path: fifo) } == "\(fifo): not a regular file (a FIFO)")
        #expect(message { try PNG.write(smallRGBA().image, path: fifo) } == "\(fifo): not a regular file (a FIFO)")
        #expect(try fileStatus(fifo).kind == .fifo)
        #expect(message { _ = try PNG.read(path: s.dir) } == "\(s.dir): not a regular file (a directory)")
        #expect(message { try PNG.write(smallRGBA().image, path: s.dir) } == "\(s.dir): not a regular file (a directory)")
        #expect(message { _ = try PNG.read(path: "/dev/null") } == "/dev/null: not a regular file (a character device)")
        #expect(message { _ = try PNG.read(path: "") } == "PNG read failed: empty path")
        #expect(message { try PNG.write(smallRGBA().image, path: "") } == "PNG write failed: empty path")
        #expect(message { _ = try PNG.read(path: s.path("missing.png")) } == "\(s.path("missing.png")): cannot open: No such file or directory")
        #expect(monotonicSeconds() - start < 2)
    }

    @Test func oversizedFileIsRefused() throws {
        let s = Scratch()
        let path = s.write("big.png", smallRGBA().png)
        let size = smallRGBA().png.count
        let limit = PNGReadLimit(maxPixels: 1000, maxWidth: 100, maxHeight: 100, maxFileBytes: 100)
        #expect(message { _ = try PNG.read(path: path, limit: limit) } == "\(path): file is \(size) bytes; at most 100")
    }

    @Test func writeReplacesWholeFilesOnly() throws {
        let s = Scratch()
        let path = s.path("out.png")
        let (_, image) = smallRGBA()
        try PNG.write(image, path: path)
        #expect(try PNG.read(path: path) == image)
        let before = Proc.readBytes(path)
        // A failed write (an invalid image) leaves the old file as it was, and no temporary file.
        #expect(throws: PNGError.self) { try PNG.write(PNGImage(width: 2, height: 2, rgba: [1]), path: path) }
        #expect(Proc.readBytes(path) == before)
        #expect(listDirectory(s.dir) == ["out.png"])
        let other = PNGImage(width: 3, height: 2, fill: (1, 2, 3, 255))
        try PNG.write(other, path: path)
        #expect(try PNG.read(path: path) == other)
        #expect(listDirectory(s.dir) == ["out.png"])
        let m = message { try PNG.write(image, path: s.path("no/such/dir.png")) }
        #expect(m?.hasPrefix("\(s.path("no/such/dir.png")): cannot write: open ") == true)
        #expect(m?.hasSuffix(": No such file or directory") == true)
    }
}

// MARK: - kiosk-hud render, as fuzzed: messages, no blocking, peak memory

extension Proc {
    /// Runs `args` under python3, which forks (a real fork of a small process, so the child's
    /// peak RSS is its own: a child spawned from this test process, with vfork, would inherit
    /// the test's peak as its ru_maxrss) and reports the child's ru_maxrss. SIGALRM ends the
    /// child after `timeout` seconds. Its status (128 + signal if killed), stderr, peak RSS in
    /// kB and the seconds it took.
    static func runMeasured(_ args: [String], timeout: Int = 60) -> (status: Int32, err: String, maxRSSKB: Int, seconds: Double) {
        let script = """
            import os, resource, signal, sys
            pid = os.fork()
            if pid == 0:
                signal.alarm(int(sys.argv[1]))
                os.execv(sys.argv[2], sys.argv[2:])
            _, status = os.waitpid(pid, 0)
            print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, flush=True)
            sys.exit(128 + os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status))
            """
        let tag = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let o = "/tmp/kiosk-png-test-\(tag).out", e = "/tmp/kiosk-png-test-\(tag).err"
        defer { unlink(o); unlink(e) }
        let start = monotonicSeconds()
        guard let pid = spawn(["python3", "-c", script, String(timeout)] + args, stdout: o, stderr: e) else {
            return (127, "cannot spawn python3", 0, 0)
        }
        let status = wait(pid)
        let rss = Int((readFile(o) ?? "").split(separator: "\n").last ?? "") ?? 0
        return (status, readFile(e) ?? "", rss, monotonicSeconds() - start)
    }
}

@Suite(.serialized) struct KioskHUDPictureTests {
    private var binary: String { Proc.kioskHUD }

    private func render(_ args: [String], out: String) -> (status: Int32, err: String, maxRSSKB: Int, seconds: Double) {
        Proc.runMeasured([binary, "render", "--size", "800x480", "--out", out] + args, timeout: 60)
    }

    /// The first line of kiosk-hud's stderr.
    private func firstLine(_ text: String) -> String { String(text.split(separator: "\n").first ?? "") }

    @Test func refusalsAreOneLineAndNeverBlock() throws {
        try #require(Proc.exists(binary), "kiosk-hud is built by swift test: \(binary)")
        try #require(Proc.executable("python3"), "python3 runs kiosk-hud with a time limit")
        let s = Scratch()
        let fifo = s.fifo("pipe.png")
        let out = s.path("out.png")
        let notPNG = s.write("text.png", Array("hello".utf8))
        let cases: [([String], String, String)] = [
            (["--mode", "text"], "", "Error: --out: empty value; expected a path"),
            (["--mode", "text"], fifo, "Error: --out \(fifo): not a regular file (a FIFO)"),
            (["--mode", "text"], s.dir, "Error: --out \(s.dir): not a regular file (a directory)"),
            (["--mode", "custom", "--image", fifo], out, "Error: --image \(fifo): not a regular file (a FIFO)"),
            (["--mode", "text", "--underlay", fifo], out, "Error: --underlay \(fifo): not a regular file (a FIFO)"),
            (["--mode", "custom", "--image", s.dir], out, "Error: --image \(s.dir): not a regular file (a directory)"),
            (["--mode", "custom", "--image", ""], out, "Error: --image: empty value; expected a path"),
            (["--mode", "custom", "--image", notPNG], out, "Error: --image \(notPNG): not a PNG file"),
        ]
        for (args, output, expected) in cases {
            let r = render(args, out: output)
            #expect(r.status != 0 && r.status < 128, "\(args) \(output): status \(r.status)")
            #expect(firstLine(r.err) == expected)
            #expect(!r.err.contains("()"))
            #expect(r.seconds < 20)
        }
        #expect(try fileStatus(fifo).kind == .fifo)
        #expect(!Proc.exists(out))
    }

    @Test func peakMemoryStaysSmall() throws {
        try #require(Proc.exists(binary), "kiosk-hud is built by swift test: \(binary)")
        try #require(Proc.executable("python3"), "python3 measures the peak RSS")
        let s = Scratch()
        let out = s.path("out.png")
        let small = s.write("small.png", smallRGBA().png)
        let bomb = s.write("bomb.png", zeroBomb())
        let huge = s.write("huge.png", hugeHeader())
        let hugeInterlaced = s.write("huge-interlaced.png", hugeHeader(interlaced: true))
        let large = s.write("large.png", largeImage())

        let baseline = render(["--mode", "custom", "--image", small], out: out)
        #expect(baseline.status == 0, "\(baseline.err)")
        var report = ["baseline (13x11 --image) \(baseline.maxRSSKB) kB"]
        let runs: [(String, [String], Bool)] = [
            ("bomb --image", ["--mode", "custom", "--image", bomb], true),
            ("bomb --underlay", ["--mode", "text", "--underlay", bomb], true),
            ("30000x30000 --image", ["--mode", "custom", "--image", huge], false),
            ("30000x30000 interlaced --underlay", ["--mode", "text", "--underlay", hugeInterlaced], false),
            ("4000x3000 --underlay", ["--mode", "text", "--underlay", large], true),
        ]
        for (name, args, succeeds) in runs {
            let r = render(args, out: out)
            report.append("\(name): \(r.maxRSSKB) kB, \(Int(r.seconds * 1000)) ms, status \(r.status) \(firstLine(r.err))")
            #expect((r.status == 0) == succeeds, "\(name): \(r.err)")
            if !succeeds { #expect(r.status == 1 && firstLine(r.err).hasPrefix("Error: --")) }
            #expect(r.maxRSSKB < 64 * 1024, "\(name): peak RSS \(r.maxRSSKB) kB")
            // Beyond the baseline: the scaled picture (at most 1600x960 RGBA, twice) and a few rows.
            #expect(r.maxRSSKB - baseline.maxRSSKB < 24 * 1024, "\(name): \(r.maxRSSKB - baseline.maxRSSKB) kB over the baseline")
        }
        print("kiosk-hud render peak RSS:\n  " + report.joined(separator: "\n  "))
    }

    /// A large frame costs the frame and little more: render keeps no backdrop beside it and
    /// writes the PNG row by row (found by kiosk-hud-fuzz cli: 8192x8192 took 950 MB, the frame
    /// 256 MB; now 270 MB). At 2048x2048 the frame is 16 MB; at most 8 MB more than 800x480 (it
    /// was 37 MB more: the backdrop, an RGBA copy and the encoded file).
    @Test func largeFrameCostsTheFrame() throws {
        try #require(Proc.exists(binary), "kiosk-hud is built by swift test: \(binary)")
        try #require(Proc.executable("python3"), "python3 measures the peak RSS")
        let s = Scratch()
        let out = s.path("out.png")
        let small = Proc.runMeasured([binary, "render", "--size", "800x480", "--out", out], timeout: 60)
        #expect(small.status == 0, "\(small.err)")
        for extra in [["--background", "gradient"], ["--bezel", "blur", "--blur-radius", "51", "--underlay-color", "#336699"]] {
            let big = Proc.runMeasured([binary, "render", "--size", "2048x2048", "--out", out] + extra, timeout: 120)
            #expect(big.status == 0, "\(big.err)")
            let over = big.maxRSSKB - small.maxRSSKB - 2048 * 2048 * 4 / 1024
            #expect(over < 8 * 1024, "render --size 2048x2048 \(extra): \(big.maxRSSKB) kB, \(over) kB over 800x480 and the frame")
            #expect(try PNG.header(path: out) == PNGHeader(width: 2048, height: 2048, bitDepth: 8, colorType: 2, interlaced: false))
        }
    }
}
