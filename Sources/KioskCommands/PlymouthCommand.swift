import KioskBoards
import KioskCLI
import KioskDaemon
import KioskSettings
import KioskSys

/// `kiosk-hud plymouth …`: the `plymouth` command's forms over Plymouth's protocol, with its
/// exit codes, so that kiosk-hud can stand in for /usr/bin/plymouth (a link named `plymouth`
/// runs this; docs/plymouth.md) in front of `kiosk-hud daemon --plymouth` — or of plymouthd.
public enum PlymouthCommand {
    /// Plymouth's exit codes.
    public static let refused: Int32 = 1, disconnected: Int32 = 2

    /// Sends the request the options name and prints the answer (see the spec's exit codes).
    public static func run(_ a: ParsedArguments) throws {
        let debug = a.flag(.debug)
        if a.flag(.getSplashPluginPath) {
            writeLine("Error: kiosk-hud has no Plymouth splash plugins", to: 2)
            throw ExitCode(refused)
        }
        var pipeline: [PlymouthRequest]
        var wait = false
        if let name = a.positionals.first {
            guard let command = commands.first(where: { $0.name == name }) else {
                throw UsageError("unknown command '\(shown(name))'", command: ["kiosk-hud", "plymouth"])
            }
            let others = commands.flatMap(\.options).filter { !command.options.contains($0) }
            if let o = others.first(where: a.given) { throw UsageError("--\(o) does not go with \(name)", command: ["kiosk-hud", "plymouth"]) }
            pipeline = try requests(for: name, a)
        } else if let action = try topLevel(a) {
            pipeline = action
        } else if a.flag(.wait) {
            pipeline = []
            wait = true
        } else {
            if let o = commands.flatMap(\.options).first(where: a.given) {
                throw UsageError("--\(o) goes with a command (\(commands.filter { $0.options.contains(o) }.map(\.name).joined(separator: ", ")))",
                                 command: ["kiosk-hud", "plymouth"])
            }
            writeText(helpText(root: CommandSpec("kiosk-hud", abstract: KioskHUDCommandLine.abstract, subcommands: [spec]), path: ["kiosk-hud", "plymouth"]), to: 2)
            return   // plymouth without a request: its help, and 0
        }
        let socket = a.string(.socket) ?? PlymouthWire.defaultSocketName
        let client: PlymouthClient
        do { client = try PlymouthClient(name: socket) } catch {
            if debug { writeLine("plymouth: \(error)", to: 2) }
            if wait { return }   // nothing to wait for
            throw ExitCode(refused)
        }
        do {
            if wait {
                try client.waitForEnd()
                return
            }
            let replies = try client.send(pipeline)
            if debug {
                writeLine("plymouth: sent \(pipeline.map(\.name).joined(separator: ", ")); replies: \(replies.map { "\($0)" }.joined(separator: ", "))", to: 2)
            }
            // Every reply but the last (a pause before a question) only has to come.
            guard replies.count == pipeline.count, let last = replies.last else { throw PlymouthClient.Failure.disconnected }
            switch last {
            case .ack: return
            case let .answer(bytes):
                if a.given(.command) { writeLine("Error: --command is not supported; the answer is not passed on", to: 2); throw ExitCode(refused) }
                writeLine(String(decoding: bytes, as: UTF8.self), to: 1)
            case let .answers(list):
                for b in list { writeLine(String(decoding: b, as: UTF8.self), to: 1) }
            case .nak, .noAnswer:
                throw ExitCode(refused)
            }
        } catch let f as PlymouthClient.Failure {
            switch f {
            case .disconnected:
                writeLine("error: \(f)", to: 2)
                throw ExitCode(disconnected)
            default:
                writeLine("error: \(f)", to: 2)
                throw ExitCode(refused)
            }
        }
    }
}
