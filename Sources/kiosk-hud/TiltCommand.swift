import ArgumentParser

/// `kiosk-hud tilt`: reads the accelerometer and prints the filtered bezel offset (bring-up aid).
struct TiltCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tilt", abstract: "Print the tilt offset the accelerometer gives.")
    func run() throws { throw ValidationError("tilt: not built yet") }
}
