import ArgumentParser

@main
struct KioskHUDCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk-hud",
        abstract: "An MBProgressHUD-style overlay for kiosk Linux boards, drawn straight to the screen.",
        subcommands: [RenderCommand.self, ShowCommand.self, TiltCommand.self, TouchCommand.self])
}
