// `--board auto|NAME|FILE`: the profile a command starts from, and the one log line that says
// which and why. Then the command line goes over it (`HUDSettings.resolved`).
import KioskCLI
import KioskSettings
import KioskSys

/// The board profile a command starts from.
public struct BoardSelection: Sendable {
    /// The profile's name (its file name without .toml), or the file given.
    public var name: String
    /// Where it came from (nil: a file named by --board).
    public var source: BoardSource?
    public var profile: BoardProfile
    /// The files it was read from, and the profile directories that exist (for the frame cache:
    /// a change to one, or a profile added or removed, means drawing anew).
    public var files: [String]
    /// "board rpi-touch-display (built-in): detected: the most specific match (2 rules): …".
    public var line: String
    /// Profiles skipped on the way (unreadable, invalid), and keys the chosen profile gives by
    /// their earlier, deprecated names, one line each.
    public var notes: [String]
    /// The detection, for `auto`.
    public var detection: BoardDetection?

    /// The built-in generic profile, chosen without looking anywhere (render, --offscreen).
    public static let builtInGeneric = BoardSelection(name: "generic", source: .builtIn, profile: .generic, files: [],
                                                      line: "board generic (built-in)", notes: [], detection: nil)

    /// What `--board VALUE` names: `auto`, a file (a path with a `/` or ending in .toml), or a
    /// profile by name.
    public enum Request: Equatable, Sendable {
        case auto
        case name(String)
        case file(String)

        public init(_ value: String) {
            if value == "auto" { self = .auto } else if value.utf8.contains(0x2F) || value.hasSuffix(".toml") { self = .file(value) } else { self = .name(value) }
        }
    }

    /// The profile `request` names: detected on `facts` (auto), looked up in `catalog` (a name:
    /// the user's own first, then the installed ones, then the built-in ones), or read from a
    /// file. A name that is not there, or a profile that cannot be read or is not valid, is an
    /// error naming it; with `auto`, a profile that cannot be used is skipped (a note) and
    /// `generic` applies when none matches.
    /// (`catalog` is made only when needed: a file named by --board needs none.)
    public static func select(_ request: Request, catalog: @autoclosure () -> BoardCatalog, facts: BoardFacts) throws(SettingsError) -> BoardSelection {
        if case let .file(path) = request { return try file(path, kernel: facts.kernel) }
        let catalog = catalog()
        var s = try choose(request, catalog: catalog, facts: facts)
        s.files += catalog.directories.filter(\.present).map(\.path)
        return s
    }

    /// The profile in the file at `path` (--board FILE).
    static func file(_ path: String, kernel: any KernelFiles) throws(SettingsError) -> BoardSelection {
        let bytes: [UInt8]
        do { bytes = try kernel.readFileBytes(path, limit: TOMLTable.maxDocumentBytes) } catch {
            throw SettingsError("cannot read board profile: \(error)")
        }
        var notes: [String] = []
        let p = try BoardProfile.parse(bytes, source: path, notes: &notes)
        return BoardSelection(name: path, source: nil, profile: p, files: [path], line: "board \(path) (--board)", notes: notes, detection: nil)
    }

    static func choose(_ request: Request, catalog: BoardCatalog, facts: BoardFacts) throws(SettingsError) -> BoardSelection {
        switch request {
        case let .file(path):
            return try file(path, kernel: facts.kernel)
        case let .name(name):
            guard let e = catalog.entry(named: name) else {
                throw SettingsError("--board \(shown(name)): no board profile of that name (there are: \(catalog.entries.map(\.name).joined(separator: ", ")); or give a file)")
            }
            let p = try e.profile()
            return BoardSelection(name: name, source: e.source, profile: p, files: e.source.path.map { [$0] } ?? [],
                                  line: "board \(name) (\(e.source)): --board", notes: e.deprecations, detection: nil)
        case .auto:
            let d = BoardDetection.detect(catalog, facts: facts)
            var notes = d.results.compactMap { r -> String? in
                if case let .invalid(problem) = r.outcome { return "board profile \(r.entry.source) skipped: \(problem)" }
                return nil
            }
            if let c = d.chosen, let why = d.results.first(where: { $0.entry.name == c.name }) {
                do throws(SettingsError) {
                    let p = try c.profile()
                    return BoardSelection(name: c.name, source: c.source, profile: p, files: c.source.path.map { [$0] } ?? [],
                                          line: "board \(c.name) (\(c.source)): detected, \(d.reason): \(why.why)" + d.awaitingNote, notes: notes + c.deprecations,
                                          detection: d)
                } catch {
                    notes.append("board profile \(c.source) skipped: \(error)")
                }
            }
            var profile = BoardProfile.generic, source = BoardSource.builtIn
            if let g = catalog.entry(named: "generic"), g.source.kind != .builtIn {
                do throws(SettingsError) { profile = try g.profile(); source = g.source; notes += g.deprecations } catch {
                    notes.append("board profile \(g.source) skipped: \(error)")
                }
            }
            return BoardSelection(name: "generic", source: source, profile: profile, files: source.path.map { [$0] } ?? [],
                                  line: "board generic (\(source)): \(d.reason)" + d.awaitingNote, notes: notes, detection: d)
        }
    }
}

extension HUDSettings {
    /// The settings for a command: every default, `profile` over them, then the options given on
    /// the command line (those of the settings table) over that. An option's value that breaks
    /// its rule is an error naming the option.
    public static func resolved(profile: BoardProfile, arguments a: ParsedArguments) throws(SettingsError) -> HUDSettings {
        var s = HUDSettings.defaults
        s.profile = profile
        try table.apply(options: { a.strings($0).isEmpty ? nil : a.strings($0) }, flag: { a.optionalFlag($0) }, to: &s)
        return s
    }
}

extension BoardDetection {
    /// "; rpi-touch-display waits for the display: detected again when one appears" (or "").
    public var awaitingNote: String {
        guard mayChangeWithDisplay else { return "" }
        let names = awaitingDisplay.joined(separator: ", ")
        return "; \(names) \(awaitingDisplay.count == 1 ? "waits" : "wait") for the display (its DRM driver, connector or mode): detected again when one appears"
    }
}
