// The test support for running things as another user (KioskTestSupport's Stranger.swift):
// what a stranger runs is reachable by it wherever the checkout is, even under a directory only
// its owner can enter (root's home on Debian).
import Glibc
import KioskSys
import KioskTestSupport
import Testing

@Suite struct StrangerCopyTests {
    /// A directory only its owner can enter (mkdtemp's 0700), holding a script and a directory
    /// with a data file: what a checkout under root's home looks like to nobody.
    static func privateTree() throws -> String {
        let home = Proc.makeTempDir("kiosk-private-home")
        try replaceFile(home + "/tool", with: Array("#!/bin/sh\ncat \"$(dirname \"$0\")/lib/data\"; exit 7\n".utf8), mode: 0o755)
        #expect(mkdir(home + "/lib", 0o700) == 0)
        try replaceFile(home + "/lib/data", with: Array("data".utf8), mode: 0o600)
        return home
    }

    @Test func theModesDecideWhoReaches() throws {
        let home = try Self.privateTree()
        defer { _ = Proc.run(["rm", "-rf", home]) }
        #expect(Stranger.canReach(home + "/tool", need: R_OK | X_OK) == false)
        #expect(Stranger.canReach(home + "/tool", need: R_OK | X_OK, user: 0, group: 0) == true)
        #expect(Stranger.canReach(home + "/nothing", user: 0, group: 0) == nil)
        #expect(Stranger.canReach("/tmp", need: X_OK) == true)
        #expect(Stranger.canReach("relative") == nil)
        try setMode(home, 0o755)
        #expect(Stranger.canReach(home + "/tool", need: R_OK | X_OK) == true)
        #expect(Stranger.canReach(home + "/lib/data") == false)
    }

    /// The copy is reachable (every ancestor searchable by uid 65534, the files readable, the
    /// program executable), runs as the stranger, and is gone with the object.
    @Test func aCopyOutOfAPrivateHomeIsReachableAndRuns() throws {
        let home = try Self.privateTree()
        defer { _ = Proc.run(["rm", "-rf", home]) }
        var copy: StrangerCopy? = try StrangerCopy([home + "/tool", home + "/lib"])
        let dir = copy?.dir ?? ""
        let tool = copy?.path(home + "/tool") ?? ""
        #expect(!tool.hasPrefix(home) && tool.hasPrefix(dir + "/"))
        #expect(Stranger.canReach(tool, need: R_OK | X_OK) == true)
        #expect(Stranger.canReach(copy?.path(home + "/lib/data") ?? "") == true)
        #expect(Proc.readFile(copy?.path(home + "/lib/data") ?? "") == "data")
        let asStranger = Proc.run(Stranger.command + [tool])
        #expect(asStranger.status == 7 && asStranger.out == "data", "\(asStranger)")
        let original = Proc.run(Stranger.command + [home + "/tool"])
        #expect(original.status != 7, "the private original ran as the stranger: \(original)")
        copy = nil
        #expect(!Proc.exists(dir))
    }
}
