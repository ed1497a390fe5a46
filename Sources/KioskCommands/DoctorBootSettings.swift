// The settings the boot's daemon starts with, as `kiosk-hud doctor` and `kiosk-hud theme` need
// them: /etc/default/kiosk-hud's KIOSK_HUD_PLYMOUTH and KIOSK_HUD_ARGS (split as systemd and the
// initramfs's script split them: at blanks, quotes keeping words together), parsed by the
// daemon's own command line, then the board profile they choose (--board, else detected on the
// system under the root) with the options over it — what `kiosk-hud daemon` itself resolves.
import KioskBoards
import KioskCLI
import KioskSettings
import KioskSys

/// The boot daemon's settings on the system under `root`.
struct BootSettings {
    /// The options file (under the root).
    static let defaultsPath = "/etc/default/kiosk-hud"

    /// "" for the real system, else the directory standing for /.
    var root: String
    /// KIOSK_HUD_PLYMOUTH's and KIOSK_HUD_ARGS's words, in the unit's order.
    var words: [String] = []
    /// The daemon's options parsed (nil: they could not be; `problem` says why).
    var arguments: ParsedArguments?
    /// Why the options or the profile cannot be used.
    var problem: String?
    /// What `--board` asks for (auto when not given).
    var request = BoardSelection.Request.auto
    /// Whether --board was given in KIOSK_HUD_ARGS.
    var boardGiven = false
    /// The profiles the system has, and what detection reads.
    var catalog: BoardCatalog
    var facts: BoardFacts
    /// The profile chosen (nil: `problem`).
    var selection: BoardSelection?
    /// The settings: the profile, the options over it (nil: `problem`).
    var settings: HUDSettings?

    /// Reads the options file and the board's facts through `kernel` and resolves the
    /// settings; a problem is kept, not thrown.
    init(root: String, kernel: any Kernel) {
        self.root = root
        catalog = BoardCatalog.system(root: root)
        facts = BoardFacts(root: root, kernel: kernel)
        let values = (try? kernel.readSmallFile(root + Self.defaultsPath, limit: 1 << 16)).map(shellAssignments) ?? [:]
        do {
            words = try splitWords(values["KIOSK_HUD_PLYMOUTH"] ?? "") + splitWords(values["KIOSK_HUD_ARGS"] ?? "")
        } catch {
            problem = "KIOSK_HUD_ARGS in \(Self.defaultsPath): \(error)"
            return
        }
        let spec = CommandSpec("kiosk-hud", abstract: "", subcommands: [DaemonCommand.spec])
        do {
            guard case let .run(_, a) = try parseCommandLine(["daemon"] + words, root: spec) else {
                problem = "KIOSK_HUD_ARGS in \(Self.defaultsPath) asks for help, not a daemon"
                return
            }
            arguments = a
        } catch {
            problem = "KIOSK_HUD_ARGS in \(Self.defaultsPath): \(error.message)"
            return
        }
        if let b = arguments?.string(.board) { request = BoardSelection.Request(b); boardGiven = true }
        select(request)
    }

    /// Chooses the profile `request` names (theme's --board) and resolves the settings over it.
    mutating func select(_ request: BoardSelection.Request) {
        self.request = request
        do {
            // A profile file named relative to the root's / (the daemon's working directory).
            var r = request
            if case let .file(p) = request { r = .file(root + (p.hasPrefix("/") ? p : "/" + p)) }
            let s = try BoardSelection.select(r, catalog: catalog, facts: facts)
            selection = s
            guard let a = arguments else { return }
            settings = try HUDSettings.resolved(profile: s.profile, arguments: a)
        } catch {
            problem = error.description
        }
    }

    /// Whether KIOSK_HUD_ARGS gives the option `name` (it then beats the profile).
    func optionGiven(_ name: String) -> Bool { arguments?.given(name) ?? false }
}

/// A word list that cannot be split: an unmatched quote.
struct WordSplitError: Error, CustomStringConvertible {
    var description: String
}

/// `text` split at blanks, with '…' and "…" keeping a word together and a backslash taking the
/// next character as it is (as the initramfs's script's `eval set --` and systemd split it).
func splitWords(_ text: String) throws(WordSplitError) -> [String] {
    var words: [String] = [], word = "", inWord = false
    var quote: Character?
    var escaped = false
    for c in text {
        if escaped { word.append(c); escaped = false; continue }
        if let q = quote {
            if c == q { quote = nil } else if c == "\\" && q == "\"" { escaped = true } else { word.append(c) }
            continue
        }
        switch c {
        case " ", "\t", "\n":
            if inWord { words.append(word); word = ""; inWord = false }
        case "'", "\"":
            quote = c; inWord = true
        case "\\":
            escaped = true; inWord = true
        default:
            word.append(c); inWord = true
        }
    }
    if quote != nil { throw WordSplitError(description: "a quote is not closed: \(shown(text))") }
    if inWord { words.append(word) }
    return words
}

/// The `NAME=value` lines of a shell-syntax file (/etc/default/kiosk-hud, initramfs.conf), the
/// value without its outer quotes; comments and other lines are skipped.
func shellAssignments(_ text: String) -> [String: String] {
    var out: [String: String] = [:]
    for raw in text.split(separator: "\n") {
        var line = Substring(raw)
        while let f = line.first, f == " " || f == "\t" { line = line.dropFirst() }
        if line.hasPrefix("export ") { line = line.dropFirst(7) }
        guard !line.hasPrefix("#"), let eq = line.firstIndex(of: "=") else { continue }
        let name = String(line[..<eq])
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { continue }
        var value = line[line.index(after: eq)...]
        while let l = value.last, l == " " || l == "\t" || l == "\r" { value = value.dropLast() }
        if value.count >= 2, let f = value.first, f == "\"" || f == "'", value.last == f {
            value = value.dropFirst().dropLast()
        } else if let hash = value.firstIndex(of: "#"), hash > value.startIndex, value[value.index(before: hash)] == " " {
            value = value[..<hash]
            while let l = value.last, l == " " { value = value.dropLast() }
        }
        out[name] = String(value)
    }
    return out
}
