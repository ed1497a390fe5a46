@testable import KioskCommands
import KioskSys
import KioskTestSupport
import Testing

/// The initramfs's first frame on its way to the next initramfs (FrameCacheSupport.swift's
/// `FrameKeeping`): what the initramfs's daemon left on /run goes into the real root's cache
/// directory as initramfs-frame-KEY.bin, the one such file there; a cache directory that cannot
/// be written yet (a read-only root) leaves it on /run for a later try.
@Suite struct InitramfsFrameTests {
    let kernel = LinuxKernel()

    @Test func theFrameOnRunGoesIntoTheCacheAsTheOneInitramfsFrame() throws {
        let dir = Proc.makeTempDir("kiosk-initramfs-frame")
        let run = dir + "/run", cache = dir + "/cache"
        try kernel.makeDirectories(run)
        try kernel.makeDirectories(cache)
        try kernel.replaceFile(run + "/frame-00000000000000aa.bin", with: [1, 2, 3])
        try kernel.replaceFile(cache + "/initramfs-frame-00000000000000bb.bin", with: [9])   // the last initramfs's
        try kernel.replaceFile(cache + "/frame-00000000000000cc.bin", with: [8])             // a `run`'s: not ours
        #expect(InitramfsFrame.keep(cacheDirectory: cache, from: run, kernel: kernel) == .kept([cache + "/initramfs-frame-00000000000000aa.bin"]))
        #expect(try kernel.readFileBytes(cache + "/initramfs-frame-00000000000000aa.bin", limit: 100) == [1, 2, 3])
        #expect(!kernel.fileExists(cache + "/initramfs-frame-00000000000000bb.bin"))
        #expect(kernel.fileExists(cache + "/frame-00000000000000cc.bin"))
        #expect(kernel.listDirectory(run) == [])
        // Done: nothing more on /run (the initramfs showed the cached frame, or drew none).
        #expect(InitramfsFrame.keep(cacheDirectory: cache, from: run, kernel: kernel) == .nothingToKeep)
        #expect(InitramfsFrame.keep(cacheDirectory: cache, from: dir + "/no-such-run", kernel: kernel) == .nothingToKeep)
    }

    @Test func aCacheThatCannotBeWrittenLeavesTheFrameOnRun() throws {
        let dir = Proc.makeTempDir("kiosk-initramfs-frame")
        let run = dir + "/run"
        try kernel.makeDirectories(run)
        try kernel.replaceFile(run + "/frame-00000000000000aa.bin", with: [1, 2, 3])
        try kernel.replaceFile(dir + "/file", with: [0])
        // A cache directory under a file: as good as a read-only root for the test (root writes anywhere).
        guard case .failed = InitramfsFrame.keep(cacheDirectory: dir + "/file/cache", from: run, kernel: kernel) else {
            Issue.record("kept under a file"); return
        }
        #expect(kernel.fileExists(run + "/frame-00000000000000aa.bin"))
    }
}
