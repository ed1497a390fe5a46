// Helpers for the board tests: the package's files, the record switch, and fake machines (a temp
// directory standing for /, with the files detection reads).
import Glibc
import KioskBoards
import KioskSys
import KioskTestSupport
import Testing

enum Files {
    /// The package root.
    static let root = Proc.root

    static func read(_ path: String) throws -> String {
        String(decoding: try readFileBytes(path.hasPrefix("/") ? path : root + "/" + path, limit: 1 << 22), as: UTF8.self)
    }

    static func write(_ path: String, _ text: String) throws {
        let p = path.hasPrefix("/") ? path : root + "/" + path
        try makeDirectories(String(p[..<p.lastIndex(of: "/")!]))
        try replaceFile(p, with: Array(text.utf8))
    }

    /// KIOSK_RECORD_PROFILES=1: generated files are written again (and the test fails once).
    static var recording: Bool { environmentValue("KIOSK_RECORD_PROFILES") == "1" }

    /// Boards/*.toml by name.
    static func shippedProfiles() throws -> [(name: String, text: String)] {
        try (listDirectory(root + "/Boards") ?? []).filter { $0.hasSuffix(".toml") }
            .map { (String($0.dropLast(5)), try read("Boards/" + $0)) }
    }

    /// Checks that `path` holds `generated` (or writes it when recording).
    static func checkGenerated(_ path: String, _ generated: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if recording {
            try write(path, generated)
            Issue.record("re-recorded \(path) (KIOSK_RECORD_PROFILES=1)", sourceLocation: sourceLocation)
            return
        }
        let file = try read(path)
        #expect(file == generated, "\(path) is out of date: KIOSK_RECORD_PROFILES=1 swift test writes it again", sourceLocation: sourceLocation)
    }
}

/// Detection on a fake machine.
extension FakeBoardRoot {
    var catalog: BoardCatalog { BoardCatalog.system(root: root, executable: nil) }
    var facts: BoardFacts { BoardFacts(root: root) }

    func detect(explain: Bool = false) -> BoardDetection { BoardDetection.detect(catalog, facts: facts, explain: explain) }
    func select(_ value: String = "auto") throws -> BoardSelection {
        try BoardSelection.select(.init(value), catalog: catalog, facts: facts)
    }
}
