// CalibrationMatrix: libinput's documented presets and the `--touch-matrix` parser.
import KioskSeams
import KioskInput
import Testing

@Suite struct CalibrationMatrixTests {
    @Test func presetsAreLibinputsDocumentedMatrices() {
        // libinput.h, libinput_device_config_calibration_set_matrix: "The rotation matrixes for
        // 90, 180 and 270 degrees clockwise".
        #expect(CalibrationMatrix.rotation(.none).values == [1, 0, 0, 0, 1, 0])
        #expect(CalibrationMatrix.rotation(.quarter).values == [0, -1, 1, 1, 0, 0])
        #expect(CalibrationMatrix.rotation(.half).values == [-1, 0, 1, 0, -1, 1])
        #expect(CalibrationMatrix.rotation(.threeQuarters).values == [0, 1, 0, -1, 0, 1])
        #expect(CalibrationMatrix.rotation(.none).isIdentity)
        #expect(!CalibrationMatrix.rotation(.half).isIdentity)
    }

    @Test func presetsTurnTheSensorClockwise() {
        // Corners of the unit square: top-left, top-right, bottom-right, bottom-left.
        let corners: [(Double, Double)] = [(0, 0), (1, 0), (1, 1), (0, 1)]
        for (steps, r) in [(1, Rotation.quarter), (2, .half), (3, .threeQuarters)] {
            let m = CalibrationMatrix.rotation(r)
            for (i, c) in corners.enumerated() {
                let p = m.apply(x: c.0, y: c.1)
                let want = corners[(i + steps) % 4]
                #expect(p.x == want.0 && p.y == want.1, "\(r): \(c) → \(p), want \(want)")
            }
        }
        // 90° then 270° is the identity (on interior points too).
        let p = CalibrationMatrix.rotation(.quarter).apply(x: 0.2, y: 0.7)
        let q = CalibrationMatrix.rotation(.threeQuarters).apply(x: p.x, y: p.y)
        #expect(abs(q.x - 0.2) < 1e-12 && abs(q.y - 0.7) < 1e-12)
    }

    @Test func parsesCommasSpacesAndPresetNames() throws {
        #expect(try CalibrationMatrix(parsing: "1,0,0,0,1,0") == .identity)
        #expect(try CalibrationMatrix(parsing: " 0.5, 0, 0.25, 0, 0.5, 0.25 ").values == [0.5, 0, 0.25, 0, 0.5, 0.25])
        #expect(try CalibrationMatrix(parsing: "-1 0 1 0 -1 1") == .rotation(.half))  // udev's spelling
        #expect(try CalibrationMatrix(parsing: "1.05e0,0,-0.02,0,0.98,0.01").values[0] == 1.05)
        #expect(try CalibrationMatrix(parsing: "rotate-90") == .rotation(.quarter))
        #expect(try CalibrationMatrix(parsing: "ROTATE-270") == .rotation(.threeQuarters))
        #expect(try CalibrationMatrix(parsing: "identity") == .identity)
        #expect(CalibrationMatrix.rotation(.quarter).description == "0.0,-1.0,1.0,1.0,0.0,0.0")
        #expect(try CalibrationMatrix(parsing: CalibrationMatrix([0.1, 0.2, 0.3, 0.4, 0.5, 0.6]).description).values == [0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
    }

    @Test(arguments: [
        ("a,b,c,d,e,f", "value 1 \"a\" is not a number"),
        ("1,2,3", "3 values, not 6"),
        ("1,0,0,0,1", "5 values, not 6"),
        ("1,0,0,0,1,0,0", "7 values, not 6"),
        ("1,,0,0,1,0", "value 2 is empty"),
        ("1,0,0,0,1,", "value 6 is empty"),
        ("", "empty"),
        ("   ", "empty"),
        ("1,0,0,0,1,x", "value 6 \"x\" is not a number"),
        ("1;0;0;0;1;0", "1 value, not 6"),
        ("inf,0,0,0,1,0", "value 1 \"inf\" is not finite"),
        ("nan,0,0,0,1,0", "value 1 \"nan\" is not finite"),
        ("1,0,0,0,1,99999999999999999999x", "value 6 \"9999999999999999…\" is not a number"),
        ("1,1,0,1,1,0", "degenerate"),
        ("0,0,0.5,0,0,0.5", "degenerate"),
    ])
    func refusesMalformedText(text: String, reason: String) {
        do {
            let m = try CalibrationMatrix(parsing: text)
            Issue.record("\"\(text)\" parsed as \(m)")
        } catch {
            #expect(error.reason.hasPrefix(reason), "\"\(text)\": \(error.reason)")
            #expect(error.description.contains("\"\(text)\""))
            #expect(error.description.contains("expected six numbers a,b,c,d,e,f"))
        }
    }
}
