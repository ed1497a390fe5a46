import Glibc
import KioskSys

/// A libinput or udev call that failed: which call, on what, and why.
public struct LibinputError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The failing call, e.g. "libinput_path_add_device", "udev_new", "libinput_dispatch".
    public var call: String
    /// The device path or seat concerned, if any.
    public var target: String?
    /// Why, in words (from errno or what libinput logged).
    public var reason: String
    /// The errno, when there is one.
    public var errno: Int32?

    public init(call: String, target: String? = nil, reason: String, errno: Int32? = nil) {
        self.call = call; self.target = target; self.reason = reason; self.errno = errno
    }

    /// From a negative-errno return (libinput_dispatch, libinput_udev_assign_seat's errno).
    init(call: String, target: String? = nil, errno: Int32) {
        self.init(call: call, target: target, reason: errnoText(errno), errno: errno)
    }

    public var description: String {
        "\(call)\(target.map { " \(shownPath($0))" } ?? "") failed: \(reason)"
    }
}

/// strerror's text plus the number, e.g. "No such file or directory (errno 2)".
func errnoText(_ e: Int32) -> String { "\(String(cString: strerror(e))) (errno \(e))" }
