// `--wait-display` when the card's uevent is lost: at boot udev's coldplug trigger replays every
// device's uevent while the display's driver probes, and a listener whose socket buffer overruns
// loses messages — the kernel reports it on the next read (ENOBUFS). The wait must look again
// then: the card's own uevent may be among those lost (VMBootTests.bootFromTheInitramfsWithTheDriverLate
// lost bochs-drm's so, and waited its whole 120 s). The fake kernel's empty uevent is an overrun.
import KioskDRM
import KioskFakeKernel
import KioskSys
import Testing

@Suite(.serialized) struct WaitDisplayOverrunTests {
    /// The card appears and its uevent is lost in an overrun: the overrun makes the attempt that
    /// opens it, and the first frame follows.
    @Test func anOverrunMakesAnAttempt() throws {
        let rig = try WaitRig(seconds: 30)
        try rig.run(0.1) { false }
        let before = rig.wait.attempts
        rig.kernel.cardPaths = ["card0"]
        rig.kernel.ueventsQueued.append([])
        try rig.run(5) { rig.firstFrame != nil }
        #expect(rig.opened != nil, "the overrun did not make an attempt: the card stayed unseen")
        #expect(rig.wait.finished && rig.wait.lostUevents == 1 && rig.wait.drmUevents == 0 && rig.wait.attempts == before + 1,
                "attempts \(rig.wait.attempts), lost \(rig.wait.lostUevents)")
        #expect(rig.firstFrame != nil && rig.gaveUp == nil)
    }

    /// An overrun with no card yet is one attempt more, no error: the wait goes on, and the
    /// card's uevent after it opens the display.
    @Test func anOverrunWithoutACardWaitsOn() throws {
        let rig = try WaitRig(seconds: 30)
        try rig.run(0.1) { false }
        rig.kernel.ueventsQueued.append([])
        rig.kernel.ueventsQueued.append(Array("add@/devices/virtual/input/input3\0ACTION=add\0SUBSYSTEM=input\0".utf8))
        try rig.run(0.3) { false }
        #expect(rig.opened == nil && !rig.wait.finished && rig.wait.lostUevents == 1 && rig.gaveUp == nil)
        rig.cardAppears()
        try rig.run(5) { rig.opened != nil }
        #expect(rig.opened != nil && rig.wait.drmUevents == 1)
    }
}
