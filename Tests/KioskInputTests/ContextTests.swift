// LibinputSource without devices: the errors a caller sees, and that contexts are released.
@testable import KioskInput
import Glibc
import KioskSeams
import Testing

@Suite(.serialized) struct ContextTests {
    private func options(_ backend: LibinputBackend) -> LibinputOptions {
        var o = LibinputOptions(transform: DisplayTransform(rotation: .none, width: 800, height: 480))
        o.backend = backend
        return o
    }

    @Test func missingDeviceNodeNamesCallAndPath() {
        do {
            _ = try LibinputSource(options: options(.path(["/dev/input/event-kiosk-missing"])))
            Issue.record("a missing node was accepted")
        } catch {
            #expect(error.call == "libinput_path_add_device")
            #expect(error.target == "/dev/input/event-kiosk-missing")
            #expect(error.errno == ENOENT)
            #expect(error.description == "libinput_path_add_device /dev/input/event-kiosk-missing failed: no such device node")
        }
    }

    @Test func notAnInputDeviceIsSaidSo() {
        // /dev/null exists but is no input device (libinput waits up to 2 s for udev to
        // initialise it first).
        do {
            _ = try LibinputSource(options: options(.path(["/dev/null"])))
            Issue.record("/dev/null was accepted")
        } catch {
            #expect(error.call == "libinput_path_add_device")
            #expect(error.target == "/dev/null")
            #expect(error.reason.hasPrefix("not an input device libinput handles"), "\(error)")
            #expect(error.description == "libinput_path_add_device /dev/null failed: not an input device libinput handles (character device 1:3, not the input subsystem's 13:N)")
        }
        // Decided before libinput is asked (it would wait 2 s for udev): a file, a directory.
        for (path, kind) in [("/etc/hostname", "a regular file"), ("/tmp", "a directory")] {
            do { _ = try LibinputSource(options: options(.path([path]))); Issue.record("\(path) was accepted") } catch {
                #expect(error.description == "libinput_path_add_device \(path) failed: not an input device libinput handles (\(kind), not a character device)")
            }
        }
    }

    @Test func noPathsAndNoPictureAreErrors() {
        #expect(throws: LibinputError.self) { try LibinputSource(options: options(.path([]))) }
        var o = options(.udev(seat: "seat0"))
        o.transform = DisplayTransform(rotation: .none, width: 0, height: 480)
        #expect(throws: LibinputError.self) { try LibinputSource(options: o) }
    }

    @Test func udevSeatOpensPollsAndCloses() throws {
        var lines: [String] = []
        var o = options(.udev(seat: "seat0"))
        o.log = { lines.append($0) }
        let s = try LibinputSource(options: o)
        #expect(s.fileDescriptor >= 0)
        #expect(fcntl(s.fileDescriptor, F_GETFD) != -1)
        try s.dispatch()
        // Whatever devices this machine has, nothing was touched.
        #expect(s.events(until: .infinity).allSatisfy { if case .key = $0.event { true } else { false } })
        #expect(s.openDescriptorCount == s.devices.count)
        s.close()
        #expect(s.fileDescriptor == -1)
        #expect(s.openDescriptorCount == 0)
        s.close()  // idempotent
        try s.dispatch()  // a closed source has nothing to do
        #expect(s.events(until: .infinity).isEmpty)
    }

    @Test func contextsDoNotLeakDescriptors() throws {
        func openFDs() -> Int {
            guard let d = opendir("/proc/self/fd") else { return -1 }
            defer { closedir(d) }
            var n = 0
            while readdir(d) != nil { n += 1 }
            return n
        }
        let before = openFDs()
        for _ in 0..<100 {
            let s = try LibinputSource(options: options(.udev(seat: "seat0")))
            s.close()
            _ = try? LibinputSource(options: options(.path(["/dev/input/event-kiosk-missing"])))
        }
        // A leak would be ≥ 1 per round (epoll + udev monitor socket); other suites running in
        // parallel may hold a few descriptors at any moment.
        #expect(openFDs() - before < 40, "descriptors before \(before), after \(openFDs())")
    }

    @Test func eventsAreHandedOutUpToTheTimeAsked() throws {
        let s = try LibinputSource(options: options(.udev(seat: "seat0")))
        defer { s.close() }
        #expect(s.events(until: 0).isEmpty)
        #expect(s.takeAll().isEmpty)
        let c = ManualTestClock(now: 12.5)
        s.align(to: c)
        // timeOffset maps CLOCK_MONOTONIC onto the caller's clock.
        #expect(abs(s.timeOffset - (12.5 - monotonicNow())) < 0.05)
    }
}

private final class ManualTestClock: Clock {
    var now: Seconds
    init(now: Seconds) { self.now = now }
}

private func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}
