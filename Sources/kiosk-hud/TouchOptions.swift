import ArgumentParser
import KioskBoards
import KioskDevices
import KioskInput

/// Where touch, pointer and key events come from, shared by `touch` and `show`
/// (`@OptionGroup var input: TouchOptions`). In `show`, each overrides the board profile's `[touch]`.
struct TouchOptions: ParsableArguments {
    @Option(help: "udev seat (hotplug).")
    var seat = "seat0"
    @Option(name: .customLong("input"), help: ArgumentHelp("A device node instead of the seat; repeatable.", valueName: "/dev/input/eventN"))
    var inputs: [String] = []
    @Option(name: .customLong("touch-matrix"), help: ArgumentHelp(
        "Calibration matrix for touch devices (or rotate-90, rotate-180, rotate-270); default: the board profile's, else udev's LIBINPUT_CALIBRATION_MATRIX.",
        valueName: "a,b,c,d,e,f"))
    var touchMatrix: String?
    @Option(name: .customLong("bind-touch"), help: ArgumentHelp("Bind a touch device to an output; repeatable.", valueName: "DEVICE=OUTPUT"))
    var bindings: [String] = []
    @Flag(name: .customLong("no-input"), help: "No touch, pointer or keys (show only).")
    var noInput = false

    /// libinput's options for a picture `transform` on `output`. `profile`'s matrix applies when
    /// --touch-matrix is not given; its device is bound to `output` when no --bind-touch is given.
    func libinputOptions(transform: DisplayTransform, output: String?, profile: TouchProfile? = nil,
                         log: @escaping (String) -> Void) throws -> LibinputOptions {
        var options = LibinputOptions(transform: transform)
        options.backend = inputs.isEmpty ? .udev(seat: seat) : .path(inputs)
        options.output = output
        do {
            options.calibration = try touchMatrix.map { text throws(CalibrationMatrix.ParseError) in try CalibrationMatrix(parsing: text) }
            options.bindings = try bindings.map { text throws(LibinputError) in try TouchBinding(parsing: text) }
        } catch let e as CalibrationMatrix.ParseError { throw ValidationError(e.description) }
        catch let e as LibinputError { throw ValidationError(e.description) }
        if let profile {
            if options.calibration == nil, let m = profile.matrix, m.count == 6 {
                options.calibration = CalibrationMatrix(m.map { Float($0) })
            }
            if bindings.isEmpty, let device = profile.device, let output {
                options.bindings = [TouchBinding(device: DeviceMatch(device), output: output)]
            }
        }
        options.log = log
        return options
    }
}
