/// JSON that was refused: what was wrong and where.
///
/// `description` is "at byte N: message", e.g. "at byte 7: leading zero in a number".
public struct JSONError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was wrong: "duplicate key \"label\"", "nesting deeper than 16 (maxDepth)", ….
    public var message: String
    /// The byte index in the input where the problem is (0-based).
    public var offset: Int

    public init(_ message: String, at offset: Int) {
        self.message = message
        self.offset = offset
    }

    /// "at byte N: message".
    public var description: String { "at byte \(offset): \(message)" }
}

/// How much one document may hold. Going over any limit is a `JSONError` naming the limit
/// ("string longer than 16384 bytes (maxStringBytes)").
public struct JSONLimits: Equatable, Sendable {
    /// The whole input, in bytes (checked before anything is read).
    public var maxBytes: Int
    /// How many arrays and objects may be open at once: `[]` is 1 deep, `[[]]` 2.
    /// A value is walked recursively (==, encoding, release), one level per nesting level:
    /// keep this in the tens or hundreds.
    public var maxDepth: Int
    /// A string's (or key's) UTF-8 bytes once its escapes are decoded.
    public var maxStringBytes: Int
    /// An array's items, and an object's members (each container on its own).
    public var maxElements: Int

    /// 64 KiB of input, 16 levels, 16 KiB strings, 1024 items per container.
    public static let `default` = JSONLimits()

    public init(maxBytes: Int = 65536, maxDepth: Int = 16, maxStringBytes: Int = 16384, maxElements: Int = 1024) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxStringBytes = maxStringBytes
        self.maxElements = maxElements
    }
}
