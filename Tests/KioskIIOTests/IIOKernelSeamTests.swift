// The accelerometer's attributes are opened, read, written and closed through the `Kernel` seam:
// a fake kernel sees each call and can fail any of them.
import Glibc
import KioskFakeKernel
import KioskIIO
import KioskSys
import KioskTestSupport
import Testing

@Suite struct IIOKernelSeamTests {
    @Test func attributesGoThroughTheKernel() throws {
        let fs = FakeSysfs()
        fs.addAccelerometer(0, raw: (1, 2, 3), extra: ["sampling_frequency_available": "12.5 25 50\n", "sampling_frequency": "50\n"])
        let dev = try #require(IIODiscovery.accelerometers(root: fs.root).first)
        let k = FakeKernel()
        let acc = try IIOAccelerometer(device: dev, rate: 20, kernel: k)
        #expect(k.calls.contains("open \(dev.path)/in_accel_scale"))
        #expect(k.calls.contains("open \(dev.path)/sampling_frequency_available"))
        #expect(k.calls.contains("open \(dev.path)/sampling_frequency"))
        #expect(k.calls.contains("write"))
        for axis in ["x", "y", "z"] { #expect(k.calls.contains("open \(dev.path)/in_accel_\(axis)_raw")) }
        #expect(acc.samplingNote == "sampling_frequency set to 25 Hz")
        let preads = k.count("pread")
        let reading = try acc.read()
        #expect(reading.raw == [1, 2, 3])
        #expect(k.count("pread") == preads + 3)
        let opens = k.calls.filter { $0.hasPrefix("open ") }.count
        acc.close()
        // Every attribute opened was closed (the three kept open last of all).
        #expect(k.count("close") == opens)
    }

    @Test func aFailedReadIsAClearError() throws {
        let fs = FakeSysfs()
        fs.addAccelerometer(0)
        let dev = try #require(IIODiscovery.accelerometers(root: fs.root).first)
        let k = FakeKernel()
        let acc = try IIOAccelerometer(device: dev, kernel: k)
        k.failAt = (k.calls.count + 2, EIO)   // the second axis's pread (after the stat that finds the device there)
        let error = caught(IIOError.self) { _ = try acc.read() }
        #expect(error == .sys(SysError(call: "pread", errno: EIO, target: dev.path + "/in_accel_y_raw")))
        #expect(error?.description == "pread \(dev.path)/in_accel_y_raw failed: Input/output error (errno 5)")
    }

    @Test func aFailedOpenNamesTheAttribute() throws {
        let fs = FakeSysfs()
        fs.addAccelerometer(0)
        let dev = try #require(IIODiscovery.accelerometers(root: fs.root).first)
        let k = FakeKernel()
        // Fails the first open of an axis attribute; what was opened before is closed again.
        let probe = FakeKernel()
        _ = try IIOAccelerometer(device: dev, kernel: probe)
        let index = try #require(probe.calls.firstIndex(of: "open \(dev.path)/in_accel_x_raw"))
        k.failAt = (index, EACCES)
        let error = caught(IIOError.self) { _ = try IIOAccelerometer(device: dev, kernel: k) }
        #expect(error == .sys(SysError(call: "open \(dev.path)/in_accel_x_raw", errno: EACCES, target: dev.path + "/in_accel_x_raw")))
        #expect(k.count("close") == k.calls.filter { $0.hasPrefix("open ") }.count - 1)
    }
}
