import Glibc
import KioskSys

/// Why a screen cannot be opened, when it is not a single failed system call.
public enum ScreenError: Error, CustomStringConvertible, Equatable {
    /// No card, or none that could be opened.
    case noCard(String)
    /// A card with no connected connector to show on.
    case noConnector(String)
    /// A device this backend cannot draw on (no dumb buffers, a pixel format it does not know).
    case unsupported(String)

    public var description: String {
        switch self {
        case let .noCard(s), let .noConnector(s), let .unsupported(s): s
        }
    }

    /// `noConnector`'s earlier name ("output" is a command's output in the glossary's words).
    @available(*, deprecated, renamed: "noConnector")
    public static func noOutput(_ s: String) -> ScreenError { .noConnector(s) }
}

/// `ScreenError`'s earlier name: a screen, not a display, is what cannot be opened.
@available(*, deprecated, renamed: "ScreenError")
public typealias DisplayError = ScreenError

/// The card could not be opened as a screen because SET_MASTER was refused: another program is
/// its DRM master (EBUSY: a compositor, a console helper, a splash), or this one may not take it
/// (EACCES/EPERM). Told apart by its type (`isHeldByAnother`); it reads as the failed call does.
public struct DRMMasterRefused: Error, CustomStringConvertible, Equatable, Sendable {
    /// The SET_MASTER call's failure.
    public var error: SysError

    /// `error`, when it is a refusal (EBUSY, EACCES, EPERM); nil for any other failure.
    public init?(_ error: SysError) {
        guard error.errno == EBUSY || error.errno == EACCES || error.errno == EPERM else { return nil }
        self.error = error
    }

    public var description: String { error.description }
}
