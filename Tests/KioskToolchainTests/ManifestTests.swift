// One package for both compilers: Package.swift (tools version 6.2, so that a package with
// unsafe flags can still be a versioned dependency) for Swift 6.2 on, and its twin
// Package@swift-6.0.swift for Debian 13's swiftlang 6.0.3 — the same file but its first line.
import KioskSys
import KioskTestSupport
import Testing

@Suite struct ManifestTests {
    @Test func theSwift60ManifestIsPackageSwiftWithToolsVersion60() throws {
        func read(_ name: String) throws -> [Substring] {
            String(decoding: try readFileBytes(Proc.root + "/" + name, limit: 1 << 20), as: UTF8.self)
                .split(separator: "\n", omittingEmptySubsequences: false)
        }
        let main = try read("Package.swift"), twin = try read("Package@swift-6.0.swift")
        #expect(main.first == "// swift-tools-version: 6.2")
        #expect(twin.first == "// swift-tools-version: 6.0")
        #expect(main.dropFirst() == twin.dropFirst(),
                "Package@swift-6.0.swift differs from Package.swift: `sed '1s/6.2/6.0/' Package.swift > Package@swift-6.0.swift`")
    }
}
