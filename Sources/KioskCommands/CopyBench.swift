import KioskSeams
import KioskDRM
import KioskRaster
import KioskSys

extension ShowCommand {
    /// Times the copy of a full 800x480 frame into a scanout-like buffer for each rotation.
    func runCopyBench() throws {
        for (sf, df) in [(PixelFormat.xrgb8888, PixelFormat.xrgb8888), (.rgb565, .rgb565), (.xrgb8888, .rgb565)] {
            let src = try Bitmap(width: 800, height: 480, format: sf)
            for r in Rotation.allCases {
                let swapped = r == .quarter || r == .threeQuarters
                let dst = try Bitmap(width: swapped ? 480 : 800, height: swapped ? 800 : 480, format: df, stride: (swapped ? 480 : 800) * df.bytesPerPixel + 256)
                var times: [Double] = []
                for _ in 0..<60 {
                    let t0 = monotonicNanoseconds()
                    ScanoutCopy.copy(src.surface, rect: src.surface.bounds, to: dst.surface, rotation: r)
                    times.append(Double(monotonicNanoseconds() - t0) / 1e6)
                }
                times.sort()
                print("copy 800x480 \(sf)->\(df) rotate \(r.rawValue): median \(fmt(times[times.count / 2])) ms, min \(fmt(times[0])) ms")
            }
        }
    }
}
