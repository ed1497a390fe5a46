import ArgumentParser

/// `kiosk-hud touch`: prints input events as the HUD sees them (bring-up aid for calibration).
struct TouchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "touch", abstract: "Print touch, pointer and key events in screen coordinates.")
    func run() throws { throw ValidationError("touch: not built yet") }
}
