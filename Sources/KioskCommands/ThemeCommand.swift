// `kiosk-hud theme`: the splash's logo, background and colours set in one command, as Plymouth's
// `plymouth-set-default-theme -R` and Raspberry Pi's `configure-splash` do, and the initramfs
// built again so that the boot's first frame has them.
//
// Where they go: the board profile the boot's daemon takes, as your own profile in
// /etc/kiosk-hud/boards/NAME.toml. kiosk-hud has no settings file of its own over the profile:
// a profile's keys are where a board's look lives, a file of that name there replaces the
// shipped profile (and keeps its [match], so detection still takes it), and the initramfs hook
// copies /etc/kiosk-hud/boards with the pictures the profile names. The other place, the
// options in /etc/default/kiosk-hud (KIOSK_HUD_ARGS), is shared by the boot unit, the shutdown
// units and the initramfs's script and beats the profile: theme leaves it alone and says when
// an option there hides what it set. A profile that is already yours (or a --board FILE) is
// edited in place; a shipped one is copied there first (its text, comments and all).
//
// Nothing is written until every value has passed the settings parser's own rule, every
// picture has been read as the daemon reads it, and the new profile has been read back: a bad
// colour or picture is one error line and the old files stay. Pictures from elsewhere are
// copied into /etc/kiosk-hud/pictures (a picture in a home directory or /tmp is not there at
// the next boot); ones under /etc/kiosk-hud or /usr/share stay where they are. The files are
// read and written, and update-initramfs run, through one `Kernel` made in `run`.
import Glibc
import KioskBoards
import KioskCLI
import KioskHUD
import KioskRaster
import KioskSettings
import KioskSys
import KioskText

/// `kiosk-hud theme`: sets the logo, the underlay (colour and picture) and the colours in the
/// boot's board profile, then runs `update-initramfs -u`.
public enum ThemeCommand {
    /// The settings theme sets, by option name.
    static let themeOptions: [String] = ["logo", "logo-placement", "logo-size", "underlay-image", "underlay-color", "underlay-fit",
                                         "theme", "content-color", "bezel-color", "bezel", "background", "dim-color"]
    /// Where pictures from elsewhere are copied (under the root).
    static let pictureDirectory = "/etc/kiosk-hud/pictures"

    /// `kiosk-hud theme`'s options, help and manual page.
    public static let spec = CommandSpec(
        "theme", abstract: "Set the splash's logo, background and colours, and build the initramfs again.",
        discussion: """
        The values go into the board profile the boot's daemon takes (--board in /etc/default/kiosk-hud, \
        else the one detected; kiosk-hud boards detect says which), as your own profile: \
        /etc/kiosk-hud/boards/NAME.toml, made from the shipped one when there is none yet (its [match] \
        kept, so detection still takes it), else edited in place. Each value is checked as the \
        profile's parser checks it and each picture read as the daemon reads it before anything is \
        written; pictures from elsewhere are copied into /etc/kiosk-hud/pictures, where the initramfs \
        hook finds them. Then update-initramfs -u (on Raspberry Pi OS its hook writes \
        /boot/firmware/initramfs8 or initramfs_2712 too), unless --no-initramfs. An option in \
        KIOSK_HUD_ARGS beats the profile: theme says so when one hides what it set. kiosk-hud doctor \
        checks the result.

        Exit codes: 0 done, 1 the initramfs could not be built (the profile is written), 64 a bad value \
        or picture (nothing written).
        """,
        groups: [OptionGroup(SettingOptions.options(Set(themeOptions))),
                 OptionGroup("Theme", [
                     OptionSpec(.board, value: "auto|NAME|FILE", rule: .path,
                                help: "The profile to set: auto (the one detected), a name or a file. Default: the one the boot's daemon takes (--board in KIOSK_HUD_ARGS, else auto)."),
                     .flag(.show, help: "Print the theme in effect (the profile's file, each value and where it comes from) and change nothing."),
                     .flag(.noInitramfs, help: "Do not run update-initramfs -u (the initramfs keeps the theme of before until it is built again)."),
                     OptionSpec(.preview, value: "FILE.png", rule: .path, help: "Also draw the boot's splash with the new theme into FILE.png (as kiosk-hud render draws)."),
                     DoctorCommand.root,
                 ])])

    /// Sets the theme (or shows it with --show).
    public static func run(_ a: ParsedArguments) throws {
        noteFormerOptions(a)
        let root = rootDirectory(a.string(.root) ?? environmentValue("KIOSK_BOARD_ROOT") ?? "")
        let kernel = LinuxKernel()
        var boot = BootSettings(root: root, kernel: kernel)
        if let b = a.string(.board) { boot.select(BoardSelection.Request(b)) }
        if let problem = boot.problem { throw UsageError(problem) }
        guard let selection = boot.selection else { throw UsageError("no board profile") }
        let target = targetFile(selection, root: root)
        if a.flag(.show) { return show(boot, selection, target: target) }

        // Every value checked by its setting's rule (the parser's), before anything is written.
        var changes: [ThemeChange] = []
        for name in themeOptions where a.given(name) {
            guard let setting = HUDSettings.table.setting(option: name) else { continue }
            guard setting.section != nil else {
                throw UsageError("--\(name): the board profile has no key for it in this version: give --\(name) in KIOSK_HUD_ARGS of \(BootSettings.defaultsPath)")
            }
            guard let value = try a.value(name) else { continue }
            changes.append(ThemeChange(setting: setting, value: value))
        }
        guard !changes.isEmpty else {
            throw UsageError("nothing to set: give one of " + themeOptions.map { "--" + $0 }.joined(separator: ", ") + " (or --show)")
        }
        // The pictures: read as the daemon reads them, and where they will be kept.
        var copies: [(from: String, to: String)] = []
        let profile = selection.profile
        let limit = pictureLimit(canvasWidth: profile.width, canvasHeight: profile.height)
        for (i, c) in changes.enumerated() where ["logo", "underlay-image"].contains(c.setting.option ?? "") {
            guard case let .text(given) = c.value, !given.isEmpty else { continue }
            let path = absolutePath(given)
            do { _ = try loadPNG(path, what: "--" + (c.setting.option ?? ""), limit: limit) } catch { throw UsageError("\(error)") }
            let kept = keptPath(path, root: root)
            if kept.copy { copies.append((path, root + kept.path)) }
            changes[i].value = .text(kept.path)
        }
        // The profile's new text, read back by the parser before it is written.
        let source = try sourceText(selection, target: target, kernel: kernel)
        let edited: (text: String, whole: Bool)
        do { edited = try ThemeEdit.apply(changes, to: source, profile: profile, source: target.path) } catch { throw UsageError(error.description) }
        let written = try BoardProfile.parse(edited.text, source: target.path)

        for c in copies {
            do {
                try kernel.makeDirectories(root + pictureDirectory)
                try copyFile(c.from, to: c.to, limit: 64 << 20, kernel: kernel)
            } catch { throw ShowError("cannot copy \(c.from) to \(c.to): \(error)") }
            writeLine("kiosk-hud: copied \(c.from) to \(c.to)", to: 2)
        }
        do {
            try kernel.makeDirectories(parentDirectory(of: target.path))
            try kernel.replaceFile(target.path, with: Array(edited.text.utf8))
        } catch { throw ShowError("cannot write \(target.path): \(error)") }
        let set = changes.map { "\($0.setting.place) = \($0.value.toml)" }.joined(separator: ", ")
        writeLine("kiosk-hud: \(target.path)\(target.made ? " (made from \(target.from))" : "")\(edited.whole ? ", written whole" : ""): \(set)", to: 2)
        for c in changes { if let o = c.setting.option, boot.optionGiven(o) {
            writeLine("kiosk-hud: note: KIOSK_HUD_ARGS in \(BootSettings.defaultsPath) gives --\(o), which beats the profile's \(c.setting.place): take it out there", to: 2)
        } }
        if let preview = try a.value(.preview)?.string {
            var s = try HUDSettings.resolved(profile: written, arguments: boot.arguments ?? ParsedArguments(command: []))
            s.profile.logo = s.profile.logo.map { root + ($0.hasPrefix("/") ? $0 : "/" + $0) }
            s.underlayImage = s.underlayImage.map { root + ($0.hasPrefix("/") ? $0 : "/" + $0) }
            try ThemePreview.render(s, to: preview)
        }
        if a.flag(.noInitramfs) { return }
        try rebuildInitramfs(root: root, kernel: kernel)
    }

    /// The profile file theme writes: the selection's own when it is yours (or a file given),
    /// else /etc/kiosk-hud/boards/NAME.toml under the root, made from the shipped one.
    static func targetFile(_ s: BoardSelection, root: String) -> (path: String, made: Bool, from: String) {
        if let source = s.source {
            if source.kind == .user, let p = source.path { return (p, false, p) }
            return (root + BoardCatalog.userDirectory + "/\(s.name).toml", true, "\(source)")
        }
        return (s.name, false, s.name)
    }

    /// The text the new profile is made from: the target's own, else the shipped profile's
    /// (a file read through `kernel`).
    static func sourceText(_ s: BoardSelection, target: (path: String, made: Bool, from: String), kernel: any Kernel) throws -> String {
        if !target.made || s.source?.kind == .installed {
            let path = target.made ? (s.source?.path ?? target.path) : target.path
            // readSmallFile refuses a file of `limit` bytes or more: one more than a document may have.
            do { return try kernel.readSmallFile(path, limit: TOMLTable.maxDocumentBytes + 1) } catch {
                throw ShowError("cannot read \(path): \(error)")
            }
        }
        if let shipped = ShippedBoards.all.first(where: { $0.name == s.name }) { return shipped.text }
        return s.profile.boardFile(header: ["KioskHUD board profile \(s.name)."])
    }

    /// Copies the regular file `from` (at most `limit` bytes, else EFBIG) to `to` through
    /// `kernel`, a chunk at a time into a new file beside `to` that is then renamed over it: a
    /// failure leaves `to` as it was.
    static func copyFile(_ from: String, to: String, limit: Int, kernel: any Kernel) throws(SysError) {
        let (source, status) = try kernel.openRegularFile(from)
        defer { kernel.close(source) }
        guard status.size <= limit else { throw SysError(call: "read", errno: EFBIG, target: from) }
        try kernel.replaceFile(to) { (fd) throws(SysError) in
            var buffer = [UInt8](repeating: 0, count: 65536)
            var copied = 0
            while true {
                var n = 0
                do throws(SysError) { n = try kernel.read(source, into: &buffer) } catch where error.errno == EINTR { continue } catch {
                    throw error.on(from)
                }
                if n == 0 { return }
                copied += n
                guard copied <= limit else { throw SysError(call: "read", errno: EFBIG, target: from) }
                let r: Result<Void, SysError> = buffer.withUnsafeBytes { b in
                    Result { () throws(SysError) in try kernel.writeAll(fd, UnsafeRawBufferPointer(rebasing: b[..<n])) }
                }
                try r.get()
            }
        }
    }

    /// Where a picture is kept: where it is when under /etc/kiosk-hud or /usr/share of the
    /// root (its path on the system), else copied into /etc/kiosk-hud/pictures.
    static func keptPath(_ path: String, root: String) -> (path: String, copy: Bool) {
        for place in ["/etc/kiosk-hud/", "/usr/share/"] where path.hasPrefix(root + place) {
            return (String(path.dropFirst(root.count)), false)
        }
        let name = path.split(separator: "/").last.map(String.init) ?? "picture.png"
        return (pictureDirectory + "/" + name, true)
    }

    /// `path` from the working directory when relative.
    static func absolutePath(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let cwd = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (cwd == "/" ? "" : cwd) + "/" + path
    }

    /// `update-initramfs -u` ($KIOSK_HUD_UPDATE_INITRAMFS names another program; under a
    /// --root other than /, only that one runs: this machine's initramfs is not that system's).
    static func rebuildInitramfs(root: String, kernel: any Kernel) throws {
        let given = environmentValue("KIOSK_HUD_UPDATE_INITRAMFS")
        if !root.isEmpty, given == nil {
            writeLine("kiosk-hud: the initramfs of the system in \(root) is not built from here: run update-initramfs -u in it", to: 2)
            return
        }
        guard let program = Programs.find(given ?? "update-initramfs", kernel: kernel) else {
            writeLine("kiosk-hud: update-initramfs is missing (apt install initramfs-tools): the theme shows once the real root's daemon starts", to: 2)
            return
        }
        writeLine("kiosk-hud: \(program) -u", to: 2)
        guard let status = Programs.runAttached([program, "-u"], kernel: kernel) else { throw ShowError("cannot run \(program)") }
        if status != 0 { throw ShowError("\(program) -u failed (status \(status)): the profile is written; run it again once fixed") }
    }

    /// --show: the profile's file, and each theme value in effect with where it comes from.
    static func show(_ boot: BootSettings, _ s: BoardSelection, target: (path: String, made: Bool, from: String)) {
        var out = "board \(s.name) (\(s.source.map { "\($0)" } ?? "--board")); theme writes \(target.path)\(target.made ? " (made from \(target.from))" : "")\n"
        let settings = boot.settings ?? HUDSettings.defaults
        for name in themeOptions {
            guard let setting = HUDSettings.table.setting(option: name) else { continue }
            let value = setting.get(settings).map(\.toml) ?? "(none)"
            let place = setting.section == nil ? "--\(name)" : setting.place
            let from = boot.optionGiven(name) ? "KIOSK_HUD_ARGS" : setting.section == nil ? "not set" : "the profile"
            out += "\(place) = \(value) (\(from))\n"
        }
        writeText(out, to: 1)
    }
}

/// The options declared here, by name (see KioskCLI's OptionKey).
extension OptionKey {
    public static let show = OptionKey("show")
    public static let noInitramfs = OptionKey("no-initramfs")
    public static let preview = OptionKey("preview")
}
