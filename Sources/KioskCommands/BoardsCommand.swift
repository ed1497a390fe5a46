import KioskBoards
import KioskCLI
import KioskSettings
import KioskSys

/// `kiosk-hud boards list|detect|show`: the board profiles this binary can use, which one
/// `--board auto` takes on this board and why, and a profile's every setting.
public enum BoardsCommand {
    static let root = OptionSpec(.root, value: "DIR", rule: .path,
                                 help: "A directory standing for / (a copy of another board's /proc/device-tree and /sys, tests). Default: $KIOSK_BOARD_ROOT, else /.")
    static let places = """
        Profiles are looked for in /etc/kiosk-hud/boards (your own, first), then share/kiosk-hud/boards \
        beside the binary's directory (/usr/share/kiosk-hud/boards when installed from the package), then \
        among the ones built into kiosk-hud; the first of a name hides the others. Boards/README.md \
        describes the format.
        """

    /// `kiosk-hud boards`' verbs, options, help and manual page.
    public static let spec = CommandSpec("boards", abstract: "List the board profiles, detect this board's, show one.", subcommands: [
        CommandSpec("list", abstract: "List the board profiles: name, where from, [match] rules.", discussion: places, groups: [OptionGroup([root])]),
        CommandSpec("detect", abstract: "Say what this board is, which profile --board auto takes, and why the others do not match.",
                    discussion: """
                    A profile matches when every [match] rule it has holds; the one with the most rules wins \
                    (then your own before installed before built-in, then by name); none: generic.
                    """, groups: [OptionGroup([root])]),
        CommandSpec("show", abstract: "Print a profile as a board file, every key with its value after the defaults.",
                    discussion: "BOARD: a name, a TOML file, or auto (the one --board auto takes; the default).",
                    groups: [OptionGroup([root])], positionals: [PositionalSpec("board", help: "auto, a name or a file.", optional: true)]),
    ])

    /// Runs `verb` (list, detect, show).
    public static func run(_ verb: String, _ a: ParsedArguments) throws {
        let root = a.string(.root) ?? environmentValue("KIOSK_BOARD_ROOT") ?? ""
        let catalog = BoardCatalog.system(root: root)
        let facts = BoardFacts(root: root)
        switch verb {
        case "list": list(catalog)
        case "detect": detect(catalog, facts)
        default:
            let request = BoardSelection.Request(a.positionals.first ?? "auto")
            let s: BoardSelection
            do { s = try BoardSelection.select(request, catalog: catalog, facts: facts) } catch { throw UsageError(error.description) }
            for note in s.notes { writeLine("kiosk-hud: " + note, to: 2) }
            let from = s.source.map { "\($0)" } ?? "--board"
            writeText(s.profile.boardFile(header: [
                "KioskHUD board profile \(s.name) (\(from)): every key, with the defaults filled in.",
                "Sizes are in points; scale turns them into pixels. Colours are #RRGGBB or #RRGGBBAA.",
            ]), to: 1)
        }
    }

    static func list(_ catalog: BoardCatalog) {
        let dirs = catalog.directories.map { "\($0.path)\($0.present ? "" : " (none)")" } + ["built-in"]
        writeLine("# looked in: " + dirs.joined(separator: ", "), to: 1)
        let width = catalog.entries.map(\.name.count).max() ?? 0
        for e in catalog.entries {
            var line = e.name + String(repeating: " ", count: width - e.name.count + 2) + "\(e.source)"
            if !e.hides.isEmpty { line += " (hides \(e.hides.map(\.description).joined(separator: ", ")))" }
            if let p = e.problem { line += ": cannot be used: \(p)" } else {
                line += ": " + (e.match.isEmpty ? (e.name == "generic" ? "no rules (the fallback)" : "no rules (by name only)") : e.match.summary)
            }
            writeLine(line, to: 1)
        }
    }

    static func detect(_ catalog: BoardCatalog, _ facts: BoardFacts) {
        var out = "This board:\n"
        out += "  model: " + (facts.model.map { "\($0.text) (\($0.source.rawValue))" } ?? "unknown (no device tree, no DMI)") + "\n"
        out += "  compatible: " + (facts.compatible.isEmpty ? "none (no device tree)" : facts.compatible.joined(separator: ", ")) + "\n"
        let cards = facts.cards.map { c in
            let connectors = c.connectors.map { "\($0.name) \($0.status ?? "?")" + modes(facts, $0) }
            return "\(c.name) (\(facts.driverNames(of: c) ?? "no driver")\(connectors.isEmpty ? "" : ": " + connectors.joined(separator: ", ")))"
        }
        out += "  DRM: " + (cards.isEmpty ? "none" : cards.joined(separator: "; ")) + "\n"
        out += "  input: " + (facts.inputNames.isEmpty ? "none" : facts.inputNames.map(quoted).joined(separator: ", ")) + "\n"
        out += "  IIO: " + (facts.iioNames.isEmpty ? "none" : facts.iioNames.joined(separator: ", ")) + "\n"
        let d = BoardDetection.detect(catalog, facts: facts, explain: true)
        out += "Profiles, most specific first:\n"
        for r in d.results {
            let mark: String
            switch r.outcome {
            case .matched: mark = "yes"
            case .failed: mark = "no "
            case .invalid: mark = "bad"
            case .noRules, .notChecked: mark = " - "
            }
            let n = r.entry.match.specificity
            out += "  \(mark) \(r.entry.name) (\(r.entry.source)\(n > 0 ? ", \(n) rule\(n == 1 ? "" : "s")" : "")): \(r.why)\n"
        }
        if let c = d.chosen {
            out += "Chosen: \(c.name) (\(c.source)): \(d.reason)\n"
        } else {
            let g = catalog.entry(named: "generic")?.source ?? .builtIn
            out += "Chosen: generic (\(g)): \(d.reason)\n"
        }
        out += "Decided: " + decided(d, catalog) + "\n"
        writeText(out, to: 1)
    }

    /// When the answer holds: from the board alone, or on the display as it is now — which at
    /// boot may come later (show and daemon detect again when a display appears).
    static func decided(_ d: BoardDetection, _ catalog: BoardCatalog) -> String {
        if let c = d.chosen, c.match.kinds.contains(where: \.isDisplay) {
            return "on the display as it is now; at boot, show and daemon start before the display may be there and detect again when it appears, so they take \(c.name) once it has"
        }
        if d.mayChangeWithDisplay {
            return "for now: \(d.awaitingDisplay.joined(separator: ", ")) \(d.awaitingDisplay.count == 1 ? "fails" : "fail") only on the display's rules (its driver, connector or mode may not be there yet); "
                + "show and daemon detect again each time a display appears, and take the profile that matches then"
        }
        let displayRules = catalog.entries.contains { e in e.problem == nil && e.match.kinds.contains(where: \.isDisplay) }
        return displayRules ? "from the board and the display as they are now (at boot: again each time a display appears)" : "from the board alone (no profile has display rules): the same at boot"
    }

    /// " [800x480]": a connector's first modes, for `detect`.
    static func modes(_ facts: BoardFacts, _ c: BoardFacts.Connector) -> String {
        let m = facts.modes(of: c)
        guard !m.isEmpty else { return "" }
        return " [" + m.prefix(3).joined(separator: " ") + (m.count > 3 ? " …" : "") + "]"
    }

    static func quoted(_ s: String) -> String { "\"\(s)\"" }
}

/// The options declared here, by name (see KioskCLI's OptionKey).
extension OptionKey {
    public static let root = OptionKey("root")
}
