import KioskBoards
import KioskCLI
import KioskDaemon
import KioskProtocol
import KioskSettings

/// `kiosk-hud ctl VERB`: one request to a running daemon (docs/protocol.md), from a shell
/// script: its options mirror render's, its exit code says how it went.
public enum CtlCommand {
    static let exitCodes = """
        Exit codes: 0 done; 1 wait-button: no press before --timeout; 2 the daemon refused the \
        request (the reason on stderr); 64 bad options; 69 no daemon at the socket; 70 the daemon \
        answered something that is not the protocol; 77 permission denied.
        """

    static let socket = FollowBootCommand.socket
    static let animated = OptionSpec(.animated, .inversibleFlag, help: "Animate (show, hide: default on; update: the progress eases).")

    static func verb(_ v: CtlVerb, _ abstract: String, _ options: [OptionSpec] = [], positionals: [PositionalSpec] = []) -> CommandSpec {
        CommandSpec(v.rawValue, abstract: abstract, discussion: exitCodes, groups: [OptionGroup([socket] + options)], positionals: positionals)
    }

    static let contentOptions = SettingOptions.options(group: SettingGroup.hud).filter { DaemonRequest.contentKeys.contains(optionKey($0.name)) }
    static let styleOptions = HUDSettings.table.settings.filter { $0.live && $0.option != nil && !DaemonRequest.contentKeys.contains($0.key) }
        .map { OptionSpec($0) }

    /// `kiosk-hud ctl`'s verbs, options, help and manual page.
    public static let spec = CommandSpec("ctl", abstract: "Send a request to a running kiosk-hud daemon.", subcommands: [
        verb(.ping, "Check that the daemon answers."),
        verb(.show, "Show the HUD.", [animated]),
        verb(.hide, "Hide the HUD.", [animated, OptionSpec(.delay, value: "s", rule: .number(0, 86_400, "seconds"), help: "Hide after this many seconds.")]),
        verb(.update, "Change what the HUD shows (the content options of render).", contentOptions + [animated]),
        verb(.style, "Change how the HUD looks (render's look options).", styleOptions),
        verb(.success, "Show a success mark with TEXT, then hide (SVProgressHUD's timing).", [duration], positionals: [text]),
        verb(.error, "Show an error mark with TEXT, then hide.", [duration], positionals: [text]),
        verb(.info, "Show TEXT, then hide.", [duration], positionals: [text]),
        verb(.push, "One more activity: shows the HUD."),
        verb(.pop, "One activity done: the last one hides the HUD."),
        verb(.press, "Press the HUD's button as a tap would (e.g. Cancel a `kiosk-hud run` from a maintenance shell)."),
        verb(.status, "Print what the HUD shows now, its look, the displays and the input devices, as JSON."),
        verb(.waitButton, "Wait until the HUD's button is pressed.", [OptionSpec(.timeout, value: "s", rule: .number(0, 31_536_000, minOpen: true, "seconds"), help: "Give up after this many seconds (exit 1).")]),
        verb(.quit, "End the daemon.", [.flag(.retain, help: "Leave the last frame on screen for the next program.")]),
        verb(.newRoot, "Tell the initramfs's daemon (daemon --initramfs) that the real root is mounted at PATH, before switch-root (the initramfs's init-bottom script does).",
             positionals: [PositionalSpec("path", help: "Where the real root is mounted (initramfs-tools: /root).")]),
        FollowBootCommand.spec,
    ])
    static let duration = OptionSpec(.duration, value: "s", rule: .number(0, 86_400, "seconds"),
                                     help: "How long it stays (default: 0.06 s a character + 0.5 s, at least 5 s).")
    static let text = PositionalSpec("text", help: "The message.")

    /// The setting key of an option name (the table's).
    static func optionKey(_ option: String) -> String { HUDSettings.table.setting(option: option)?.key ?? option }

    /// Sends `verb`'s request to the daemon (see the verbs' exit codes); `verb` as the command
    /// line names it (an unknown one is a usage error, 64).
    public static func run(_ verb: String, _ a: ParsedArguments) throws {
        guard let v = CtlVerb(rawValue: verb) else {
            writeLine("Error: ctl: unknown verb \(verb) (one of \(CtlVerb.allCases.map(\.rawValue).joined(separator: ", ")))", to: 2)
            throw ExitCode(64)
        }
        try run(v, a)
    }

    /// Sends `verb`'s request to the daemon (see the verbs' exit codes).
    public static func run(_ verb: CtlVerb, _ a: ParsedArguments) throws {
        let client: DaemonClient
        do { client = try DaemonClient(path: a.string(.socket) ?? ControlSocket.defaultPath) } catch { throw fail(error) }
        do {
            switch verb {
            case .ping, .push, .pop, .press: try client.request(verb.op)
            case .show: try client.request(.show, [("animated", .bool(a.optionalFlag(.animated) ?? true))])
            case .hide:
                try client.request(.hide, [("animated", .bool(a.optionalFlag(.animated) ?? true)), ("delay", .number(try a.double(.delay) ?? 0))])
            case .update: try client.request(.update, try settingFields(a, contentOptions) + [("animated", .bool(a.optionalFlag(.animated) ?? false))])
            case .style: try client.request(.style, try settingFields(a, styleOptions))
            case .success, .error, .info:
                let d = try a.double(.duration)
                try client.request(verb.op, [("text", .string(a.positionals.first ?? ""))] + (d.map { [("duration", .number($0))] } ?? []))
            case .status:
                let reply = try client.request(.status)
                writeLine(JSON.encode(.object(JSONObject(reply.keys.filter { $0 != "v" && $0 != "ok" }.map { ($0, reply[$0]!) }))), to: 1)
            case .waitButton:
                try client.request(.subscribe, [("events", .array([.string("button")]))])
                let timeout = try a.double(.timeout)
                do throws(DaemonClient.Failure) { _ = try client.nextEvent(timeout: timeout) } catch {
                    if case .timedOut = error { throw ExitCode(1) }
                    throw error
                }
            case .quit: try client.request(.quit, [("retain", .bool(a.flag(.retain)))])
            case .followBoot: try FollowBootCommand.run(client, a)
            case .newRoot: try client.request(.newRoot, [("path", .string(a.positionals.first ?? ""))])
            }
        } catch let e as DaemonClient.Failure { throw fail(e) }
    }

    /// The given options of `options` as request fields (each checked by its rule here too).
    static func settingFields(_ a: ParsedArguments, _ options: [OptionSpec]) throws -> [(String, JSONValue)] {
        var out: [(String, JSONValue)] = []
        for o in options where a.given(o.name) {
            guard let s = HUDSettings.table.setting(option: o.name) else { continue }
            if case .bool = s.rule.kind { out.append((s.key, .bool(a.optionalFlag(o.name) ?? false))); continue }
            if let v = try a.value(o.name) { out.append((s.key, v.json)) }
        }
        return out
    }

    static func fail(_ f: DaemonClient.Failure) -> Error {
        writeLine("Error: \(f)", to: 2)
        switch f {
        case .noDaemon: return ExitCode(69)
        case .permissionDenied: return ExitCode(77)
        case .refused: return ExitCode(2)
        case .protocolError, .connectionLost: return ExitCode(70)
        case .timedOut: return ExitCode(1)
        }
    }
}

/// `kiosk-hud ctl`'s verbs, as the command line names them.
public enum CtlVerb: String, Sendable, CaseIterable {
    case ping, show, hide, update, style, success, error, info, push, pop, press, status
    case waitButton = "wait-button", quit, newRoot = "new-root", followBoot = "follow-boot"

    /// The daemon's op the verb sends first: the op of the same name, but for wait-button
    /// (it subscribes), follow-boot (it sends updates) and new-root (the op's name has `_`).
    public var op: DaemonOp {
        switch self {
        case .waitButton: .subscribe
        case .followBoot: .update
        case .newRoot: .newRoot
        default: DaemonOp(rawValue: rawValue)!   // every other verb is an op's name (TypedWordsTests)
        }
    }
}

/// The options declared here, by name (see KioskCLI's OptionKey).
extension OptionKey {
    public static let animated = OptionKey("animated")
    public static let delay = OptionKey("delay")
    public static let timeout = OptionKey("timeout")
}
