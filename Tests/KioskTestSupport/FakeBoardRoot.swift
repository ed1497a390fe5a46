// A machine for board detection, played in a temporary directory that stands for / (the
// board tests' KIOSK_BOARD_ROOT): a device tree, DMI, DRM cards and connectors, input and IIO
// devices and profile directories, laid out as the kernel lays them out. Files only — not
// KioskFakeKernel's FakeMachine, which plays the kernel's calls and devices coming and going.
import Glibc
import KioskSys

/// A machine for detection: a temporary directory standing for `/`, with a device tree, DMI,
/// DRM cards and connectors, input and IIO devices and profile directories as the real kernel
/// lays them out (the driver as a symbolic link, like sysfs). Read through `root` (BoardFacts,
/// BoardCatalog.system(root:)); no call of the `Kernel` seam is played.
public final class FakeBoardRoot {
    public let root = Proc.makeTempDir("kiosk-board")
    private var inputs = 0, iios = 0

    public init() {}

    deinit { _ = Proc.run(["rm", "-rf", root]) }

    public func file(_ path: String, _ text: String) {
        let p = root + path
        try! makeDirectories(String(p[..<p.lastIndex(of: "/")!]))
        try! replaceFile(p, with: Array(text.utf8))
    }

    @discardableResult
    public func deviceTree(model: String, compatible: [String]) -> Self {
        file("/proc/device-tree/model", model + "\0")
        file("/proc/device-tree/compatible", compatible.map { $0 + "\0" }.joined())
        return self
    }

    @discardableResult
    public func dmi(product: String) -> Self {
        file("/sys/class/dmi/id/product_name", product + "\n")
        return self
    }

    /// cardN with `driver`, and its connectors: name, status, modes.
    @discardableResult
    public func card(_ n: Int, driver: String?, _ connectors: [(String, String, [String])] = []) -> Self {
        let dir = "\(root)/sys/class/drm/card\(n)"
        try! makeDirectories(dir + "/device")
        if let driver {
            try! makeDirectories("\(root)/sys/bus/platform/drivers/\(driver)")
            precondition(symlink("../../../../bus/platform/drivers/\(driver)", dir + "/device/driver") == 0)
        }
        file("/sys/class/drm/version", "drm 1.1.0 20060810\n")
        for (name, status, modes) in connectors {
            file("/sys/class/drm/card\(n)-\(name)/status", status + "\n")
            file("/sys/class/drm/card\(n)-\(name)/modes", modes.map { $0 + "\n" }.joined())
        }
        return self
    }

    @discardableResult
    public func input(_ names: String...) -> Self {
        for n in names {
            file("/sys/class/input/input\(inputs)/name", n + "\n")
            file("/sys/class/input/event\(inputs)/dev", "13:\(64 + inputs)\n")
            inputs += 1
        }
        return self
    }

    @discardableResult
    public func iio(_ names: String...) -> Self {
        for n in names {
            file("/sys/bus/iio/devices/iio:device\(iios)/name", n + "\n")
            iios += 1
        }
        return self
    }

    /// A profile in /etc/kiosk-hud/boards.
    @discardableResult
    public func userProfile(_ name: String, _ text: String) -> Self {
        file("/etc/kiosk-hud/boards/\(name).toml", text)
        return self
    }
}

/// The machines of the shipped profiles, as their kernels show them.
public enum Machines {
    public static func pi4TouchDisplay() -> FakeBoardRoot {
        FakeBoardRoot()
            .deviceTree(model: "Raspberry Pi 4 Model B Rev 1.4", compatible: ["raspberrypi,4-model-b", "brcm,bcm2711"])
            .card(0, driver: "v3d")
            .card(1, driver: "vc4-drm", [("HDMI-A-1", "disconnected", []), ("HDMI-A-2", "disconnected", []),
                                         ("DSI-1", "connected", ["800x480"]), ("Writeback-1", "unknown", [])])
            .input("generic ft5x06 (79)", "vc4-hdmi-0", "vc4-hdmi-1")
    }

    public static func pi5TouchDisplay2() -> FakeBoardRoot {
        FakeBoardRoot()
            .deviceTree(model: "Raspberry Pi 5 Model B Rev 1.0", compatible: ["raspberrypi,5-model-b", "brcm,bcm2712"])
            .card(0, driver: "v3d")
            .card(1, driver: "drm-rp1-dsi", [("DSI-2", "connected", ["720x1280"])])
            .card(2, driver: "vc4-drm", [("HDMI-A-1", "disconnected", []), ("HDMI-A-2", "disconnected", [])])
            .input("pwr_button", "generic ft5x06 (00)")
    }

    public static func zero2wHDMI(status: String = "connected") -> FakeBoardRoot {
        FakeBoardRoot()
            .deviceTree(model: "Raspberry Pi Zero 2 W Rev 1.0", compatible: ["raspberrypi,model-zero-2-w", "brcm,bcm2837"])
            .card(0, driver: "vc4-drm", [("HDMI-A-1", status, status == "connected" ? ["1920x1080", "1280x720", "720x480"] : []),
                                         ("Composite-1", "unknown", [])])
    }

    public static func pi3Waveshare35() -> FakeBoardRoot {
        FakeBoardRoot()
            .deviceTree(model: "Raspberry Pi 3 Model B Plus Rev 1.3", compatible: ["raspberrypi,3-model-b-plus", "brcm,bcm2837"])
            .card(0, driver: "vc4-drm", [("HDMI-A-1", "disconnected", [])])
            .card(1, driver: "ili9486", [("SPI-1", "connected", ["480x320"])])
            .input("ADS7846 Touchscreen")
    }

    /// A BeaglePlay on a 1080p monitor (k3-am625-beagleplay.dts: tidss, the IT66121 bridge, an
    /// HDMI type A connector); no panel on its OLDI connector unless `oldi` lists its modes.
    public static func beaglePlayHDMI(status: String = "connected", oldi: [String] = []) -> FakeBoardRoot {
        var connectors = [("HDMI-A-1", status, status == "connected" ? ["1920x1080", "1280x720", "720x480"] : [])]
        if !oldi.isEmpty { connectors.append(("LVDS-1", "connected", oldi)) }
        return FakeBoardRoot()
            .deviceTree(model: "BeagleBoard.org BeaglePlay", compatible: ["beagle,am625-beagleplay", "ti,am625"])
            .card(0, driver: "tidss", connectors)
            .input("gpio-keys", "tps65219-pwrbutton")
    }

    public static func radxaZero3(_ sensor: String = "mpu6050") -> FakeBoardRoot {
        FakeBoardRoot()
            .deviceTree(model: "Radxa ZERO 3", compatible: ["radxa,zero-3w", "rockchip,rk3566"])
            .card(0, driver: "rockchip-drm", [("HDMI-A-1", "connected", ["1920x1080"])])
            .input("rk805 pwrkey")
            .iio("fe720000.saradc", sensor)
    }

    public static func x86PanelPC() -> FakeBoardRoot {
        FakeBoardRoot()
            .dmi(product: "PPC-1561")
            .card(0, driver: "i915", [("eDP-1", "connected", ["1920x1080"]), ("HDMI-A-1", "disconnected", [])])
            .input("Power Button", "AT Translated Set 2 keyboard", "eGalax Inc. USB TouchController")
    }

    public static func tablet() -> FakeBoardRoot {
        FakeBoardRoot()
            .dmi(product: "T100TA")
            .card(0, driver: "i915", [("DSI-1", "connected", ["800x1280"])])
            .input("Goodix Capacitive TouchScreen")
            .iio("mxc4005")
    }
}
