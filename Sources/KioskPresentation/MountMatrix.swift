/// A sensor's mount matrix: the rotation from the sensor chip's axes to the device's (the
/// panel's) axes, as Linux IIO (`in_mount_matrix`, `mount_matrix`), udev/hwdb
/// (`ACCEL_MOUNT_MATRIX`) and iio-sensor-proxy write it: `"x1, y1, z1; x2, y2, z2; x3, y3, z3"`.
///
/// Convention: the three `;`-separated groups are the matrix's **rows**, and a reading `v` (a
/// column vector, chip axes) becomes `M · v` (panel axes):
///
///     panel.x = x1·v.x + y1·v.y + z1·v.z
///     panel.y = x2·v.x + y2·v.y + z2·v.z
///     panel.z = x3·v.x + y3·v.y + z3·v.z
///
/// which is what iio-sensor-proxy's `apply_mount_matrix` computes. For example
/// `"0, 1, 0; -1, 0, 0; 0, 0, 1"` turns a chip reading (1, 2, 3) into (2, −1, 3).
public struct MountMatrix: Sendable, Equatable, CustomStringConvertible {
    /// Row-major: `m[0...2]` is the first row (`x1, y1, z1`).
    public private(set) var m: [Double]

    /// The identity (the sensor is aligned with the panel).
    public static let identity = MountMatrix(uncheckedRows: [1, 0, 0, 0, 1, 0, 0, 0, 1])

    private init(uncheckedRows m: [Double]) { self.m = m }

    /// A matrix from nine row-major entries; nil unless there are nine finite entries and the
    /// matrix is invertible.
    public init?(rowMajor entries: [Double]) {
        guard entries.count == 9, entries.allSatisfy(\.isFinite) else { return nil }
        self.m = entries
        guard abs(determinant) > 1e-6 else { return nil }
    }

    /// Why a mount-matrix text was refused.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The text as given.
        public var text: String
        /// What is wrong with it (a value it names cut at 16 characters with "…").
        public var reason: String
        /// The reason without the value it names, for a message that shows the text already.
        public var brief: String
        init(text: String, reason: String, brief: String? = nil) { self.text = text; self.reason = reason; self.brief = brief ?? reason }
        public var description: String { "malformed mount matrix \"\(text)\": \(reason) (expected \"x1, y1, z1; x2, y2, z2; x3, y3, z3\")" }
    }

    /// Parses `"x1, y1, z1; x2, y2, z2; x3, y3, z3"` strictly: exactly three rows of exactly three
    /// decimal numbers (`-1`, `0.7071`, `1e-3`; spaces and tabs around them, one trailing
    /// newline as sysfs adds), finite, and an invertible matrix. Anything else — empty text, a
    /// missing or extra value, `nan`, hex, a stray character, a singular matrix — is an error.
    public static func parse(_ text: String) throws(ParseError) -> MountMatrix {
        func fail(_ reason: String, brief: String? = nil) -> ParseError { ParseError(text: text, reason: reason, brief: brief) }
        var body = Substring(text)
        if body.hasSuffix("\n") { body = body.dropLast() }
        if body.allSatisfy({ $0 == " " || $0 == "\t" }) { throw fail("it is empty") }
        let rows = body.split(separator: ";", omittingEmptySubsequences: false)
        guard rows.count == 3 else { throw fail("\(rows.count) row\(rows.count == 1 ? "" : "s"), not 3") }
        var entries: [Double] = []
        for (i, row) in rows.enumerated() {
            let fields = row.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == 3 else { throw fail("row \(i + 1) has \(fields.count) value\(fields.count == 1 ? "" : "s"), not 3") }
            for (j, f) in fields.enumerated() {
                let t = f.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
                let s = String(t)
                guard let v = parseDecimalNumber(s) else {
                    let shown = s.unicodeScalars.count <= 16 ? s : String(String.UnicodeScalarView(s.unicodeScalars.prefix(16))) + "…"
                    throw fail("\"\(shown)\" in row \(i + 1) is not a decimal number", brief: "value \(j + 1) in row \(i + 1) is not a decimal number")
                }
                entries.append(v)
            }
        }
        guard let mm = MountMatrix(rowMajor: entries) else { throw fail("it is singular (a row or column of zeros?)") }
        return mm
    }

    /// `M · (x, y, z)`.
    public func apply(x: Double, y: Double, z: Double) -> (x: Double, y: Double, z: Double) {
        (m[0] * x + m[1] * y + m[2] * z,
         m[3] * x + m[4] * y + m[5] * z,
         m[6] * x + m[7] * y + m[8] * z)
    }

    /// det M (0 for a singular matrix, which `parse` refuses).
    public var determinant: Double {
        m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6])
    }

    /// The IIO text form, e.g. `1, 0, 0; 0, 1, 0; 0, 0, 1`.
    public var description: String {
        func f(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }
        return (0..<3).map { r in (0..<3).map { f(m[r * 3 + $0]) }.joined(separator: ", ") }.joined(separator: "; ")
    }
}

/// A finite decimal number as the kernel, sysfs and hwdb write them:
/// `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?` — and nothing else that
/// `Double.init` would also take (`nan`, `inf`, hex). Shared by the mount-matrix parser and the
/// IIO attribute reader.
public func parseDecimalNumber(_ s: String) -> Double? {
    var u = Substring(s).utf8[...]
    func digits() -> Int {
        let n = u.prefix { $0 >= 0x30 && $0 <= 0x39 }.count
        u = u.dropFirst(n)
        return n
    }
    if let c = u.first, c == 0x2B || c == 0x2D { u = u.dropFirst() }
    var mantissa = digits()
    if u.first == 0x2E { u = u.dropFirst(); mantissa += digits() }
    guard mantissa > 0 else { return nil }
    if let c = u.first, c == 0x65 || c == 0x45 {
        u = u.dropFirst()
        if let c = u.first, c == 0x2B || c == 0x2D { u = u.dropFirst() }
        guard digits() > 0 else { return nil }
    }
    guard u.isEmpty, let v = Double(s), v.isFinite else { return nil }
    return v
}
