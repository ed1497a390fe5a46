import Glibc
import KioskCLI
import KioskCommands

/// The whole command line: `kiosk-hud COMMAND [options]`. When the first argument names a
/// command, only that command's options are built (help and errors then concern that command
/// alone), which keeps the others' construction off the way to `show`'s first frame.
func kioskHUDCommandLine(first: String?) -> CommandSpec {
    let subcommands: [CommandSpec]
    switch first {
    case "render": subcommands = [RenderCommand.spec]
    case "show": subcommands = [ShowCommand.spec]
    case "tilt": subcommands = [TiltCommand.spec]
    case "touch": subcommands = [TouchCommand.spec]
    case "daemon": subcommands = [DaemonCommand.spec]
    case "run": subcommands = [RunCommand.spec]
    case "ctl": subcommands = [CtlCommand.spec]
    case "plymouth": subcommands = [PlymouthCommand.spec]
    case "boards": subcommands = [BoardsCommand.spec]
    case "doctor": subcommands = [DoctorCommand.spec]
    case "theme": subcommands = [ThemeCommand.spec]
    case "frame-cache": subcommands = [FrameCacheCommand.spec]
    case "overlay": subcommands = [OverlayCommand.spec]
    default:
        subcommands = [RenderCommand.spec, ShowCommand.spec, DaemonCommand.spec, CtlCommand.spec, RunCommand.spec, PlymouthCommand.spec,
                       TiltCommand.spec, TouchCommand.spec, BoardsCommand.spec, DoctorCommand.spec, ThemeCommand.spec,
                       FrameCacheCommand.spec, OverlayCommand.spec]
    }
    return CommandSpec(
        "kiosk-hud", abstract: KioskHUDCommandLine.abstract,
        discussion: "kiosk-hud --version prints the version (kiosk-hud \(kioskHUDVersion)).",
        subcommands: subcommands)
}

@main
enum KioskHUDMain {
    /// Exit codes: 0 done (or help shown), 1 error, 64 bad command line (EX_USAGE; `plymouth`:
    /// 1, as plymouth's), or the command's own (`ExitCode`). Run by a link named `plymouth`, it
    /// is `kiosk-hud plymouth`.
    static func main() {
        StartMarks.mark(.runtime)
        ShowCommand.takeEarlyFrame = takeEarlyFrame
        ShowCommand.earlyFrameShown = earlyFrameShown
        ShowCommand.showCachedFrame = showCachedFrame(on:)
        var arguments = Array(CommandLine.arguments.dropFirst())
        if CommandLine.arguments.first?.split(separator: "/").last == "plymouth" { arguments.insert("plymouth", at: 0) }
        // `kiosk-hud --version`: "kiosk-hud VERSION" (KioskCLI's kioskHUDVersion).
        if arguments == ["--version"] {
            writeText("kiosk-hud \(kioskHUDVersion)\n", to: 1)
            exit(0)
        }
        // `kiosk-hud --man [COMMAND [VERB]]`: the manual page (roff) made from the same declarations
        // as --help (Tools/install.sh installs them).
        if arguments.first == "--man" {
            let page = Array(arguments.dropFirst())
            let root = kioskHUDCommandLine(first: page.first)
            writeText(manPage(root: root, path: [root.name] + page), to: 1)
            exit(0)
        }
        let root = kioskHUDCommandLine(first: arguments.first)
        var path = [root.name]
        do {
            switch try parseCommandLine(arguments, root: root) {
            case let .help(command):
                writeText(helpText(root: root, path: command), to: 1)
            case let .run(command, values):
                path = command
                switch command.count > 1 ? command[1] : "" {
                case "render": try RenderCommand(values).run()
                case "show": try ShowCommand(values).run()
                case "tilt": try TiltCommand(values).run()
                case "touch": try TouchCommand(values).run()
                case "daemon": try DaemonCommand.run(values)
                case "run": try RunCommand.run(values)
                case "ctl" where command.count == 3: try CtlCommand.run(command[2], values)
                case "plymouth": try PlymouthCommand.run(values)
                case "boards" where command.count == 3: try BoardsCommand.run(command[2], values)
                case "doctor": try DoctorCommand.run(values)
                case "theme": try ThemeCommand.run(values)
                case "frame-cache" where command.count == 3: try FrameCacheCommand.run(command[2], values)
                case "overlay": try OverlayCommand.run(values)
                default: throw UsageError("unknown command", command: command)
                }
            }
            exit(0)
        } catch let e as UsageError {
            let p = e.command.isEmpty ? path : e.command
            var spec = root
            for name in p.dropFirst() { spec = spec.subcommands.first { $0.name == name } ?? spec }
            writeText("Error: \(e.message)\nUsage: \(usageLine(spec, path: p))\n  See '\(p.joined(separator: " ")) --help' for more information.\n", to: 2)
            exit(p.count > 1 && p[1] == "plymouth" ? PlymouthCommand.refused : 64)
        } catch let e as ExitCode {
            exit(e.code)
        } catch {
            writeText("Error: \(error)\n", to: 2)
            exit(1)
        }
    }
}
