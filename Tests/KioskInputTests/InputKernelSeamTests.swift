// libinput's open_restricted / close_restricted go through the `Kernel` seam: the C callbacks,
// called as libinput calls them (the context in the user data pointer), reach the fake kernel.
@testable import KioskInput
import CKioskInput
import Glibc
import KioskSeams
import KioskFakeKernel
import KioskSys
import KioskTestSupport
import Testing

/// A log the callbacks write into.
private final class Lines { var all: [String] = [] }

@Suite struct InputKernelSeamTests {
    /// open_restricted as libinput calls it: path, flags and the context's user data.
    func openRestricted(_ path: String, _ flags: Int32, _ ctx: CallbackContext) -> Int32 {
        path.withCString { libinputInterface.pointee.open_restricted!($0, flags, ctx.userData) }
    }

    @Test func devicesAreOpenedAndClosedThroughTheKernel() throws {
        let k = FakeKernel()
        let lines = Lines()
        let ctx = CallbackContext(log: { lines.all.append($0) }, kernel: k)
        // A node the fake does not model passes through to the real kernel (a file stands for it).
        let path = Proc.makeTempDir("kiosk-input-seam") + "/event0"
        try replaceFile(path, with: [0])
        let fd = openRestricted(path, O_RDONLY | O_NONBLOCK, ctx)
        #expect(fd >= 0)
        #expect(k.calls == ["open \(path)"])
        #expect(ctx.openDescriptors == [fd])
        libinputInterface.pointee.close_restricted!(fd, ctx.userData)
        #expect(k.calls == ["open \(path)", "close"])
        #expect(ctx.openDescriptors.isEmpty)
        #expect(lines.all.isEmpty, "\(lines.all)")
    }

    @Test func aFailedOpenIsNegativeErrnoAndSaid() {
        let k = FakeKernel()
        k.failAt = (0, EIO)
        let lines = Lines()
        let ctx = CallbackContext(log: { lines.all.append($0) }, kernel: k)
        let fd = openRestricted("/dev/input/event7", O_RDWR, ctx)
        #expect(fd == -EIO)
        #expect(k.calls == ["open /dev/input/event7"])
        #expect(ctx.openDescriptors.isEmpty)
        #expect(ctx.lastOpenFailure?.path == "/dev/input/event7")
        #expect(ctx.lastOpenFailure?.error.errno == EIO)
        #expect(lines.all == ["input: open /dev/input/event7: \(errnoText(EIO))"])
    }

    @Test func theSourceTakesTheKernelFromItsOptions() {
        var o = LibinputOptions(transform: DisplayTransform(rotation: .none, width: 800, height: 480))
        let k = FakeKernel()
        o.kernel = k
        #expect(o.kernel === k)
        #expect(LibinputOptions(transform: o.transform).kernel is LinuxKernel)
    }
}
