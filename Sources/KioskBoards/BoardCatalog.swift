// Where board profiles are found, in this order: the user's own (/etc/kiosk-hud/boards), the
// installed ones (../share/kiosk-hud/boards beside the binary, /usr/share/kiosk-hud/boards for
// the package), then the ones built into the binary (Boards/*.toml as string constants, so that
// a binary copied alone still knows every shipped board). A profile is named by its file name
// without .toml; the first place that has a name wins and hides the others of that name.
import KioskSettings
import KioskSys

/// Where a profile comes from.
public struct BoardSource: Sendable, Equatable, CustomStringConvertible {
    /// The places, in the order they are looked at (and break ties in detection).
    public enum Kind: Int, Sendable, Comparable {
        case user = 0, installed = 1, builtIn = 2
        public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    public var kind: Kind
    /// The file (nil: built into the binary).
    public var path: String?

    public init(kind: Kind, path: String?) { self.kind = kind; self.path = path }

    public static let builtIn = BoardSource(kind: .builtIn, path: nil)

    /// The file's path, or "built-in".
    public var description: String { path ?? "built-in" }
}

/// A profile built into the binary: Boards/NAME.toml's text, and its `[match]` read ahead of
/// time, so that detection need not parse every profile (ShippedBoards.swift is generated from
/// Boards/ and checked by a test).
public struct ShippedBoard: Sendable {
    public let name: String
    public let match: BoardMatch
    public let text: String

    public init(name: String, match: BoardMatch, text: String) { self.name = name; self.match = match; self.text = text }
}

/// One profile the catalog knows.
public struct BoardEntry: Sendable {
    public var name: String
    public var source: BoardSource
    /// Its rules (empty when it has none, or could not be read).
    public var match: BoardMatch
    /// Why it cannot be used (unreadable, not a valid profile: file:line:column …), else nil.
    public var problem: String?
    /// Profiles of the same name that this one hides.
    public var hides: [BoardSource] = []
    /// The profile, already read (a file that differs from the built-in of its name).
    var parsed: BoardProfile?
    /// The text to read it from (a built-in, or a file equal to one).
    var text: String?
    /// Keys its file gives by their earlier, deprecated names, one line each.
    public var deprecations: [String] = []

    /// The settings of the profile (its file's, over the defaults).
    public func profile() throws(SettingsError) -> BoardProfile {
        if let problem { throw SettingsError(problem) }
        if let parsed { return parsed }
        if name == "generic", source.kind == .builtIn { return .generic }
        return try BoardProfile.parse(text ?? "", source: source.path ?? "built-in \(name)")
    }
}

/// Every profile that can be chosen, one per name.
public struct BoardCatalog: Sendable {
    /// One per name, the first found (user, installed, built-in), sorted by name.
    public private(set) var entries: [BoardEntry] = []
    /// A directory of profiles: where, which kind, whether it was there.
    public struct Directory: Sendable {
        public var path: String
        public var kind: BoardSource.Kind
        public var present = false

        public init(_ path: String, _ kind: BoardSource.Kind) { self.path = path; self.kind = kind }
    }

    /// The directories looked in, in order, with whether each was there.
    public private(set) var directories: [Directory] = []

    /// The profiles in `directories` (in order) over `builtIn`. (Structs, not tuples: a tuple
    /// array's type is made at run time, on the way to the first frame.)
    public init(directories dirs: [Directory], builtIn: [ShippedBoard] = ShippedBoards.all, kernel: any Kernel = LinuxKernel()) {
        var byName: [String: Int] = [:]
        func add(_ e: BoardEntry) {
            if let i = byName[e.name] { entries[i].hides.append(e.source); return }
            byName[e.name] = entries.count
            entries.append(e)
        }
        for var d in dirs {
            let (path, kind) = (d.path, d.kind)
            let names = kernel.listDirectory(path)
            d.present = names != nil
            directories.append(d)
            for file in names ?? [] where file.hasSuffix(".toml") && !file.hasPrefix(".") {
                let name = String(file.dropLast(5))
                guard !name.isEmpty, byName[name] == nil else {
                    if let i = byName[name] { entries[i].hides.append(BoardSource(kind: kind, path: path + "/" + file)) }
                    continue
                }
                add(Self.load(name: name, path: path + "/" + file, kind: kind, builtIn: builtIn.first { $0.name == name }, kernel: kernel))
            }
        }
        for b in builtIn { add(BoardEntry(name: b.name, source: .builtIn, match: b.match, text: b.text)) }
        entries.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    /// The places a system looks: `root`/etc/kiosk-hud/boards (root "": the real /), then
    /// `share/kiosk-hud/boards` beside the directory of `executable` (/usr/bin/kiosk-hud →
    /// /usr/share/kiosk-hud/boards), then the built-in profiles. Read through `kernel`.
    public static func system(root: String = "", executable: String?, kernel: any Kernel = LinuxKernel()) -> BoardCatalog {
        var dirs = [Directory(root + userDirectory, .user)]
        if let installed = executable.flatMap(installedDirectory(executable:)) { dirs.append(Directory(installed, .installed)) }
        return BoardCatalog(directories: dirs, kernel: kernel)
    }

    /// `system(root:executable:kernel:)` for this program (`kernel`'s /proc/self/exe).
    public static func system(root: String = "", kernel: any Kernel = LinuxKernel()) -> BoardCatalog {
        system(root: root, executable: kernel.readLink("/proc/self/exe"), kernel: kernel)
    }

    /// The user's own profiles (under the root).
    public static let userDirectory = "/etc/kiosk-hud/boards"

    /// `<prefix>/share/kiosk-hud/boards` for a binary at `<prefix>/bin/kiosk-hud`.
    public static func installedDirectory(executable: String) -> String? {
        // Bytes, not split/joined: this runs on the way to the first frame, and the generic
        // algorithms' first use costs more than the rest of the catalog.
        let b = Array(executable.utf8)
        guard let last = b.lastIndex(of: 0x2F), let prev = b[..<last].lastIndex(of: 0x2F) else { return nil }
        return String(decoding: b[..<prev], as: UTF8.self) + "/share/kiosk-hud/boards"
    }

    /// The profile called `name`.
    public func entry(named name: String) -> BoardEntry? { entries.first { $0.name == name } }

    /// A profile file: kept as the built-in's text when it is the same (no parse now), else read
    /// (a file that is not a valid profile is kept with its problem).
    static func load(name: String, path: String, kind: BoardSource.Kind, builtIn: ShippedBoard?, kernel: any Kernel) -> BoardEntry {
        let source = BoardSource(kind: kind, path: path)
        let bytes: [UInt8]
        do { bytes = try kernel.readFileBytes(path, limit: TOMLTable.maxDocumentBytes) } catch {
            return BoardEntry(name: name, source: source, match: BoardMatch(), problem: "cannot read board profile: \(error)")
        }
        if let b = builtIn, b.text.utf8.count == bytes.count,
           b.text.utf8.withContiguousStorageIfAvailable({ $0.elementsEqual(bytes) }) ?? b.text.utf8.elementsEqual(bytes) {
            return BoardEntry(name: name, source: source, match: b.match, text: b.text)
        }
        do throws(SettingsError) {
            var notes: [String] = []
            let p = try BoardProfile.parse(bytes, source: path, notes: &notes)
            return BoardEntry(name: name, source: source, match: p.match, parsed: p, deprecations: notes)
        } catch {
            return BoardEntry(name: name, source: source, match: BoardMatch(), problem: error.description)
        }
    }
}

/// The profiles built into the binary: Boards/*.toml, by name (ShippedBoards.swift, generated
/// from Boards/ by a test, which fails when the two differ).
public enum ShippedBoards {
    public static var all: [ShippedBoard] { generated }
}
