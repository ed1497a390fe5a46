// Character classes used by line breaking. Deliberately small: spaces,
// CJK characters (a break is allowed on either side) and a few punctuation
// marks that must not start or end a line next to CJK text (kinsoku).

extension Unicode.Scalar {
    /// Scalars that are dropped from layout: controls (Cc) and format
    /// characters (Cf: zero-width space, joiners, soft hyphen, BOM, …).
    var isInvisibleControl: Bool {
        switch properties.generalCategory {
        case .control, .format: true
        default: false
        }
    }

    /// CJK ideographs, kana, bopomofo, CJK punctuation and full-width forms:
    /// text that may break between any two characters.
    var isBreakableCJK: Bool {
        switch value {
        case 0x2E80...0x2FDF,    // CJK radicals, Kangxi radicals
             0x3001...0x303F,    // CJK symbols and punctuation (not U+3000)
             0x3040...0x31FF,    // hiragana, katakana, bopomofo, kanbun, …
             0x3400...0x4DBF,    // CJK extension A
             0x4E00...0x9FFF,    // CJK unified ideographs
             0xF900...0xFAFF,    // CJK compatibility ideographs
             0xFF00...0xFFEF,    // half-width and full-width forms
             0x20000...0x3FFFF:  // CJK extensions B…
            true
        default:
            false
        }
    }

    /// Closing punctuation that must not begin a line.
    var forbidsBreakBefore: Bool {
        switch value {
        case 0x3001, 0x3002, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B, 0xFF01, 0xFF1F,  // 、。，．：；！？
             0xFF09, 0x300D, 0x300F, 0x3011, 0x3009, 0x300B, 0x3015, 0x3017,  // ）」』】〉》〕〗
             0x30FC, 0x3005, 0x301C,                                         // ー々〜
             0x21, 0x29, 0x2C, 0x2E, 0x3A, 0x3B, 0x3F, 0x5D, 0x7D:           // ! ) , . : ; ? ] }
            true
        default:
            false
        }
    }

    /// Opening punctuation that must not end a line.
    var forbidsBreakAfter: Bool {
        switch value {
        case 0xFF08, 0x300C, 0x300E, 0x3010, 0x3008, 0x300A, 0x3014, 0x3016,  // （「『【〈《〔〖
             0x28, 0x5B, 0x7B:                                               // ( [ {
            true
        default:
            false
        }
    }
}
