// Discovery: which IIO devices are accelerometers, and which one is used.
import KioskIIO
import Testing

@Suite struct DiscoveryTests {
    @Test func onlyDevicesWithAllThreeAxesAreAccelerometers() {
        let fs = FakeSysfs()
        fs.addAccelerometer(1)
        mkdirs(fs.devicePath(0))                                          // a light sensor
        fs.setAttribute(0, "in_illuminance_raw", "12\n")
        fs.addAccelerometer(2)
        fs.removeAttribute(2, "in_accel_z_raw")                           // two axes only
        mkdirs(fs.prefix + "/sys/bus/iio/devices/trigger0")               // not a device
        let found = IIODiscovery.accelerometers(root: fs.root)
        #expect(found.map(\.sysName) == ["iio:device1"])
        #expect(found.first?.name == "mxc4005" && found.first?.path == fs.devicePath(1))
    }

    @Test func numericOrderAndNoTree() {
        let fs = FakeSysfs()
        for n in [10, 2, 0] { fs.addAccelerometer(n) }
        #expect(IIODiscovery.accelerometers(root: fs.root).map(\.number) == [0, 2, 10])
        #expect(IIODiscovery.accelerometers(root: IIORoot("/nonexistent/kiosk")).isEmpty)
        #expect(IIORoot("/x/y//").devicesDirectory == "/x/y/sys/bus/iio/devices")
        #expect(IIORoot.system.devicesDirectory == "/sys/bus/iio/devices")
        #expect(IIORoot.system.udevDataDirectory == "/run/udev/data")
    }

    @Test func displayBeatsUnlabelledBeatsBase() {
        let fs = FakeSysfs()
        fs.addAccelerometer(0, label: "accel-base")
        fs.addAccelerometer(1, name: "bmc150")
        fs.addAccelerometer(2, label: "accel-display")
        func chosen() -> String? { IIODiscovery.choose(IIODiscovery.accelerometers(root: fs.root))?.sysName }
        #expect(chosen() == "iio:device2")
        fs.removeDevice(2)
        #expect(chosen() == "iio:device1")
        fs.removeDevice(1)
        #expect(chosen() == "iio:device0")      // a base sensor is still better than none
        fs.removeDevice(0)
        #expect(chosen() == nil)
    }

    @Test func udevAccelLocationCountsLikeALabel() {
        let fs = FakeSysfs()
        fs.addAccelerometer(0, extra: ["dev": "251:0\n"])
        fs.addAccelerometer(1, extra: ["dev": "251:1\n"])
        fs.setUdev(file: "c251:0", ["ACCEL_LOCATION": "base"])
        fs.setUdev(file: "c251:1", ["ACCEL_LOCATION": "display"])
        let found = IIODiscovery.accelerometers(root: fs.root)
        #expect(found.map(\.location) == [.base, .display])
        #expect(IIODiscovery.choose(found)?.sysName == "iio:device1")
        // A label wins over udev.
        fs.setAttribute(0, "label", "accel-display\n")
        fs.setUdev(file: "c251:1", [:])
        #expect(IIODiscovery.choose(IIODiscovery.accelerometers(root: fs.root))?.sysName == "iio:device0")
    }

    /// A udev database file over the limit is not silently ignored: it is said, once.
    @Test func anOversizedUdevDatabaseIsSaid() {
        let fs = FakeSysfs()
        fs.addAccelerometer(0, extra: ["dev": "251:0\n"])
        fs.setUdev(file: "c251:0", ["ACCEL_LOCATION": "display", "PAD": String(repeating: "x", count: 70_000)])
        var lines: [String] = []
        let found = IIODiscovery.accelerometers(root: fs.root) { lines.append($0) }
        #expect(found.first?.udev.isEmpty == true)
        #expect(lines.count == 1 && lines[0].contains("c251:0: larger than 64 KiB; its properties (mount matrix, location) are not used"), "\(lines)")
    }

    @Test func wantedBySysNameLabelOrName() {
        let fs = FakeSysfs()
        fs.addAccelerometer(0, name: "kxcjk1013", label: "accel-base")
        fs.addAccelerometer(1, name: "mxc4005", label: "accel-display")
        fs.addAccelerometer(2, name: "iio:device1")       // a name that looks like another sysName
        let found = IIODiscovery.accelerometers(root: fs.root)
        #expect(IIODiscovery.choose(found, wanted: "iio:device0")?.sysName == "iio:device0")
        #expect(IIODiscovery.choose(found, wanted: "iio:device1")?.sysName == "iio:device1")   // sysName first
        #expect(IIODiscovery.choose(found, wanted: "accel-base")?.sysName == "iio:device0")
        #expect(IIODiscovery.choose(found, wanted: "mxc4005")?.sysName == "iio:device1")
        #expect(IIODiscovery.choose(found, wanted: "kxcjk1013")?.sysName == "iio:device0")
        #expect(IIODiscovery.choose(found, wanted: "lis3dh") == nil)
        #expect(IIODiscovery.choose(found, wanted: "iio:device9") == nil)
    }

    @Test func samplerHonoursWantedAndSaysOnceWhenItIsMissing() {
        let fs = FakeSysfs()
        fs.addAccelerometer(0, label: "accel-display")
        fs.addAccelerometer(1, name: "bma250")
        let log = LogLines()
        let s = IIOSampler(settings: .init(root: fs.root, accel: "bma250"), log: log.sink)
        #expect(s.step(at: 0) != nil)
        #expect(s.status == .running(IIODiscovery.accelerometers(root: fs.root)[1]))
        let missing = IIOSampler(settings: .init(root: fs.root, accel: "lis3dh"), log: log.sink)
        for t in 0..<50 { #expect(missing.step(at: Double(t)) == nil) }
        #expect(missing.status == .absent)
        #expect(log.count(containing: "no accelerometer matching \"lis3dh\"") == 1)
        #expect(log.all.last?.contains("found: iio:device0 (mxc4005, label accel-display), iio:device1 (bma250)") == true)
    }

    @Test func udevDatabaseParsing() {
        let text = "S:iio/foo\nI:1234\nE:ACCEL_MOUNT_MATRIX=0, 1, 0; 1, 0, 0; 0, 0, -1\nE:EMPTY=\nE:X=a=b\nG:systemd\nbogus\n"
        let p = IIODiscovery.parseUdevDatabase(text)
        #expect(p == ["ACCEL_MOUNT_MATRIX": "0, 1, 0; 1, 0, 0; 0, 0, -1", "EMPTY": "", "X": "a=b"])
    }
}
