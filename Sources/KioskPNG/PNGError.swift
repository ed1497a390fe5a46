/// A PNG read or write failure, with libpng's message and the file path.
public struct PNGError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What was being done: "read", "decode", "write" or "encode".
    public var operation: String
    /// libpng's message (from png_image.message) or a description of a bad argument.
    public var message: String
    /// The file involved, if any.
    public var path: String?

    /// An error.
    public init(operation: String, message: String, path: String? = nil) {
        self.operation = operation
        self.message = message
        self.path = path
    }

    /// E.g. `PNG read failed (/tmp/x.png): png_image_begin_read_from_file: No such file or directory`.
    public var description: String {
        let target = path.map { " (\($0))" } ?? ""
        return "PNG \(operation) failed\(target): \(message)"
    }
}
