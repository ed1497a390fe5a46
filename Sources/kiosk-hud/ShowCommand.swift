import ArgumentParser

/// `kiosk-hud show`: the HUD on the real display (DRM/KMS, fbdev fallback).
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the HUD on the display.")
    func run() throws { throw ValidationError("show: not built yet") }
}
