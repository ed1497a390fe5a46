import Glibc
import KioskPNG
import KioskRaster
import Testing

/// Golden images: references are PNGs in Tests/KioskHUDTests/Goldens. Set KIOSK_RECORD_GOLDENS=1
/// to (re)write them — the run then fails on purpose, so a recording never passes as a test.
/// On a mismatch the actual image and a diff (changed pixels red over a faded copy) are written
/// to Tests/KioskHUDTests/__failures__/.
enum Golden {
    static let testsDir: String = {
        let file = #filePath
        return String(file[..<file.lastIndex(of: "/")!])
    }()
    static var goldensDir: String { testsDir + "/Goldens" }
    static var failuresDir: String { testsDir + "/__failures__" }
    static var fixturesDir: String { testsDir + "/Fixtures" }
    static var recording: Bool { getenv("KIOSK_RECORD_GOLDENS").map { String(cString: $0) == "1" } ?? false }

    /// Compares `bitmap` with Goldens/`name`.png; channels may differ by `tolerance`.
    static func check(_ bitmap: Bitmap, _ name: String, tolerance: Int = 0,
                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        let actual = PNGImage(width: bitmap.width, height: bitmap.height, rgba: bitmap.rgbaBytes())
        let path = "\(goldensDir)/\(name).png"
        if recording {
            mkdir(goldensDir, 0o755)
            try PNG.write(actual, path: path)
            Issue.record("recorded golden \(name).png; unset KIOSK_RECORD_GOLDENS to test", sourceLocation: sourceLocation)
            return
        }
        guard access(path, F_OK) == 0 else {
            writeFailure(actual, nil, name)
            Issue.record("no golden \(path); run with KIOSK_RECORD_GOLDENS=1 to record it", sourceLocation: sourceLocation)
            return
        }
        let expected = try PNG.read(path: path)
        guard expected.width == actual.width, expected.height == actual.height else {
            writeFailure(actual, nil, name)
            Issue.record("\(name): size \(actual.width)x\(actual.height), golden \(expected.width)x\(expected.height)",
                         sourceLocation: sourceLocation)
            return
        }
        let (count, maxDiff) = difference(actual, expected, tolerance: tolerance)
        if count > 0 {
            writeFailure(actual, expected, name, tolerance: tolerance)
            let message = "\(name): \(count) pixels differ (max channel difference \(maxDiff), tolerance \(tolerance)); see \(failuresDir)/\(name).diff.png"
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        }
    }

    /// Pixels whose channels differ by more than `tolerance`, and the largest difference.
    static func difference(_ a: PNGImage, _ b: PNGImage, tolerance: Int = 0) -> (count: Int, max: Int) {
        var count = 0, maxDiff = 0
        for i in 0..<(a.width * a.height) {
            var d = 0
            for k in 0..<4 { d = max(d, abs(Int(a.rgba[i * 4 + k]) - Int(b.rgba[i * 4 + k]))) }
            maxDiff = max(maxDiff, d)
            if d > tolerance { count += 1 }
        }
        return (count, maxDiff)
    }

    static func writeFailure(_ actual: PNGImage, _ expected: PNGImage?, _ name: String, tolerance: Int = 0) {
        mkdir(failuresDir, 0o755)
        try? PNG.write(actual, path: "\(failuresDir)/\(name).actual.png")
        guard let expected else { return }
        var diff = PNGImage(width: actual.width, height: actual.height, rgba: [UInt8](repeating: 255, count: actual.rgba.count))
        for i in 0..<(actual.width * actual.height) {
            var d = 0
            for k in 0..<4 { d = max(d, abs(Int(actual.rgba[i * 4 + k]) - Int(expected.rgba[i * 4 + k]))) }
            if d > tolerance {
                diff.rgba[i * 4] = 255; diff.rgba[i * 4 + 1] = 0; diff.rgba[i * 4 + 2] = 0
            } else {
                let g = UInt8(191 + Int(expected.rgba[i * 4 + 1]) / 4)
                diff.rgba[i * 4] = g; diff.rgba[i * 4 + 1] = g; diff.rgba[i * 4 + 2] = g
            }
        }
        try? PNG.write(diff, path: "\(failuresDir)/\(name).diff.png")
    }
}
