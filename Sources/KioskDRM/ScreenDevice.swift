import CKioskSys
import Glibc
import KioskSys

/// A display device, named by its driver and its path, not by its number alone: card numbers
/// are not stable across the display switch (on a Pi simpledrm is card0 until vc4 arrives and it
/// vanishes; the new driver's card may get the same number or the next).
public struct ScreenDevice: Equatable, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable { case drm, fbdev }
    public var kind: Kind
    /// /dev/dri/card1, /dev/fb0.
    public var path: String
    /// The DRM driver ("vc4", "simpledrm", "bochs-drm") or the fbdev's id ("EFI VGA", "simple").
    public var driver: String

    /// A DRM card's other name for its driver: the sysfs driver its device is bound to
    /// ("vc4-drm" where the DRM driver says "vc4"), from the device's uevent; nil when unknown
    /// or the same.
    public var sysfsDriver: String?

    public init(kind: Kind, path: String, driver: String) { self.kind = kind; self.path = path; self.driver = driver }

    /// Whether `name` is this device's driver by either name (`vc4` or `vc4-drm`).
    public func hasDriver(_ name: String) -> Bool { driver == name || sysfsDriver == name }

    /// The DRIVER= line of a sysfs uevent file; nil without one.
    public static func sysfsDriver(fromUevent text: String) -> String? {
        for line in text.split(separator: "\n") where line.hasPrefix("DRIVER=") && line.count > 7 {
            return String(line.dropFirst(7))
        }
        return nil
    }

    /// "vc4 /dev/dri/card1".
    public var description: String { "\(driver) \(path)" }

    /// DRM drivers of the firmware's framebuffer: there until the board's own driver takes the
    /// hardware over.
    public static let firmwareDrivers: Set<String> = ["simpledrm", "ofdrm", "efidrm", "vesadrm"]

    /// A DRM card of the board's own driver (not the firmware's framebuffer, not an fbdev).
    public var isReal: Bool { kind == .drm && !ScreenDevice.firmwareDrivers.contains(driver) }

    /// fbdev 0, the firmware's DRM card 1, a real DRM card 2.
    public var rank: Int { kind == .fbdev ? 0 : isReal ? 2 : 1 }
}

/// When to move the HUD to another display device (`--display-switch`).
public enum DisplaySwitchRule: Equatable, Sendable, CustomStringConvertible {
    /// Start on the first usable device; move to a better one when it appears (a real DRM card
    /// when on the firmware's card or an fbdev; the firmware's card when on an fbdev).
    case first
    /// Plymouth's way: wait for a real DRM card up to the timeout before drawing anything; then
    /// as `first`.
    case waitReal
    /// Start on the first usable device; move only to a card of this driver (the board
    /// profile's, e.g. "vc4"; the sysfs name, "vc4-drm", names it too).
    case driver(String)

    /// "first", "wait-real", or a driver name (letters, digits, '-', '_'; at most 32); nil else.
    public init?(_ text: String) {
        switch text {
        case "first": self = .first
        case "wait-real": self = .waitReal
        default:
            guard !text.isEmpty, text.utf8.count <= 32,
                  text.utf8.allSatisfy({ ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 || $0 == 95 }) else { return nil }
            self = .driver(text)
        }
    }

    public var description: String {
        switch self {
        case .first: return "first"
        case .waitReal: return "wait-real"
        case let .driver(d): return d
        }
    }

    /// Whether `candidate` is worth leaving `current` (still working) for.
    public func isBetter(_ candidate: ScreenDevice, than current: ScreenDevice) -> Bool {
        switch self {
        case .first, .waitReal: return candidate.rank > current.rank
        case let .driver(d): return candidate.hasDriver(d) && !current.hasDriver(d)
        }
    }

    /// The device to show on among `devices` (in scan order) when there is none: the named
    /// driver's, else the highest rank, the first of equals.
    public func pick(_ devices: [ScreenDevice]) -> ScreenDevice? {
        if case let .driver(d) = self, let named = devices.first(where: { $0.hasDriver(d) }) { return named }
        return devices.max { a, b in a.rank < b.rank || (a.rank == b.rank && (devices.firstIndex(of: a) ?? 0) > (devices.firstIndex(of: b) ?? 0)) }
    }
}

extension ScreenDevice {
    /// The usable display devices now, in number order: DRM cards with dumb buffers and
    /// connectors, then fbdev devices. Each is opened for a moment to ask its driver.
    public static func scan(kernel: Kernel, log: (String) -> Void = { _ in }) -> [ScreenDevice] {
        var found: [ScreenDevice] = []
        let number = { (s: String, prefix: Int) in Int(s.dropFirst(prefix)) ?? Int.max }
        for n in (kernel.listDirectory("/dev/dri") ?? []).filter({ $0.hasPrefix("card") }).sorted(by: { number($0, 4) < number($1, 4) }) {
            let path = "/dev/dri/" + n
            do throws(SysError) {
                let card = try DRMCard(path: path, kernel: kernel)
                defer { card.close() }
                guard try card.capability(UInt64(DRM_CAP_DUMB_BUFFER)) != 0, try card.connectorCount() > 0 else { continue }
                var device = ScreenDevice(kind: .drm, path: path, driver: try card.driverName())
                if let uevent = kernel.readTextFile("/sys/class/drm/" + n + "/device/uevent"),
                   let sysfs = ScreenDevice.sysfsDriver(fromUevent: uevent), sysfs != device.driver {
                    device.sysfsDriver = sysfs
                }
                found.append(device)
            } catch where error.errno == ENODEV {
                // Being registered (its node comes before the device is ready: the "add" uevent
                // follows) or gone: not a display now, and nothing to report.
            } catch {
                log("display: \(path): \(error)")
            }
        }
        let fbs = (kernel.listDirectory("/dev") ?? []).filter { $0.hasPrefix("fb") && Int($0.dropFirst(2)) != nil }
        for n in fbs.sorted(by: { number($0, 2) < number($1, 2) }) {
            let path = "/dev/" + n
            do throws(SysError) {
                let fd = try kernel.open(path, flags: O_RDWR | O_CLOEXEC)
                defer { kernel.close(fd) }
                var f = fb_fix_screeninfo()
                try FBDevScreen.ioctl(kernel, fd, KIOSK_FBIOGET_FSCREENINFO, "FBIOGET_FSCREENINFO", &f)
                let id = withUnsafeBytes(of: f.id) { b in String(decoding: b.prefix { $0 != 0 }, as: UTF8.self) }
                found.append(ScreenDevice(kind: .fbdev, path: path, driver: id.isEmpty ? "fbdev" : id))
            } catch where error.errno == ENODEV {
                // Unregistered (a DRM driver took it over) or not ready: not a display now.
            } catch {
                log("display: \(path): \(error)")
            }
        }
        return found
    }
}

extension DRMScreen {
    /// Whether the card is still there: an unplugged device answers every call with ENODEV.
    public var isDeviceAlive: Bool {
        do { _ = try card.driverName(); return true } catch { return error.errno != ENODEV }
    }

    /// Closes the screen when it is left; a card that went away is closed without waiting for
    /// the flips in flight (they will never land).
    public func abandon() {
        if !isDeviceAlive {
            for o in drmDisplays where o.flipPending { o.completeFlip() }
        }
        close(retain: false)
    }
}

extension FBDevScreen {
    /// Whether the fbdev device is still registered (ENODEV once it was unregistered).
    public var isDeviceAlive: Bool {
        var v = fb_var_screeninfo()
        do { try FBDevScreen.ioctl(kernel, fd, KIOSK_FBIOGET_VSCREENINFO, "FBIOGET_VSCREENINFO", &v); return true } catch {
            return error.errno != ENODEV
        }
    }
}

/// Whether `error` says the device is gone (ENODEV: unplugged, unregistered).
func isDeviceGone(_ error: Error) -> Bool { (error as? SysError)?.errno == ENODEV }

/// SET_MASTER refused because another program is master (EBUSY; EACCES/EPERM without the
/// right to take it): `DRMScreen`'s open throws `DRMMasterRefused` then.
public func isHeldByAnother(_ error: Error) -> Bool { error is DRMMasterRefused }

/// The former name of `ScreenDevice` (a card or fbdev device is a screen's, as the glossary says).
@available(*, deprecated, renamed: "ScreenDevice")
public typealias DisplayDevice = ScreenDevice
