/// libinput's touch calibration: the first two rows `[a b c; d e f]` of a 3×3 matrix applied to
/// normalised device coordinates (0…1 across the sensor): `x' = a·x + b·y + c`,
/// `y' = d·x + e·y + f` (libinput_device_config_calibration_set_matrix; the same six numbers
/// as udev's `LIBINPUT_CALIBRATION_MATRIX`).
public struct CalibrationMatrix: Sendable, Equatable, CustomStringConvertible {
    /// a, b, c, d, e, f.
    public var values: [Float]

    /// The six values `a, b, c, d, e, f` (`precondition`: exactly six).
    public init(_ values: [Float]) {
        precondition(values.count == 6, "a calibration matrix has 6 values")
        self.values = values
    }

    /// The identity: the sensor covers the panel exactly.
    public static let identity = CalibrationMatrix([1, 0, 0, 0, 1, 0])

    /// libinput's documented matrices for a sensor rotated clockwise by `rotation` against the
    /// panel (libinput.h, libinput_device_config_calibration_set_matrix):
    /// 90° `0 -1 1 1 0 0`, 180° `-1 0 1 0 -1 1`, 270° `0 1 0 -1 0 1`.
    ///
    /// Use these when the *touch sensor* is mounted rotated against the panel. A rotated
    /// *display* (`--rotate`, panel orientation) is handled by `DisplayTransform` already; don't
    /// also set the preset for it.
    public static func rotation(_ rotation: Rotation) -> CalibrationMatrix {
        switch rotation {
        case .none: identity
        case .quarter: CalibrationMatrix([0, -1, 1, 1, 0, 0])
        case .half: CalibrationMatrix([-1, 0, 1, 0, -1, 1])
        case .threeQuarters: CalibrationMatrix([0, 1, 0, -1, 0, 1])
        }
    }

    /// Whether this is the identity matrix.
    public var isIdentity: Bool { values == CalibrationMatrix.identity.values }

    /// Applies the matrix to a normalised point (0…1 across the sensor).
    public func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        let m = values.map(Double.init)
        return (m[0] * x + m[1] * y + m[2], m[3] * x + m[4] * y + m[5])
    }

    /// "a,b,c,d,e,f" (shortest round-trip spelling of each Float).
    public var description: String { values.map { "\($0)" }.joined(separator: ",") }

    /// Why a matrix text was refused.
    public struct ParseError: Error, Equatable, CustomStringConvertible, Sendable {
        /// The text given.
        public var text: String
        /// What is wrong with it (a value it names cut at 16 characters with "…").
        public var reason: String
        /// The reason without the value it names ("value 6 is not a number"), for a message
        /// that shows the whole text already (a board file's or an option's error line).
        public var brief: String
        init(text: String, reason: String) { self.text = text; self.reason = reason; brief = reason }
        init(text: String, value n: Int, _ field: String, _ problem: String) {
            self.text = text
            let shown = field.unicodeScalars.count <= 16 ? field : String(String.UnicodeScalarView(field.unicodeScalars.prefix(16))) + "…"
            reason = "value \(n) \"\(shown)\" \(problem)"
            brief = "value \(n) \(problem)"
        }
        public var description: String { "touch matrix \"\(text)\": \(reason); expected six numbers a,b,c,d,e,f (e.g. 0,-1,1,1,0,0)" }
    }

    /// Parses "a,b,c,d,e,f" (commas and/or spaces, as in `--touch-matrix` and udev's
    /// LIBINPUT_CALIBRATION_MATRIX), or a preset name: `identity`, `rotate-90`, `rotate-180`,
    /// `rotate-270`. Refuses anything but six finite numbers, and a matrix that flattens the
    /// sensor onto a line (a·e − b·d = 0).
    public init(parsing text: String) throws(ParseError) {
        let trimmed = trimBlanks(Substring(text))
        switch trimmed.lowercased() {
        case "identity", "rotate-0": self = .identity; return
        case "rotate-90": self = .rotation(.quarter); return
        case "rotate-180": self = .rotation(.half); return
        case "rotate-270": self = .rotation(.threeQuarters); return
        default: break
        }
        if trimmed.isEmpty { throw ParseError(text: text, reason: "empty") }
        // Commas separate values when there are any (blanks around them are fine); else blanks do.
        let fields: [String] = trimmed.contains(",")
            ? trimmed.split(separator: ",", omittingEmptySubsequences: false)
                .map(trimBlanks)
            : trimmed.split(whereSeparator: isBlank).map { String($0) }
        if let empty = fields.firstIndex(of: "") { throw ParseError(text: text, reason: "value \(empty + 1) is empty") }
        guard fields.count == 6 else { throw ParseError(text: text, reason: "\(fields.count) value\(fields.count == 1 ? "" : "s"), not 6") }
        var values: [Float] = []
        for (n, f) in fields.enumerated() {
            guard let v = Float(f) else { throw ParseError(text: text, value: n + 1, f, "is not a number") }
            guard v.isFinite else { throw ParseError(text: text, value: n + 1, f, "is not finite") }
            values.append(v)
        }
        if values[0] * values[4] - values[1] * values[3] == 0 {
            throw ParseError(text: text, reason: "degenerate: a·e − b·d = 0")
        }
        self.init(values)
    }
}

private func isBlank(_ c: Character) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" }

private func trimBlanks(_ s: Substring) -> String {
    var t = s.drop(while: isBlank)
    while let last = t.last, isBlank(last) { t = t.dropLast() }
    return String(t)
}
