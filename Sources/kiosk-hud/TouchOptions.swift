import KioskBoards
import KioskCLI
import KioskDevices
import KioskInput

/// Where touch, pointer and key events come from, shared by `touch` and `show`. In `show`, each
/// overrides the board profile's `[touch]`.
struct TouchOptions {
    static let options: [OptionSpec] = [
        OptionSpec("seat", help: "udev seat (hotplug; default seat0)."),
        OptionSpec("input", .repeated, value: "/dev/input/eventN", help: "A device node instead of the seat; repeatable."),
        OptionSpec("touch-matrix", value: "a,b,c,d,e,f",
                   help: "Calibration matrix for touch devices (or rotate-90, rotate-180, rotate-270); default: the board profile's, else udev's LIBINPUT_CALIBRATION_MATRIX."),
        OptionSpec("bind-touch", .repeated, value: "DEVICE=OUTPUT", help: "Bind a touch device to an output; repeatable."),
        .flag("no-input", help: "No touch, pointer or keys (show only)."),
    ]

    var seat = "seat0"
    var inputs: [String] = []
    var touchMatrix: String?
    var bindings: [String] = []
    var noInput = false

    init(_ a: ParsedArguments) {
        seat = a.string("seat") ?? seat
        inputs = a.strings("input")
        touchMatrix = a.string("touch-matrix")
        bindings = a.strings("bind-touch")
        noInput = a.flag("no-input")
    }

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
        } catch let e as CalibrationMatrix.ParseError { throw UsageError(e.description) }
        catch let e as LibinputError { throw UsageError(e.description) }
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
