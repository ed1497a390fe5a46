import CKioskSystemd
import Glibc

/// The systemd manager's boot progress, read over sd-bus from libsystemd.so.0 — loaded with
/// dlopen when the first manager is opened (CKioskSystemd says why it is not linked). What
/// `kiosk-hud ctl follow-boot` reads.
///
///     let m = try SystemdManager()           // PID 1's private bus
///     let p = try m.progress()                // 0…1; 1 once the boot is finished
public final class SystemdManager {
    /// PID 1's private bus: there from the manager's first moment, before dbus-daemon runs
    /// (so early-boot services can use it; psplash-systemd does the same); root only.
    public static let privateBus = "unix:path=/run/systemd/private"

    /// Why the manager cannot be read.
    public enum Failure: Error, CustomStringConvertible {
        /// libsystemd.so.0 cannot be loaded (or lacks a function).
        case noLibrary(String)
        /// Nothing answers at the address: not booted with systemd, or the manager is gone.
        case noManager(String)
        /// The bus refused this user (the private bus is root's).
        case permissionDenied(String)
        /// Connected, but Progress could not be read.
        case readFailed(String)

        public var description: String {
            switch self {
            case let .noLibrary(s), let .noManager(s), let .permissionDenied(s), let .readFailed(s): s
            }
        }
    }

    /// The D-Bus address connected to.
    public let address: String
    private let bus: OpaquePointer

    /// Connects to the manager at `address` (a D-Bus address, e.g. `unix:path=…`).
    public init(address: String = SystemdManager.privateBus) throws(Failure) {
        if let why = kiosk_systemd_load() {
            throw .noLibrary("cannot load libsystemd.so.0, which follow-boot needs: \(String(cString: why))")
        }
        self.address = address
        var made: OpaquePointer?
        var r = kiosk_sd_bus_new(&made)
        guard r >= 0, let b = made else { throw .noManager("sd_bus_new: \(reason(-r))") }
        r = kiosk_sd_bus_set_address(b, address)
        if r >= 0 { r = kiosk_sd_bus_start(b) }
        if r < 0 {
            _ = kiosk_sd_bus_unref(b)
            if r == -EACCES || r == -EPERM { throw .permissionDenied("systemd manager at \(address): permission denied (the private bus is root's)") }
            throw .noManager("no systemd manager at \(address) (\(reason(-r))): follow-boot needs systemd as init")
        }
        bus = b
    }

    deinit { _ = kiosk_sd_bus_unref(bus) }

    /// The manager's `Progress` (org.freedesktop.systemd1.Manager): from 0 while the boot's
    /// jobs run, 1 once the boot is finished; NaN before the first transaction.
    public func progress() throws(Failure) -> Double {
        var error = kiosk_sd_bus_error(name: nil, message: nil, _need_free: 0)
        defer { kiosk_sd_bus_error_free(&error) }
        var value = 0.0
        let r = kiosk_sd_bus_get_property_trivial(bus, "org.freedesktop.systemd1", "/org/freedesktop/systemd1",
                                                  "org.freedesktop.systemd1.Manager", "Progress", &error,
                                                  CChar(UInt8(ascii: "d")), &value)
        guard r >= 0 else {
            let why = error.message.map { String(cString: $0) } ?? reason(-r)
            if r == -EACCES || r == -EPERM { throw .permissionDenied("systemd manager at \(address): \(why)") }
            throw .readFailed("reading the boot progress from \(address): \(why)")
        }
        return value
    }
}

/// strerror's text for an errno.
private func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
