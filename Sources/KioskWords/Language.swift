/// A language the HUD's own words are shipped in (`[words] language`; WordsTable.swift has the
/// texts). Anything else is English.
public enum Language: String, CaseIterable, Sendable {
    case en, de, fr, es, it, nl, pl, pt, ja, zh

    /// The language of a locale name as LANG holds it: the code before `_`, `.` or `@`
    /// (`de_AT.UTF-8` → de, `pt_BR` → pt, `zh_TW` → zh, `sr@latin` → English); `C`, `POSIX`,
    /// empty or unknown: English. Pure: no environment read.
    public init(locale: String) {
        var code = ""
        for c in locale.unicodeScalars {
            if c == "_" || c == "." || c == "@" { break }
            code.unicodeScalars.append(c)
        }
        // Some write the language in capitals (DE_de); ISO 639-1 codes are two letters.
        self = Language(rawValue: code.lowercased()) ?? .en
    }

    /// The locale name the messages are in, from the environment's variables (`value(name)`),
    /// else from /etc/default/locale's text (`localeFile`, nil: none): LC_ALL, then LC_MESSAGES,
    /// then LANG, the first that is set and not empty, as the C library decides. Nil: none.
    public static func localeName(environment value: (String) -> String?, localeFile: String?) -> String? {
        let keys = ["LC_ALL", "LC_MESSAGES", "LANG"]
        for k in keys { if let v = value(k), !v.isEmpty { return v } }
        guard let localeFile else { return nil }
        let file = keyValues(localeFile)
        for k in keys { if let v = file[k], !v.isEmpty { return v } }
        return nil
    }

    /// The system's language: `localeName`'s, English when there is none.
    public static func system(environment value: (String) -> String?, localeFile: String?) -> Language {
        localeName(environment: value, localeFile: localeFile).map(Language.init(locale:)) ?? .en
    }

    /// The KEY=VALUE lines of a shell-style file such as /etc/default/locale: blank lines,
    /// `#` comments and lines that are not KEY=VALUE are skipped; `export KEY=VALUE` is read; a
    /// value in single or double quotes loses them. The last of a key wins, as in a shell.
    public static func keyValues(_ text: String) -> [String: String] {
        var out: [String: String] = [:]
        // By scalars: "\r\n" is one Character, and a file may end its lines either way.
        for raw in text.unicodeScalars.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            var line = Substring(String(String.UnicodeScalarView(raw)).drop { $0 == " " || $0 == "\t" })
            if line.hasPrefix("#") { continue }
            if line.hasPrefix("export ") { line = line.dropFirst(7).drop { $0 == " " } }
            guard let eq = line.firstIndex(of: "=") else { continue }
            let key = line[..<eq]
            guard !key.isEmpty, key.allSatisfy({ $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }) else { continue }
            var value = line[line.index(after: eq)...]
            while let last = value.last, last == " " || last == "\t" { value = value.dropLast() }
            if value.count >= 2, let q = value.first, q == "\"" || q == "'", value.last == q {
                value = value.dropFirst().dropLast()
            } else if value.first == "\"" || value.first == "'" {
                continue   // an unclosed quote: not a value a shell would read
            }
            out[String(key)] = String(value)
        }
        return out
    }
}
