import KioskBoards
import KioskCLI
import KioskDaemon
import KioskSettings
import KioskSys

/// What each form of the plymouth command sends (PlymouthCommand.run sends it).
extension PlymouthCommand {
    /// The requests of a command.
    static func requests(for name: String, _ a: ParsedArguments) throws -> [PlymouthRequest] {
        func text(_ option: String) throws -> String {
            guard let t = a.string(option) else { throw UsageError("\(name) needs --\(option)", command: ["kiosk-hud", "plymouth"]) }
            return try fits(t, option)
        }
        let pause = !a.flag(.dontPauseProgress)
        switch name {
        case "change-mode":
            let given = modes.filter(a.flag)
            guard let m = given.first.flatMap(PlymouthMode.init(rawValue:)) else {
                writeLine("Error no mode specified for 'change-mode' command", to: 2)
                throw ExitCode(refused)
            }
            return [.changeMode(m)]
        case "system-update": return [.systemUpdate(try a.value(.progress)?.int ?? 0)]
        case "update": return [.status(try text("status"))]
        case "update-root-fs":
            if let dir = a.string(.newRootDir) { return [.newRoot(try fits(dir, "new-root-dir"))] }
            guard a.flag(.readWrite) else { throw UsageError("update-root-fs needs --new-root-dir or --read-write", command: ["kiosk-hud", "plymouth"]) }
            return [.systemInitialized]
        case "show-splash": return [.showSplash]
        case "hide-splash": return [.hideSplash]
        case "ask-for-password":
            return (pause ? [.pauseProgress] : []) + [.password(prompt: try a.string(.prompt).map { try fits($0, "prompt") })]
        case "ask-question":
            return (pause ? [.pauseProgress] : []) + [.question(prompt: try a.string(.prompt).map { try fits($0, "prompt") })]
        case "display-message": return [.showMessage(try text("text"))]
        case "hide-message": return [.hideMessage(try text("text"))]
        case "watch-keystroke": return [.watchKeystroke(keys: try a.string(.keys).map { try fits($0, "keys") })]
        case "ignore-keystroke": return [.ignoreKeystroke(keys: try a.string(.keys).map { try fits($0, "keys") })]
        case "pause-progress": return [.pauseProgress]
        case "unpause-progress": return [.unpauseProgress]
        case "report-error": return [.reportError]
        case "deactivate": return [.deactivate]
        case "reactivate": return [.reactivate]
        default: return [.quit(retain: a.flag(.retainSplash))]
        }
    }

    /// The top-level option that acts, in plymouth's order of precedence; nil: none.
    static func topLevel(_ a: ParsedArguments) throws -> [PlymouthRequest]? {
        if a.flag(.showSplash) { return [.showSplash] }
        if a.flag(.hideSplash) { return [.hideSplash] }
        if a.flag(.quit) { return [.quit(retain: false)] }
        if a.flag(.ping) { return [.ping] }
        if a.flag(.hasActiveVt) { return [.hasActiveVT] }
        if let s = a.string(.update) { return [.status(try fits(s, "update"))] }
        if a.flag(.askForPassword) { return [.pauseProgress, .password(prompt: nil)] }
        if let k = a.string(.ignoreKeystroke) { return [.ignoreKeystroke(keys: try fits(k, "ignore-keystroke"))] }
        if a.flag(.sysinit) { return [.systemInitialized] }
        if let r = a.string(.newroot) { return [.newRoot(try fits(r, "newroot"))] }
        if a.flag(.details) { return [.reportError] }
        return nil
    }

    /// `text` if the wire can carry it (254 bytes, no NUL).
    static func fits(_ text: String, _ option: String) throws -> String {
        guard text.utf8.count <= PlymouthWire.maxArgument else {
            throw UsageError(optionError(option, text, expected: "text of at most \(PlymouthWire.maxArgument) bytes"), command: ["kiosk-hud", "plymouth"])
        }
        return text
    }
}
