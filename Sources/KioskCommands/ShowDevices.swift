import KioskBoards
import KioskSeams
import KioskIIO
import KioskInput
import KioskSession
import KioskSys

/// `show`'s input (libinput) and tilt (the IIO sampler thread), started after the first frame so
/// that loading libinput and finding the sensor do not delay it.
struct ShowDevices {
    var input: LibinputSource?
    var tilt: IIOMotionSource?
    /// The tilt sampler's system calls (its thread's and the loop's, so one both may use).
    var kernel: any Kernel & Sendable = LinuxKernel()

    /// Starts input on the first display's picture and the tilt; each that cannot start is one
    /// log line, and `show` goes on without it.
    mutating func start(_ show: ShowCommand, session: HUDSession, settings: HUDSettings, rotation: Rotation, clock: any Clock & Sendable) {
        if !show.noInput, let own = session.screen.input {
            // The compositor's seat: its devices are the compositor's, not ours to open.
            do {
                try session.attachInput(own)
                showLog("input: the screen's own (the compositor's pointer and touch on the HUD)")
            } catch {
                showLog("input: cannot start (\(error)); going on without input")
            }
        } else if !show.noInput, let d = session.displays.first?.display {
            do {
                var opts = try settings.libinputOptions(transform: d.transform, connector: d.name, log: { showLog($0) })
                opts.clock = clock
                let extras = show.extras
                opts.onDeviceChange = { name, added in extras?.inputChanged(name, added: added) }
                let s = try LibinputSource(options: opts)
                s.align(to: clock)
                try session.attachInput(s)
                input = s
                showLog("input: listening on \(settings.inputs.isEmpty ? settings.seat : settings.inputs.joined(separator: " ")) " +
                        "(\(s.devices.count) device(s)); picture \(d.transform.width)x\(d.transform.height) rotation=\(d.transform.rotation.rawValue)")
            } catch {
                showLog("input: cannot start (\(error)); going on without input")
            }
        }
        do {
            let setup = MotionSetup(settings, rotation: rotation)
            guard setup.enabled else { return }
            let source = try IIOMotionSource.start(settings: setup.sampler, clock: clock, kernel: kernel, log: { showLog($0) })
            tilt = source
            try session.attachMotion(source, filter: setup.filter)
        } catch {
            showLog("tilt: \(error); going on without it")
        }
    }

    mutating func stop() {
        input?.close(); input = nil
        tilt?.stop(); tilt = nil
    }
}
