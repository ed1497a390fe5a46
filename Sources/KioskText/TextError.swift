import CKioskFreeType

/// An error from loading fonts or rendering glyphs.
///
/// FreeType failures carry the name of the failing call and FreeType's error
/// code, e.g. `FT_New_Face failed: error 0x02 (unknown file format) [/path]`.
public struct TextError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// A font file that must exist (the primary of a chain) does not.
        case fontNotFound(path: String)
        /// A font path that names something other than a regular file (a FIFO would block
        /// FreeType's open for ever); what it is, e.g. "a FIFO".
        case notARegularFile(path: String, kind: String)
        /// A FreeType call returned a non-zero error code.
        case freetype(call: String, code: Int32, path: String?)
        /// An argument is out of range (e.g. a pixel size ≤ 0, no font paths).
        case invalidArgument(String)
        /// FreeType could not be loaded (dlopen of libfreetype.so.6 failed); the loader's reason.
        case unavailable(String)
    }

    /// What went wrong.
    public var kind: Kind

    /// Creates an error of the given kind.
    public init(_ kind: Kind) { self.kind = kind }

    /// A font file that must exist does not.
    public static func fontNotFound(_ path: String) -> TextError {
        TextError(.fontNotFound(path: path))
    }

    /// A FreeType call failed with `code`, optionally while handling `path`.
    public static func freetype(call: String, code: Int32, path: String? = nil) -> TextError {
        TextError(.freetype(call: call, code: code, path: path))
    }

    /// FreeType could not be loaded.
    public static func unavailable(_ reason: String) -> TextError {
        TextError(.unavailable(reason))
    }

    /// An argument is out of range.
    public static func invalidArgument(_ message: String) -> TextError {
        TextError(.invalidArgument(message))
    }

    /// The font path involved, if any.
    public var path: String? {
        switch kind {
        case .fontNotFound(let path), .notARegularFile(let path, _): path
        case .freetype(_, _, let path): path
        case .invalidArgument, .unavailable: nil
        }
    }

    /// A one-line, human-readable message.
    public var description: String {
        switch kind {
        case .fontNotFound(let path):
            return "font file not found: \(path)"
        case .notARegularFile(let path, let kind):
            return "font \(path): not a regular file (\(kind))"
        case .freetype(let call, let code, let path):
            let message = String(cString: kiosk_ft_error_string(FT_Error(code)))
            let where_ = path.map { " [\($0)]" } ?? ""
            return "\(call) failed: FreeType error \(hex(code)) (\(message))\(where_)"
        case .invalidArgument(let message):
            return "invalid argument: \(message)"
        case .unavailable(let reason):
            return "FreeType cannot be loaded (install libfreetype6): \(reason)"
        }
    }
}

private func hex(_ code: Int32) -> String {
    let digits = String(UInt32(bitPattern: code), radix: 16)
    return "0x" + (digits.count < 2 ? "0" + digits : digits)
}

/// Throws `TextError.freetype` when a FreeType call returned an error.
@inline(__always)
func ftCheck(_ code: FT_Error, _ call: StaticString, path: String? = nil) throws(TextError) {
    if code != 0 { throw .freetype(call: "\(call)", code: code, path: path) }
}
