import Glibc
import KioskCLI

/// The whole command line: `kiosk-hud COMMAND [options]`.
let kioskHUDCommandLine = CommandSpec(
    "kiosk-hud",
    abstract: "An MBProgressHUD-style overlay for kiosk Linux boards, drawn straight to the screen.",
    subcommands: [RenderCommand.spec, ShowCommand.spec, TiltCommand.spec, TouchCommand.spec])

/// Ends the program with `code` after the command has cleaned up (thrown out of `run()`).
struct ExitCode: Error {
    var code: Int32
    init(_ code: Int32) { self.code = code }
}

@main
enum KioskHUDMain {
    /// Exit codes: 0 done (or help shown), 1 error, 64 bad command line (EX_USAGE), or the
    /// command's own (`ExitCode`).
    static func main() {
        let root = kioskHUDCommandLine
        var path = [root.name]
        do {
            switch try parseCommandLine(Array(CommandLine.arguments.dropFirst()), root: root) {
            case let .help(command):
                write(helpText(root: root, path: command), to: 1)
            case let .run(command, values):
                path = command
                switch command.last {
                case "render": try RenderCommand(values).run()
                case "show": try ShowCommand(values).run()
                case "tilt": try TiltCommand(values).run()
                case "touch": try TouchCommand(values).run()
                default: throw UsageError("unknown command", command: command)
                }
            }
            exit(0)
        } catch let e as UsageError {
            let p = e.command.isEmpty ? path : e.command
            var spec = root
            for name in p.dropFirst() { spec = spec.subcommands.first { $0.name == name } ?? spec }
            write("Error: \(e.message)\nUsage: \(usageLine(spec, path: p))\n  See '\(p.joined(separator: " ")) --help' for more information.\n", to: 2)
            exit(64)
        } catch let e as ExitCode {
            exit(e.code)
        } catch {
            write("Error: \(error)\n", to: 2)
            exit(1)
        }
    }

    private static func write(_ text: String, to fd: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return }
            bytes = bytes.dropFirst(n)
        }
    }
}
