// Mount matrix: strict parsing, the multiplication convention, and every source in order.
import KioskPresentation
import KioskSeams
import KioskTestDoubles
import KioskIIO
import KioskSession
import Testing

@Suite struct MountMatrixTests {
    // MARK: Parsing

    @Test(arguments: [
        ("1, 0, 0; 0, 1, 0; 0, 0, 1\n", [1.0, 0, 0, 0, 1, 0, 0, 0, 1]),       // as the kernel prints it
        ("0,1,0;1,0,0;0,0,-1", [0, 1, 0, 1, 0, 0, 0, 0, -1]),                  // hwdb style, no blanks
        ("0.7071, -0.7071, 0; 0.7071, 0.7071, 0; 0, 0, 1", [0.7071, -0.7071, 0, 0.7071, 0.7071, 0, 0, 0, 1]),
        ("\t-1 ,0, 0 ;  0, -1.0 ,0;0,0,+1 ", [-1, 0, 0, 0, -1, 0, 0, 0, 1]),
        ("1e0, 0, 0; 0, 10E-1, 0; 0, 0, .5", [1, 0, 0, 0, 1, 0, 0, 0, 0.5]),
    ])
    func parsesWhatKernelAndHwdbWrite(text: String, entries: [Double]) throws {
        #expect(try MountMatrix.parse(text).m == entries)
    }

    @Test(arguments: [
        ("", "it is empty"),
        ("   \n", "it is empty"),
        ("1, 0, 0; 0, 1, 0", "2 rows, not 3"),
        ("1, 0, 0; 0, 1, 0; 0, 0, 1; 0, 0, 0", "4 rows, not 3"),
        ("1, 0, 0; 0, 1, 0; 0, 0, 1;", "4 rows, not 3"),
        ("1, 0; 0, 1, 0; 0, 0, 1", "row 1 has 2 values, not 3"),
        ("1, 0, 0; 0, 1, 0, 0; 0, 0, 1", "row 2 has 4 values, not 3"),
        ("1 0 0; 0 1 0; 0 0 1", "row 1 has 1 value, not 3"),
        ("a, 0, 0; 0, 1, 0; 0, 0, 1", "\"a\" in row 1 is not a decimal number"),
        ("nan, 0, 0; 0, 1, 0; 0, 0, 1", "\"nan\" in row 1"),
        ("1, 0, 0; 0, inf, 0; 0, 0, 1", "\"inf\" in row 2"),
        ("0x1, 0, 0; 0, 1, 0; 0, 0, 1", "\"0x1\" in row 1"),
        ("1,, 0; 0, 1, 0; 0, 0, 1", "\"\" in row 1"),
        ("1, 0, 0; 0, 1, 0; 0, 0, 1x", "\"1x\" in row 3"),
        ("1, 0, 0; 0, 1, 0; 0, 0, 1e999", "\"1e999\" in row 3"),
        ("1.2.3, 0, 0; 0, 1, 0; 0, 0, 1", "\"1.2.3\" in row 1"),
        ("+, 0, 0; 0, 1, 0; 0, 0, 1", "\"+\" in row 1"),
        ("1, 0, 0; 0, 1, 0; 0, 0, 1\n\n", "\"1\n\" in row 3"),
        ("0, 0, 0; 0, 1, 0; 0, 0, 1", "singular"),
        ("1, 0, 0; 1, 0, 0; 0, 0, 1", "singular"),
    ])
    func refusesAnythingElse(text: String, reason: String) {
        #expect {
            _ = try MountMatrix.parse(text)
        } throws: { e in
            guard let e = e as? MountMatrix.ParseError else { return false }
            return e.text == text && e.reason.contains(reason) && e.description.contains("x1, y1, z1; x2, y2, z2; x3, y3, z3")
        }
    }

    @Test func descriptionRoundTrips() throws {
        let m = try MountMatrix.parse("0, -1, 0; 1, 0, 0; 0, 0, 0.5")
        #expect(m.description == "0, -1, 0; 1, 0, 0; 0, 0, 0.5")
        #expect(try MountMatrix.parse(m.description) == m)
        #expect(MountMatrix.identity.description == "1, 0, 0; 0, 1, 0; 0, 0, 1")
        #expect(MountMatrix(rowMajor: [1, 0, 0]) == nil && MountMatrix(rowMajor: [.nan, 0, 0, 0, 1, 0, 0, 0, 1]) == nil)
    }

    // MARK: Convention: rows, panel = M · chip

    @Test func multiplicationConvention() throws {
        // The ;-separated groups are rows and a reading is a column vector: panel = M · chip, as
        // iio-sensor-proxy's apply_mount_matrix.
        let m = try MountMatrix.parse("0, 1, 0; -1, 0, 0; 0, 0, 1")
        let p = m.apply(x: 1, y: 2, z: 3)
        #expect(p.x == 2 && p.y == -1 && p.z == 3)
        // Not the transpose: that would give (-2, 1, 3).
        let t = try MountMatrix.parse("0, -1, 0; 1, 0, 0; 0, 0, 1").apply(x: 1, y: 2, z: 3)
        #expect(t.x == -2 && t.y == 1)
        // Every entry lands where the formula says.
        let e = try MountMatrix.parse("1, 2, 3; 4, 5, 6; 7, 8, 10").apply(x: 1, y: 10, z: 100)
        #expect(e.x == 321 && e.y == 654 && e.z == 1087)
    }

    @Test func theMatrixTurnsTheChipIntoThePanelEndToEnd() throws {
        // A chip mounted a quarter turn: its +y points to the panel's right edge, so the panel's
        // x is the chip's y: row 1 = (0, 1, 0). Its x points to the panel's bottom: panel y = −chip x.
        let fs = FakeSysfs()
        let chip = rawCounts(right: 45)                      // what the panel feels, in panel axes…
        fs.addAccelerometer(0, raw: (-chip.1, chip.0, chip.2), extra: ["mount_matrix": "0, 1, 0; -1, 0, 0; 0, 0, 1\n"])
        let source = IIOMotionSource()
        let sampler = IIOSampler(settings: .init(root: fs.root), log: { _ in })
        source.pump(sampler, at: 0)
        let s = try #require(source.samples(until: 1).first)
        #expect(approx(s.x, Double(chip.0) * 0.009582) && approx(s.y, Double(chip.1) * 0.009582))
        let tracker = TiltTracker(source: ScriptedMotion([s]), config: .init(timeConstant: 0))
        #expect(tracker.update(at: 0) == (1, 0))              // …so the bezel goes right
    }

    // MARK: Sources and their order

    static let matrices = [
        "configured": "-1, 0, 0; 0, -1, 0; 0, 0, 1",
        "udev": "0, 1, 0; 1, 0, 0; 0, 0, -1",
        "mount_matrix": "0, -1, 0; 1, 0, 0; 0, 0, 1",
        "in_accel_mount_matrix": "1, 0, 0; 0, -1, 0; 0, 0, -1",
        "in_mount_matrix": "-1, 0, 0; 0, 1, 0; 0, 0, -1",
    ]

    @Test func precedenceConfiguredUdevSysfsThenIdentity() throws {
        let fs = FakeSysfs()
        fs.addAccelerometer(0, extra: ["dev": "250:0\n",
                                       "mount_matrix": Self.matrices["mount_matrix"]! + "\n",
                                       "in_accel_mount_matrix": Self.matrices["in_accel_mount_matrix"]! + "\n",
                                       "in_mount_matrix": Self.matrices["in_mount_matrix"]! + "\n"])
        fs.setUdev(file: "c250:0", ["ACCEL_MOUNT_MATRIX": Self.matrices["udev"]!, "ID_PATH": "x"])
        func resolve(_ configured: MountMatrix? = nil) -> ResolvedMountMatrix {
            ResolvedMountMatrix.resolve(for: IIODiscovery.accelerometers(root: fs.root)[0], configured: configured)
        }
        func m(_ key: String) throws -> MountMatrix { try MountMatrix.parse(Self.matrices[key]!) }

        let configured = try m("configured"), udev = try m("udev"), mountMatrix = try m("mount_matrix")
        let inAccel = try m("in_accel_mount_matrix"), inMount = try m("in_mount_matrix")
        #expect(resolve(configured) == ResolvedMountMatrix(matrix: configured, origin: .configured))
        #expect(resolve() == ResolvedMountMatrix(matrix: udev, origin: .udev))
        fs.setUdev(file: "c250:0", ["ID_PATH": "x"])                   // udev knows the device, no matrix
        #expect(resolve() == ResolvedMountMatrix(matrix: mountMatrix, origin: .sysfs("mount_matrix")))
        fs.removeAttribute(0, "mount_matrix")
        #expect(resolve() == ResolvedMountMatrix(matrix: inAccel, origin: .sysfs("in_accel_mount_matrix")))
        fs.removeAttribute(0, "in_accel_mount_matrix")
        #expect(resolve() == ResolvedMountMatrix(matrix: inMount, origin: .sysfs("in_mount_matrix")))
        fs.removeAttribute(0, "in_mount_matrix")
        #expect(resolve() == ResolvedMountMatrix(matrix: .identity, origin: .identity))
    }

    @Test func udevDatabaseWithoutDeviceNode() throws {
        // Devices without a /dev node are filed by udev as +iio:<sysname>.
        let fs = FakeSysfs()
        fs.addAccelerometer(3)
        fs.setUdev(file: "+iio:iio:device3", ["ACCEL_MOUNT_MATRIX": "0, 1, 0; 1, 0, 0; 0, 0, -1"])
        let d = IIODiscovery.accelerometers(root: fs.root)[0]
        #expect(ResolvedMountMatrix.resolve(for: d, configured: nil).origin == .udev)
    }

    @Test(arguments: ["udev", "mount_matrix", "in_accel_mount_matrix", "in_mount_matrix"])
    func malformedFirstSourceMeansIdentityWithAWarning(source: String) throws {
        let fs = FakeSysfs()
        var extra: [String: String] = ["dev": "250:0\n"]
        let all = ["udev", "mount_matrix", "in_accel_mount_matrix", "in_mount_matrix"]
        // Sources before `source` are absent, `source` is malformed, those after are valid.
        for s in all.suffix(from: all.firstIndex(of: source)! + 1) where s != "udev" { extra[s] = Self.matrices[s]! + "\n" }
        if source != "udev" { extra[source] = "1, 0, 0; 0, 1, 0\n" }
        fs.addAccelerometer(0, extra: extra)
        if source == "udev" { fs.setUdev(file: "c250:0", ["ACCEL_MOUNT_MATRIX": "1, 0, 0; 0, 1, 0"]) }
        let r = ResolvedMountMatrix.resolve(for: IIODiscovery.accelerometers(root: fs.root)[0], configured: nil)
        #expect(r.matrix == .identity)
        #expect(r.origin == (source == "udev" ? .udev : .sysfs(source)))
        #expect(r.warning?.contains("iio:device0") == true && r.warning?.contains("2 rows, not 3") == true)
        #expect(r.warning?.hasSuffix("; using the identity") == true)
        // The sampler logs the warning once, at attach, and runs with the identity.
        let log = LogLines()
        let sampler = IIOSampler(settings: .init(root: fs.root), log: log.sink)
        for t in 0..<10 { _ = sampler.step(at: Double(t) / 30) }
        #expect(log.count(containing: "warning: iio:device0") == 1)
        #expect(log.count(containing: "mount matrix 1, 0, 0; 0, 1, 0; 0, 0, 1") == 1)
    }
}
