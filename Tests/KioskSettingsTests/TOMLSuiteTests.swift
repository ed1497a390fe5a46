// The toml-test suite (github.com/toml-lang/toml-test), as Debian's golang-github-burntsushi-toml-dev
// installs it, read at run time (its files are not ours to copy into the repository): every
// invalid document must be refused, every valid one read to exactly the expected values, or
// refused as `not supported: …` if it has dates or times.
import Foundation
import KioskSettings
import Testing

@Suite struct TOMLSuiteTests {
    static let suite = "/usr/share/gocode/src/github.com/BurntSushi/toml/internal/toml-test/tests"

    /// Valid only in TOML 1.1 (`\e`): toml-test's own version list (version.go) leaves them out
    /// when testing TOML 1.0.0. A strict 1.0 reader must refuse them.
    static let validOnlyInTOML11: Set<String> = ["valid/string/escape-esc.toml"]

    /// The suite's `.toml` files under `folder` (relative paths, sorted).
    static func documents(in folder: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: suite + "/" + folder)
        var paths: [String] = []
        while let p = enumerator?.nextObject() as? String {
            if p.hasSuffix(".toml") { paths.append(folder + "/" + p) }
        }
        return paths.sorted()
    }

    static func bytes(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: suite + "/" + path).map { [UInt8]($0) }
    }

    @Test func tomlTestSuite() {
        guard FileManager.default.fileExists(atPath: Self.suite + "/valid") else {
            if ProcessInfo.processInfo.environment["KIOSK_TOML_SUITE_ALLOW_SKIP"] == "1" {
                print("toml-test suite: skipped, \(Self.suite) is missing (KIOSK_TOML_SUITE_ALLOW_SKIP=1)")
            } else {
                Issue.record("""
                    toml-test suite missing at \(Self.suite): install it with \
                    `apt-get install -y golang-github-burntsushi-toml-dev` (or set KIOSK_TOML_SUITE_ALLOW_SKIP=1 to skip)
                    """)
            }
            return
        }
        var invalidRefused = 0, readExactly = 0, onlyTOML11Refused = 0
        var notSupported: [String: Int] = [:]

        let invalid = Self.documents(in: "invalid")
        for path in invalid {
            guard let bytes = Self.bytes(path) else { Issue.record("cannot read \(path)"); continue }
            do {
                let t = try TOMLTable(bytes: bytes)
                Issue.record("\(path): invalid, but read as \(t)")
            } catch {
                #expect(error.line >= 1 && error.column >= 1 && !error.description.contains("\n"), "\(path): \(error)")
                invalidRefused += 1
            }
        }

        let valid = Self.documents(in: "valid")
        for path in valid {
            guard let bytes = Self.bytes(path), let jsonBytes = Self.bytes(String(path.dropLast(5)) + ".json") else {
                Issue.record("cannot read \(path) and its .json")
                continue
            }
            let expected: JSON
            do { expected = try JSON.parse(jsonBytes) } catch {
                Issue.record("\(path): expected values unreadable: \(error)")
                continue
            }
            do {
                let table = try TOMLTable(bytes: bytes)
                if Self.validOnlyInTOML11.contains(path) {
                    Issue.record("\(path): valid only in TOML 1.1, but read")
                } else if let d = difference(table, expected) {
                    Issue.record("\(path): \(d)")
                } else {
                    readExactly += 1
                }
            } catch {
                if Self.validOnlyInTOML11.contains(path) {
                    onlyTOML11Refused += 1
                } else if error.message.hasPrefix("not supported: ") {
                    #expect(expected.hasDateOrTime, "\(path): refused as \(error), but has no date or time")
                    notSupported[String(error.message.dropFirst("not supported: ".count)), default: 0] += 1
                } else {
                    Issue.record("\(path): valid, but refused: \(error)")
                }
            }
        }

        let refused = notSupported.values.reduce(0, +)
        let byConstruct = notSupported.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        print("toml-test: \(invalidRefused)/\(invalid.count) invalid refused; \(readExactly)/\(valid.count) valid read exactly, "
            + "\(refused) refused as not supported (\(byConstruct)), \(onlyTOML11Refused) valid only in TOML 1.1 refused")
        #expect(invalid.count > 100 && valid.count > 50)
    }
}
