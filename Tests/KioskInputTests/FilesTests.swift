import Glibc
import KioskSys
import KioskTestSupport
import Testing

/// KioskSys's whole-file helpers, which the glyph cache stands on.
@Suite struct FilesTests {
    func tempDir() -> String { Proc.makeTempDir("kiosk-files") }

    @Test func replaceAndReadBack() throws {
        let dir = tempDir()
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let path = dir + "/a/b/c.bin"
        try makeDirectories(dir + "/a/b")
        try makeDirectories(dir + "/a/b")  // exists: fine
        let bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try replaceFile(path, with: bytes)
        #expect(try readFileBytes(path, limit: 1 << 20) == bytes)
        try replaceFile(path, with: [1, 2, 3])
        #expect(try readFileBytes(path, limit: 16) == [1, 2, 3])
        #expect(listDirectory(dir + "/a/b") == ["c.bin"], "no temporary file left behind")
    }

    @Test func errorsNameTheCallAndThePath() throws {
        let dir = tempDir()
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        #expect(throws: SysError(call: "open", errno: ENOENT, target: dir + "/missing")) {
            try readFileBytes(dir + "/missing", limit: 10)
        }
        try replaceFile(dir + "/big", with: [UInt8](repeating: 0, count: 100))
        #expect(throws: SysError(call: "read", errno: EFBIG, target: dir + "/big")) {
            try readFileBytes(dir + "/big", limit: 99)
        }
        // A directory in the way: the temporary file cannot be created; nothing is left behind.
        #expect(throws: SysError.self) { try replaceFile(dir + "/nodir/x", with: [1]) }
        #expect(throws: SysError(call: "mkdir", errno: ENOTDIR, target: dir + "/big/sub")) {
            try makeDirectories(dir + "/big/sub")
        }
        #expect(listDirectory(dir) == ["big"])
    }

    @Test func identityFollowsTheFile() throws {
        let dir = tempDir()
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        #expect(LinuxKernel().fileIdentity(dir + "/none") == nil)
        try replaceFile(dir + "/f", with: [1, 2, 3])
        let a = try #require(LinuxKernel().fileIdentity(dir + "/f"))
        #expect(a.size == 3)
        #expect(LinuxKernel().fileIdentity(dir + "/f") == a)
        try replaceFile(dir + "/f", with: [1, 2, 3])  // a new file (new inode) with the same bytes
        #expect(LinuxKernel().fileIdentity(dir + "/f") != a)
    }
}
