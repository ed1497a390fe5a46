import KioskBoards
import KioskSettings

/// Values for a setting, made from its declaration (KioskBoards' `HUDSettings.table`: the rule's
/// kind, range, choices, lengths): mostly valid, at and just past each bound, of the wrong type,
/// or hostile (huge, non-finite, control characters, invalid UTF-8, very long). The same
/// declarations give the command line's options and the board file's keys, so one generator
/// serves both: `text` for an option's value, `toml` for a board file's value.
enum RuleValues {
    /// Every setting that has a command-line option.
    static var optionSettings: [Setting<HUDSettings>] { HUDSettings.table.settings.filter { $0.option != nil } }
    /// Every setting that a board file may set.
    static var boardSettings: [Setting<HUDSettings>] { HUDSettings.table.settings.filter { $0.section != nil } }

    /// A value for option text (bytes: invalid UTF-8 allowed, no NUL).
    static func text(for s: Setting<HUDSettings>, _ rng: inout Rng) -> [UInt8] {
        if rng.chance(0.12) {
            let h = hostileText(&rng)
            if (s.key == "bind_touch" && KnownFailures.skips("long-binding")) || (s.key == "matrix" && KnownFailures.skips("long-expected")) {
                return Array(h.prefix(50))
            }
            return h
        }
        let valid = rng.chance(0.7)
        switch s.rule.kind {
        case let .number(lo, hi, _):
            if valid { return Array(numberText(lo + (hi - lo) * rng.unit() * rng.unit()).utf8) }
            return Array(rng.pick([numberText(lo), numberText(hi), numberText(lo - 1e-9), numberText(hi * 1.0000001 + 1e-9),
                                   numberText(-hi), interestingNumberText(&rng)]).utf8)
        case let .integer(lo, hi):
            if valid { return Array(String(lo + rng.below(min(hi - lo + 1, 1 << 30))).utf8) }
            return Array(rng.pick([String(lo), String(hi), String(lo - 1), String(hi + 1), interestingNumberText(&rng), "\(lo).0"]).utf8)
        case let .integerChoice(values):
            return Array((valid ? String(rng.pick(values)) : rng.pick(["45", "-90", "360", "90.0", "0x5A", interestingNumberText(&rng)])).utf8)
        case .bool:
            return Array(rng.pick(["true", "false", "on", "off", "yes", "no", "1", "0", "TRUE", "2", ""]).utf8)
        case let .choice(words):
            if valid { return Array(rng.pick(words).utf8) }
            let w = rng.pick(words)
            return Array(rng.pick([w.uppercased(), String(w.dropLast()), w + "x", " " + w, "", w + "\u{0301}"]).utf8)
        case let .text(maxBytes, _):
            return textOfLength(valid ? rng.length(maxBytes) : rng.pick([0, maxBytes, maxBytes + 1, maxBytes - 1, maxBytes * 4]), &rng)
        case let .size(lo, hi):
            if valid { return Array("\(rng.int(lo...min(hi, 2048)))x\(rng.int(lo...min(hi, 2048)))".utf8) }
            return Array(sizeText(lo, hi, &rng).utf8)
        case let .point(limit):
            if valid { return Array("\(numberText((rng.unit() * 2 - 1) * limit)),\(numberText((rng.unit() * 2 - 1) * 200))".utf8) }
            return Array(rng.pick(["\(numberText(limit)),0", "\(numberText(limit * 1.5)),0", "1,2,3", "1", ",", "nan,0", "0,inf",
                                   "1e309,1", " 1 , 2 ", "\(interestingNumberText(&rng)),\(interestingNumberText(&rng))"]).utf8)
        case .color:
            return Array(colorText(valid, &rng).utf8)
        case .custom:
            var t = customText(s.key, valid: valid, &rng)
            if s.key == "matrix", KnownFailures.skips("long-expected"), t.utf8.count > 60 { t = String(t.prefix(60)) }
            return Array(t.utf8)
        case let .texts(_, element):
            if s.key == "bind_touch", KnownFailures.skips("long-binding") { return textOfLength(rng.int(0...60), &rng) }
            return textOfLength(valid ? rng.int(1...min(element.maxBytes, 64)) : rng.pick([0, element.maxBytes, element.maxBytes + 1]), &rng)
        case let .integers(lo, hi, maxCount):
            let n = valid ? rng.int(1...maxCount) : rng.pick([0, maxCount + 1, 1000])
            return Array((0..<n).map { _ in String(valid ? rng.int(lo...hi) : Int(interestingInteger(&rng))) }.joined(separator: ",").utf8)
        }
    }

    /// A TOML value for a board file key.
    static func toml(for s: Setting<HUDSettings>, _ rng: inout Rng) -> String {
        if rng.chance(0.12) { return hostileTOML(&rng) }
        let valid = rng.chance(0.7)
        switch s.rule.kind {
        case let .number(lo, hi, _):
            if valid { return tomlFloat(lo + (hi - lo) * rng.unit()) }
            return rng.pick([tomlFloat(lo), tomlFloat(hi), tomlFloat(lo - 1e-9), tomlFloat(hi + 1e-6), "nan", "+inf", "-inf", "-0.0",
                             "1e309", "\"1.0\"", "true", "[1.0]", String(Int64(hi) + 1), "9223372036854775807", "0x10", "1_0.0"])
        case let .integer(lo, hi):
            return valid ? String(rng.int(lo...min(hi, lo + 1_000_000))) : rng.pick([String(lo - 1), String(hi + 1), "1.5", "1e3", "9223372036854775808", "-9223372036854775809", "0x7FFFFFFFFFFFFFFF", "\"1\""])
        case let .integerChoice(values):
            return valid ? String(rng.pick(values)) : rng.pick(["45", "90.0", "90.5", "-90", "0x5A", "0o132", "\"90\"", "1e2", "9223372036854775807"])
        case .bool:
            return rng.pick(["true", "false", "True", "\"true\"", "1", "0", "yes"])
        case let .choice(words):
            return valid ? tomlString(rng.pick(words)) : rng.pick([tomlString(rng.pick(words).uppercased()), "1", "[\"\(rng.pick(words))\"]", "\"\"", rng.pick(words)])
        case let .text(maxBytes, _):
            return tomlString(String(decoding: textOfLength(valid ? rng.length(min(maxBytes, 4096)) : rng.pick([0, maxBytes, maxBytes + 1]), &rng), as: UTF8.self))
        case let .size(lo, hi):
            return tomlString(valid ? "\(rng.int(lo...min(hi, 2048)))x\(rng.int(lo...min(hi, 2048)))" : sizeText(lo, hi, &rng))
        case .point:
            return rng.pick(["\"1,2\"", "[1, 2]"])
        case .color:
            return tomlString(colorText(valid, &rng))
        case .custom:
            var t = customText(s.key, valid: valid, &rng)
            if s.key == "matrix", KnownFailures.skips("long-expected"), t.utf8.count > 50 { t = String(t.prefix(50)) }
            return tomlString(t)
        case let .texts(maxCount, element):
            let n = valid ? rng.int(0...min(maxCount, 4)) : rng.pick([maxCount, maxCount + 1, 1000])
            let items = (0..<n).map { _ in
                tomlString(String(decoding: textOfLength(valid ? rng.int(1...min(element.maxBytes, 40)) : rng.pick([0, element.maxBytes + 1, 8]), &rng), as: UTF8.self))
            }
            if !valid && rng.chance(0.3) { return rng.pick(["\"DSI-1\"", "[1, 2]", "[[\"a\"]]", "[\"a\", 1]", "[]"]) }
            return "[" + items.joined(separator: ", ") + "]"
        case let .integers(lo, hi, maxCount):
            let n = valid ? rng.int(0...maxCount) : rng.pick([0, maxCount + 1, 10000])
            let items = (0..<n).map { _ in valid ? String(rng.int(lo...hi)) : rng.pick([String(lo - 1), String(hi + 1), "1.5", "\"28\"", String(interestingInteger(&rng))]) }
            return "[" + items.joined(separator: ",") + "]"
        }
    }

    // MARK: Parts

    static func numberText(_ v: Double) -> String {
        if v == v.rounded() && abs(v) < 1e15 { return String(Int(v)) }
        return String(v)
    }

    static func tomlFloat(_ v: Double) -> String {
        let s = String(v)
        return s.contains(".") || s.contains("e") || s.contains("n") ? s : s + ".0"
    }

    /// A TOML basic string with the escapes TOML needs (control characters as \uXXXX).
    static func tomlString(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 || u.value == 0x7F {
                    let hex = Array("0123456789ABCDEF")
                    out += "\\u00" + String(hex[Int(u.value >> 4)]) + String(hex[Int(u.value & 15)])
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }

    /// Text of about `n` UTF-8 bytes: letters, multi-byte characters (one may straddle the
    /// limit), combining marks, emoji, right-to-left, control characters, sometimes invalid UTF-8.
    static func textOfLength(_ n: Int, _ rng: inout Rng) -> [UInt8] {
        let pieces: [[UInt8]] = ["a", "Loading", " ", "…", "é", "e\u{0301}", "日本語", "🙂", "👩‍👩‍👧", "\u{202E}", "مرحبا", "\t", "\n",
                                 "\u{200B}", "\u{FEFF}", "Ω", "\u{10FFFF}", "%s%n", "\\", "\"", "-", "--label"].map { Array($0.utf8) }
            + [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xE2, 0x82]]
        var out: [UInt8] = []
        let style = rng.below(4)
        while out.count < n {
            switch style {
            case 0: out.append(UInt8(rng.int(0x61...0x7A)))
            case 1: out += rng.pick(pieces)
            case 2: out += [0xCC, 0x81]   // a long run of combining acute accents
            default: out += rng.chance(0.8) ? [UInt8(rng.int(0x20...0x7E))] : rng.pick(pieces)
            }
        }
        if out.count > n && style != 1 { out.removeSubrange(n...) }
        // Never an absolute path: a value may land where a path goes, and nothing may be written
        // outside the case's directory.
        if out.first == 0x2F { out[0] = 0x78 }
        return out.map { $0 == 0 ? 0x20 : $0 }
    }

    static func sizeText(_ lo: Int, _ hi: Int, _ rng: inout Rng) -> String {
        rng.pick(["\(lo - 1)x\(lo)", "\(hi)x\(hi)", "\(hi + 1)x1", "1x\(hi + 1)", "\(hi)x1", "1x\(hi)", "800X480", "800x480x3", "800 x 480",
                  "x480", "800x", "-800x480", "800x-480", "1e3x480", "0x0", "800.0x480", "99999999999999999999x1", "８００x480", "", "x",
                  "\(interestingInteger(&rng))x\(interestingInteger(&rng))"])
    }

    static func colorText(_ valid: Bool, _ rng: inout Rng) -> String {
        let hex = Array("0123456789abcdefABCDEF")
        if valid { return "#" + String((0..<(rng.chance(0.5) ? 6 : 8)).map { _ in rng.pick(hex) }) }
        return rng.pick(["#fff", "#ffff", "#1234567", "#123456789", "#gggggg", "red", "", "#", "##123456", "123456", "#12345 ",
                         "#" + String(repeating: "f", count: rng.length(5000)), "rgb(1,2,3)", "#－12345"])
    }

    static func customText(_ key: String, valid: Bool, _ rng: inout Rng) -> String {
        func n() -> String { valid ? numberText((rng.unit() * 4 - 2).rounded() / 2) : interestingNumberText(&rng) }
        switch key {
        case "matrix":
            if rng.chance(0.2) { return rng.pick(["rotate-90", "rotate-180", "rotate-270", "rotate-45", "rotate-", "ROTATE-90"]) }
            let count = valid ? 6 : rng.pick([5, 6, 7, 9, 0, 1000])
            return (0..<count).map { _ in n() }.joined(separator: rng.pick([",", ", ", " ", ";"]))
        case "mount_matrix":
            let rows = valid ? 3 : rng.pick([2, 3, 4, 100])
            return (0..<rows).map { _ in (0..<(valid ? 3 : rng.pick([2, 3, 4]))).map { _ in n() }.joined(separator: ", ") }.joined(separator: "; ")
        case "mode":
            if valid { return "\(rng.int(1...4096))x\(rng.int(1...4096))" + (rng.chance(0.5) ? "@\(rng.int(1...240))" : "") }
            return rng.pick(["0x0", "8193x1", "800x480@0", "800x480@1000", "800x480@nan", "800x480@", "@60", "800x480@60@60", "800x480@1e309",
                             "800x480i", "\(interestingInteger(&rng))x\(interestingInteger(&rng))@\(interestingNumberText(&rng))"])
        case "card":
            return valid ? "/dev/dri/card\(rng.below(4))" : rng.pick(["card0", "", "/" + String(repeating: "a", count: 63), "/" + String(repeating: "a", count: 200), "/dev/null"])
        case "min_size":
            if valid { return "\(rng.int(0...500))x\(rng.int(0...500))" }
            return rng.pick(["10001x1", "-1x1", "nanx1", "1x", "1e4x1e4", "1x1x1", "infxinf", "\(interestingNumberText(&rng))x\(interestingNumberText(&rng))"])
        default:
            return String(decoding: textOfLength(rng.length(100), &rng), as: UTF8.self)
        }
    }

    /// Text that no rule should take whole: very long, control characters, invalid UTF-8.
    static func hostileText(_ rng: inout Rng) -> [UInt8] {
        switch rng.below(6) {
        case 0: return textOfLength(rng.pick([4096, 10_000, 100_000]), &rng)
        case 1: return [0xFF, 0xFE, 0xC0, 0x80]
        case 2: return Array(interestingNumberText(&rng).utf8)
        case 3: return []
        case 4: return Array("\u{1B}[31m\u{7}\r".utf8)
        default: return Array(rng.pick(["-", "--", "--help", "-h", "=", "--label=x", "\n", " "]).utf8)
        }
    }

    /// A TOML value meant to stress the reader: deep, long, large, or not TOML at all.
    static func hostileTOML(_ rng: inout Rng) -> String {
        let depth = rng.pick([31, 32, 33, 64, 1000, 100_000])
        switch rng.below(12) {
        case 0: return String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        case 1: return String(repeating: "{a=", count: min(depth, 20000)) + "1" + String(repeating: "}", count: min(depth, 20000))
        case 2: return String(repeating: "[", count: depth)
        case 3: return "[" + String(repeating: "1,", count: rng.pick([1000, 100_000])) + "]"
        case 4: return "\"" + String(repeating: "x", count: rng.pick([80, 81, 1000, 200_000])) + "\""
        case 5: return rng.pick(["1979-05-27T07:32:00Z", "07:32:00", "1979-05-27", "1979-05-27 07:32:00.999999-07:00"])
        case 6: return rng.pick(["\"\\u0000\"", "\"\\uD800\"", "\"\\U0011FFFF\"", "\"\\x41\"", "\"\\e\"", "'''\n" + String(repeating: "''", count: 3) + "'''"])
        case 7: return rng.pick(["nan", "-nan", "+nan", "inf", "-inf", "1e1000", "-1e1000", "4.9e-325", "0.0e-0", "1__2", "01", "+0x1", "0x", "1.", ".1"])
        case 8: return rng.pick(["9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "0xFFFFFFFFFFFFFFFF", "0b" + String(repeating: "1", count: 65)])
        case 9: return "\"\"\"" + String(repeating: "\\\n", count: rng.pick([10, 10_000])) + "\"\"\""
        case 10: return "{" + (0..<rng.pick([10, 1000, 30_000])).map { "k\($0)=\($0)" }.joined(separator: ",") + "}"
        default: return String(decoding: rng.bytes(rng.length(64)).map { $0 == 0x0A ? 0x20 : $0 }, as: UTF8.self)
        }
    }
}
