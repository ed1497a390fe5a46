import KioskSys
/// A PNG read or write failure: what was being done, why, and the file.
public struct PNGError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What was being done: "read", "decode", "write" or "encode".
    public var operation: String
    /// Why, in a few words: e.g. "not a regular file (a FIFO)", "not a PNG file",
    /// "image is 30000x30000 (900000000 pixels); at most …", or libpng's own message.
    public var message: String
    /// The file involved, if any.
    public var path: String?

    /// An error.
    public init(operation: String, message: String, path: String? = nil) {
        self.operation = operation
        self.message = message
        self.path = path
    }

    /// One line naming the file and why: `/tmp/x.png: not a regular file (a FIFO)`; without a
    /// file (or with an empty path), `PNG decode failed: not a PNG file`.
    public var description: String {
        if let path, !path.isEmpty { return "\(shownPath(path)): \(message)" }
        return "PNG \(operation) failed: \(message)"
    }
}
