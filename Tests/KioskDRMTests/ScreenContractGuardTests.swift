// The Screen contract stays whole: no source outside KioskDRM (the backends and the display
// switch), KioskOffscreen (the offscreen screen) and KioskTestDoubles casts a screen or its
// display to a concrete type — DRMScreen, FBDevScreen, SwitchingScreen, PendingScreen,
// OffscreenScreen, DRMDisplay, OffscreenDisplay — with `as?`,
// `as!`, `as` (a `catch`/`case` pattern) or `is`. What the session and the commands need of a
// screen is a requirement of `Screen` (KioskSeams' Screen.swift), answered by every backend,
// so that a new backend joins by conforming to `Screen` alone.
import Glibc
import KioskSys
import KioskTestSupport
import Testing

@Suite struct ScreenContractGuardTests {
    /// The package's Sources directory, from this file's path (…/Tests/KioskDRMTests/this.swift).
    static let sources: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/Sources"
    }()

    /// The folders under Sources that define the concrete screens (and may look at their own).
    static let exempt: Set<String> = ["KioskDRM", "KioskOffscreen", "KioskTestDoubles"]
    /// The concrete screens, and their displays (a display is asked of its screen too:
    /// `presentedPicture`, not a cast to the offscreen display).
    static let concrete = ["DRMScreen", "FBDevScreen", "SwitchingScreen", "PendingScreen", "OffscreenScreen", "DRMDisplay", "OffscreenDisplay"]
    /// The casts.
    static let casts = ["as?", "as!", "as", "is"]

    /// The names in a directory (nil: not a directory), without "." and "..".
    static func names(_ dir: String) -> [String]? { listDirectory(dir) }

    /// Every .swift file under `dir`.
    static func swiftFiles(_ dir: String) -> [String] { Proc.swiftFiles(dir) }

    static func read(_ path: String) -> String? { Proc.readFile(path) }

    static func isIdentifier(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }

    /// The casts to a concrete screen in one line of code (comments are skipped).
    static func violations(in line: Substring) -> [String] {
        var code = line
        if let comment = line.firstRange(of: "//") { code = line[..<comment.lowerBound] }
        var found: [String] = []
        for type in concrete {
            for cast in casts {
                let phrase = cast + " " + type
                var rest = code[...]
                while let r = rest.firstRange(of: phrase) {
                    let before = r.lowerBound == code.startIndex ? nil : code[code.index(before: r.lowerBound)]
                    let after = r.upperBound == code.endIndex ? nil : code[r.upperBound]
                    if before.map({ !isIdentifier($0) }) ?? true, after.map({ !isIdentifier($0) }) ?? true {
                        found.append(phrase)
                        break
                    }
                    rest = code[r.upperBound...]
                }
            }
        }
        return found
    }

    @Test func nothingAboveTheBackendsCastsAScreenToItsType() throws {
        let top = try #require(Self.names(Self.sources), "no Sources at \(Self.sources)")
        var offenders: [String] = []
        var scanned = 0
        for dir in top where !Self.exempt.contains(dir) {
            for file in Self.swiftFiles(Self.sources + "/" + dir) {
                scanned += 1
                let text = try #require(Self.read(file), "cannot read \(file)")
                for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    for v in Self.violations(in: line) {
                        offenders.append("\(file.dropFirst(Self.sources.count + 1)):\(i + 1): \(v)")
                    }
                }
            }
        }
        #expect(scanned > 50, "only \(scanned) files found under \(Self.sources)")
        #expect(offenders.isEmpty, "a screen cast to its type (ask it through a `Screen` requirement instead):\n\(offenders.joined(separator: "\n"))")
    }

    /// The scanner finds what it is meant to, and not a type's own use or a comment.
    @Test func scannerSeesCasts() {
        #expect(Self.violations(in: "if let d = s as? DRMScreen { d.close() }") == ["as? DRMScreen"])
        #expect(Self.violations(in: "let p = screen as! PendingScreen") == ["as! PendingScreen"])
        #expect(Self.violations(in: "case let f as FBDevScreen: return f") == ["as FBDevScreen"])
        #expect(Self.violations(in: "if old is FBDevScreen && new is DRMScreen {}") == ["is DRMScreen", "is FBDevScreen"])
        #expect(Self.violations(in: "guard let w = s as? SwitchingScreen, let o = t as? OffscreenScreen else { return }")
                == ["as? SwitchingScreen", "as? OffscreenScreen"])
        #expect(Self.violations(in: "let s = try DRMScreen(options: o)").isEmpty)
        #expect(Self.violations(in: "let pending: PendingScreen").isEmpty)
        #expect(Self.violations(in: "// if let d = s as? DRMScreen").isEmpty)
        #expect(Self.violations(in: "let x = y as? DRMScreenOptions").isEmpty)
        #expect(Self.violations(in: "let d = s.displays.first as? OffscreenDisplay") == ["as? OffscreenDisplay"])
        #expect(Self.violations(in: "let d = OffscreenDisplay(width: 1, height: 1)").isEmpty)
    }
}
