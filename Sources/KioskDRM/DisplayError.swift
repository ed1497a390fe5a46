/// Why a screen cannot be opened, when it is not a single failed system call.
public enum DisplayError: Error, CustomStringConvertible, Equatable {
    case noCard(String)
    case noOutput(String)
    case unsupported(String)

    public var description: String {
        switch self {
        case let .noCard(s), let .noOutput(s), let .unsupported(s): s
        }
    }
}
