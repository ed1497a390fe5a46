// Reading and parsing sysfs attribute text, strictly: a value is the whole file bar one trailing
// newline (and surrounding blanks); anything else is garbage.
import Glibc
import KioskPresentation
import KioskSys

/// The text of an attribute with surrounding blanks and newlines removed; nil if it cannot be read
/// (missing, EIO, …).
func readAttribute(_ path: String, kernel: any KernelFiles & KernelDescriptors) -> String? {
    guard let s = try? kernel.readSmallFile(path) else { return nil }
    return trimmed(s)
}

/// The text of an attribute (trimmed), or the failing call.
func readAttributeOrThrow(_ path: String, kernel: any KernelFiles & KernelDescriptors) throws(IIOError) -> String {
    do { return trimmed(try kernel.readSmallFile(path)) } catch { throw .sys(error) }
}

func trimmed<S: StringProtocol>(_ s: S) -> String {
    func blank(_ c: Character) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" }
    var sub = Substring(s)
    while let c = sub.first, blank(c) { sub = sub.dropFirst() }
    while let c = sub.last, blank(c) { sub = sub.dropLast() }
    return String(sub)
}

/// A decimal number as IIO writes scales, offsets and frequencies (KioskPresentation's strict reader).
func parseDecimal(_ s: String) -> Double? { parseDecimalNumber(s) }

/// An integer from raw bytes as an `_raw` attribute holds it: optional blanks, an optional sign,
/// 1–18 digits, optional trailing blanks/newline. Parsed without allocating.
func parseInteger(_ bytes: UnsafeRawBufferPointer) -> Int? {
    var i = 0
    let n = bytes.count
    func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
    while i < n, isBlank(bytes[i]) { i += 1 }
    var negative = false
    if i < n, bytes[i] == 0x2D || bytes[i] == 0x2B { negative = bytes[i] == 0x2D; i += 1 }
    var value = 0, count = 0
    while i < n, bytes[i] >= 0x30, bytes[i] <= 0x39 {
        count += 1
        if count > 18 { return nil }
        value = value * 10 + Int(bytes[i] - 0x30)
        i += 1
    }
    guard count > 0 else { return nil }
    while i < n, isBlank(bytes[i]) { i += 1 }
    guard i == n else { return nil }
    return negative ? -value : value
}

/// Writes an attribute: open(O_WRONLY | O_TRUNC), one write (sysfs ignores the truncation; a
/// plain file — a test's fake tree — is replaced, not overwritten in part). Never blocks: a FIFO
/// standing for the attribute is refused, not waited on (found by kiosk-hud-fuzz iio: a FIFO
/// at sampling_frequency held the tilt sampler in open(2) for good, silently).
func writeAttribute(_ path: String, _ text: String, kernel: any KernelFiles & KernelDescriptors) throws(SysError) {
    try kernel.writeSmallFile(path, text, flags: O_TRUNC)
}

/// Formats a number for writing to sysfs (`25`, `12.5`).
func sysfsNumber(_ v: Double) -> String {
    if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
    return String(v)
}
