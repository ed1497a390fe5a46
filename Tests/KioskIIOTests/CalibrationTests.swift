// Reading: (raw + offset) × scale with per-axis and shared attributes, strict parsing, failures.
import Glibc
import KioskIIO
import KioskSys
import Testing

@Suite struct CalibrationTests {
    func attach(_ fs: FakeSysfs, _ n: Int = 0) throws -> IIOAccelerometer {
        try IIOAccelerometer(device: IIODiscovery.accelerometers(root: fs.root).first { $0.number == n }!)
    }

    @Test func sharedScaleAndOffset() throws {
        let fs = FakeSysfs()
        fs.addAccelerometer(0, raw: (10, -4, 0), scale: "0.5", extra: ["in_accel_offset": "2\n"])
        let acc = try attach(fs)
        #expect(acc.calibration == Array(repeating: AxisCalibration(scale: 0.5, offset: 2), count: 3))
        let r = try acc.read()
        #expect(r.raw == [10, -4, 0])
        #expect(r.chip == IIOVector(x: 6, y: -1, z: 1))
        #expect(r.panel == r.chip)             // identity mount matrix
    }

    @Test func perAxisAttributesOverrideShared() throws {
        let fs = FakeSysfs()
        fs.addAccelerometer(0, raw: (100, 100, 100), scale: "0.5",
                            extra: ["in_accel_offset": "2\n", "in_accel_x_scale": "0.25\n", "in_accel_y_offset": "-1\n",
                                    "in_accel_z_scale": "1e-1\n", "in_accel_z_offset": "+0.5\n"])
        let acc = try attach(fs)
        #expect(acc.calibration == [AxisCalibration(scale: 0.25, offset: 2), AxisCalibration(scale: 0.5, offset: -1),
                                    AxisCalibration(scale: 0.1, offset: 0.5)])
        let r = try acc.read()
        #expect(r.chip.x == 25.5 && r.chip.y == 49.5 && approx(r.chip.z, 10.05))
    }

    @Test func noScaleMeansOneNoOffsetMeansZero() throws {
        let fs = FakeSysfs()
        fs.addAccelerometer(0, raw: (1, -2, 9), scale: nil)
        let acc = try attach(fs)
        #expect(acc.calibration == Array(repeating: AxisCalibration(), count: 3))
        #expect(try acc.read().chip == IIOVector(x: 1, y: -2, z: 9))
    }

    @Test func valuesFollowTheFileBetweenReads() throws {
        let fs = FakeSysfs()
        fs.addAccelerometer(0, raw: (1024, 0, 0))
        let acc = try attach(fs)
        #expect(approx(try acc.read().chip.x, 9.811968))
        fs.setRaw(0, (-5, 7, 1))                  // shorter text over longer: truncated in place
        #expect(try acc.read().raw == [-5, 7, 1])
        fs.setAttribute(0, "in_accel_x_raw", "  12 \n")
        #expect(try acc.read().raw[0] == 12)
    }

    @Test(arguments: ["abc", "nan", "inf", "0x10", "", "1.2.3", "1e", "- 1", "1,5"])
    func malformedScaleRefusesTheDevice(text: String) throws {
        let fs = FakeSysfs()
        fs.addAccelerometer(0, scale: text)
        #expect(throws: IIOError.self) { _ = try attach(fs) }
        // The sampler says so once, keeps the effect off, and retries quietly.
        let log = LogLines()
        let s = IIOSampler(settings: .init(root: fs.root), log: log.sink)
        for t in 0..<5 { #expect(s.step(at: Double(t) * 1.5) == nil) }
        #expect(log.count(containing: "cannot use iio:device0") == 1)
        #expect(log.all.first?.contains("in_accel_scale holds \"\(text)\", expected a decimal number") == true)
        if case .failed = s.status {} else { Issue.record("status \(s.status)") }
        // Fixed: it attaches at the next retry.
        fs.setAttribute(0, "in_accel_scale", "0.009582\n")
        #expect(s.step(at: 10) != nil)
        #expect(s.status.isRunning)
    }

    @Test(arguments: ["12abc", "", "1.5", "99999999999999999999", "0x10", "--3", "3 4", "\u{1}"])
    func malformedRawIsGarbage(text: String) throws {
        let fs = FakeSysfs()
        fs.addAccelerometer(0)
        let acc = try attach(fs)
        _ = try acc.read()
        fs.setAttribute(0, "in_accel_y_raw", text)
        do {
            _ = try acc.read()
            Issue.record("read \"\(text)\" as a number")
        } catch let e {
            guard case let .garbage(path, got, _) = e else { Issue.record("\(e)"); return }
            #expect(path.hasSuffix("/in_accel_y_raw") && got == text)
        }
    }

    @Test func absurdValuesAreGarbage() throws {
        let fs = FakeSysfs()
        fs.addAccelerometer(0, raw: (20_000, 0, 0))          // 191.6 m/s²: 19.5 g, still believable
        let acc = try attach(fs)
        _ = try acc.read()
        fs.setRaw(0, (0, 0, 21_000))                          // 201 m/s²: beyond 20 g
        #expect(throws: IIOError.absurd(axis: "z", value: 21_000 * 0.009582)) { _ = try acc.read() }
        fs.setRaw(0, (0, -40_000, 0))
        #expect(throws: IIOError.absurd(axis: "y", value: -40_000 * 0.009582)) { _ = try acc.read() }
    }

    @Test func anAttributeThatIsNotARegularFileIsRefused() throws {
        // A directory (or a FIFO, a device) where the attribute should be is refused when the
        // device is attached, without opening it for a read that could block or fail later.
        let fs = FakeSysfs()
        fs.addAccelerometer(0)
        fs.removeAttribute(0, "in_accel_x_raw")
        mkdirs(fs.devicePath(0) + "/in_accel_x_raw")
        do {
            _ = try attach(fs)
            Issue.record("attached")
        } catch {
            #expect("\(error)".contains("in_accel_x_raw: not a regular file (a directory)"), "\(error)")
        }
    }

    @Test func goneDeviceIsAnError() throws {
        let fs = FakeSysfs()
        fs.addAccelerometer(0)
        let acc = try attach(fs)
        fs.removeDevice(0)
        #expect(throws: IIOError.gone(path: fs.devicePath(0))) { _ = try acc.read() }
        acc.close()
        #expect(throws: IIOError.self) { _ = try acc.read() }
    }

    @Test func samplingFrequencyIsSetWhenListedAndWritable() throws {
        let fs = FakeSysfs()
        fs.addAccelerometer(0, extra: ["sampling_frequency_available": "1.56 6.25 12.5 25 50 100\n", "sampling_frequency": "12.5\n"])
        fs.addAccelerometer(1, extra: ["in_accel_sampling_frequency_available": "[0.5 0.5 200]\n", "in_accel_sampling_frequency": "1\n"])
        fs.addAccelerometer(2, extra: ["sampling_frequency_available": "1 2 5\n", "sampling_frequency": "1\n"])
        fs.addAccelerometer(3, extra: ["sampling_frequency": "7\n"])                                // no list: untouched
        fs.addAccelerometer(4, extra: ["sampling_frequency_available": "10 50\n"])
        mkdirs(fs.devicePath(4) + "/sampling_frequency")                                          // not writable
        let devs = IIODiscovery.accelerometers(root: fs.root)
        func open(_ n: Int, _ rate: Double) throws -> IIOAccelerometer { try IIOAccelerometer(device: devs[n], rate: rate) }
        #expect(try open(0, 30).samplingNote == "sampling_frequency set to 50 Hz")
        #expect(try readSmallFile(fs.devicePath(0) + "/sampling_frequency") == "50")
        #expect(try open(1, 30).samplingNote == "in_accel_sampling_frequency set to 30 Hz")
        #expect(try readSmallFile(fs.devicePath(1) + "/in_accel_sampling_frequency") == "30")
        #expect(try open(2, 30).samplingNote == "sampling_frequency set to 5 Hz")                  // the fastest there is
        #expect(try open(3, 30).samplingNote == nil)
        #expect(try readSmallFile(fs.devicePath(3) + "/sampling_frequency") == "7\n")
        #expect(try open(4, 30).samplingNote?.hasPrefix("sampling_frequency not set (open") == true)
    }

    /// A FIFO standing for sampling_frequency is refused, not waited on (found by kiosk-hud-fuzz
    /// iio: the sampler blocked in open(2) for good, silently).
    @Test func samplingFrequencyFIFOIsRefused() throws {
        let fs = FakeSysfs()
        fs.addAccelerometer(0, extra: ["sampling_frequency_available": "10 50\n"])
        #expect(mkfifo(fs.devicePath(0) + "/sampling_frequency", 0o644) == 0)
        let note = try IIOAccelerometer(device: IIODiscovery.accelerometers(root: fs.root)[0], rate: 30).samplingNote ?? ""
        #expect(note.hasPrefix("sampling_frequency not set (") && note.hasSuffix("sampling_frequency: not a regular file (a FIFO))"), "\(note)")
    }

    @Test func twelveBitExtremes() throws {
        let fs = FakeSysfs()
        fs.addAccelerometer(0, raw: (-2048, 2047, 0))
        #expect(try IIOAccelerometer(device: IIODiscovery.accelerometers(root: fs.root)[0]).read().raw == [-2048, 2047, 0])
    }
}
