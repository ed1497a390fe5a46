// The README's library examples (its ```swift blocks) are the main.swift files of a package of
// their own, Tests/Examples, which depends on this one by path as a user's package would: so the
// README shows code that builds against the public API alone, and cannot drift from it.
import Glibc
import KioskSys
import KioskTestSupport
import Testing

@Suite(.serialized) struct ExamplesTests {
    static let examples = Proc.root + "/Tests/Examples"
    /// In order: the README's first ```swift block is the first file's content, and so on.
    static let files = ["Sources/SessionExample/main.swift", "Sources/LongTaskExample/main.swift"]

    /// The ```swift blocks of a Markdown text, in order, each with its final newline.
    static func swiftBlocks(_ markdown: String) -> [String] {
        var blocks: [String] = [], current: String?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil {
                if line == "```swift" { current = "" }
            } else if line == "```" {
                blocks.append(current!)
                current = nil
            } else {
                current! += line + "\n"
            }
        }
        return blocks
    }

    /// The lines of a build's output that say "error", at most 40.
    static func errorLines(_ output: String) -> String {
        output.split(separator: "\n").filter { $0.contains("error") }.prefix(40).joined(separator: "\n")
    }

    @Test func readmeBlocksAreTheExampleFiles() {
        let readme = Proc.readFile(Proc.root + "/README.md") ?? ""
        let blocks = Self.swiftBlocks(readme)
        #expect(blocks.count == Self.files.count, "README.md has \(blocks.count) ```swift blocks; Tests/Examples has \(Self.files.count) files for them")
        for (block, file) in zip(blocks, Self.files) {
            let text = Proc.readFile(Self.examples + "/" + file)
            #expect(text == block, "README.md's block differs from Tests/Examples/\(file)")
        }
    }

    @Test func theBlockReaderFindsOnlySwiftBlocks() {
        let md = "text\n```swift\nlet a = 1\n\nlet b = 2\n```\n    indented\n```sh\necho\n```\n```swift\nx()\n```\n"
        #expect(Self.swiftBlocks(md) == ["let a = 1\n\nlet b = 2\n", "x()\n"])
    }

    /// The examples build against the package's library product, in a build folder of their own
    /// under .build (kept between runs: a run after a change rebuilds only what changed). From
    /// nothing, about a minute of CPU: the library's modules in debug.
    @Test func examplesBuild() {
        let build = ["nice", "-n", "10", "swift", "build", "--package-path", Self.examples, "--scratch-path", Proc.root + "/.build/examples"]
        var r = Proc.run(build)
        if r.status != 0 {
            // An incremental build can miss a file the package gained since (SwiftPM kept a
            // dependency target's old file list: "cannot find 'LogoPlacement' in scope" after
            // Theme.swift came), so the second build starts from nothing; a compile error fails
            // it as well. The first failure is printed either way.
            print("ExamplesTests: swift build failed (\(r.status)), building again from nothing:\n\(Self.errorLines(r.out + r.err))")
            _ = Proc.run(["rm", "-rf", Proc.root + "/.build/examples"])
            r = Proc.run(build)
        }
        #expect(r.status == 0, "\(Self.errorLines(r.out + r.err))\n\(r.out.suffix(3000))\n\(r.err.suffix(2000))")
        #expect(!r.out.contains("error:"), "\(Self.errorLines(r.out))")
        // The earlier API's closures, through the deprecated shims: the hide's completion arrives.
        let earlier = Proc.run([Proc.root + "/.build/examples/debug/EarlierAPI"])
        #expect(earlier.status == 0 && earlier.out == "hidden\n", "\(earlier.out)\(earlier.err)")
    }
}
