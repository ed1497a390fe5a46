// doctor's facts, gathered from the system under a root directory standing for / (`--root`,
// $KIOSK_BOARD_ROOT: a made-up system in the tests): the files read there, and lsinitramfs and
// systemd-analyze run on it when this machine has them. Every read, stat, link and directory
// listing, and the programs, go through one `Kernel` (the command's), so a fake kernel can play
// the system. Nothing here decides anything: the checks (DoctorChecks) do.
import KioskBoards
import KioskSys

/// The files doctor reads, as the real system has them.
enum DoctorFiles {
    static let initramfsConf = "/etc/kiosk-hud/initramfs.conf"
    static let settingsDirectory = "/etc/kiosk-hud"
    static let unitDirectories = ["/etc/systemd/system", "/run/systemd/system", "/usr/local/lib/systemd/system", "/usr/lib/systemd/system", "/lib/systemd/system"]
    static let plymouthd = ["/usr/sbin/plymouthd", "/sbin/plymouthd"]
}

/// Everything the checks look at, read from the system under `root`.
struct DoctorGather {
    let root: String
    /// The system calls every fact is read through.
    let kernel: any Kernel
    let boot: BootSettings

    init(root: String, kernel: any Kernel) {
        self.root = root
        self.kernel = kernel
        boot = BootSettings(root: root, kernel: kernel)
    }

    /// The text of `path` under the root, nil when it cannot be read.
    func read(_ path: String, limit: Int = 1 << 16) -> String? { try? kernel.readSmallFile(root + path, limit: limit) }
    func exists(_ path: String) -> Bool { kernel.fileExists(root + path) }
    func modified(_ path: String) -> UInt64? { (try? kernel.fileStatus(root + path))?.modified }
    /// The entries of the directory `path` under the root, nil when it cannot be read.
    func list(_ path: String) -> [String]? { kernel.listDirectory(root + path) }
    /// Where the symbolic link `path` under the root points, nil when it is not one.
    func link(_ path: String) -> String? { kernel.readLink(root + path) }

    /// KIOSK_HUD_INITRAMFS of initramfs.conf (yes when not set).
    var hookMode: String { read(DoctorFiles.initramfsConf).map(shellAssignments)?["KIOSK_HUD_INITRAMFS"] ?? "yes" }
    var plymouthd: String? { DoctorFiles.plymouthd.first(where: exists) }
    /// The running kernel's release (of the system under the root).
    var release: String? { read("/proc/sys/kernel/osrelease")?.trimmingBlanks.nonEmpty }
    var isPi: Bool { boot.facts.compatible.contains { $0.hasPrefix("raspberrypi,") } }

    /// The display's modules the profile names: [display] modules, and its switch driver.
    var namedModules: [String] {
        guard let p = boot.settings?.profile ?? boot.selection?.profile else { return [] }
        var m = p.display.modules
        if !["first", "wait-real"].contains(p.display.switchRule) { m.append(p.display.switchRule) }
        return m
    }

    /// The modules of the DRM cards there now (each card's device/driver/module link).
    var cardModules: [String] {
        boot.facts.cards.compactMap { c in link("/sys/class/drm/\(c.name)/device/driver/module").flatMap { $0.split(separator: "/").last.map(String.init) } }
    }

    /// Modules built into the running kernel (its release's modules.builtin), by moduleKey.
    var builtin: Set<String> {
        guard let k = release else { return [] }
        for dir in ["/usr/lib/modules/", "/lib/modules/"] {
            if let text = read(dir + k + "/modules.builtin", limit: 1 << 20) {
                return Set(text.split(separator: "\n").compactMap { moduleName(String($0)) })
            }
        }
        return []
    }

    // MARK: The facts of each check

    var boardFacts: DoctorBoardFacts { DoctorBoardFacts(boot) }

    func initramfsFacts() -> DoctorInitramfsFacts {
        let config = ["/boot/firmware/config.txt", "/boot/config.txt"].first(where: exists)
        let image = bootInitramfs(kernel: release, configPath: config, configText: config.flatMap { read($0) })
        var f = DoctorInitramfsFacts(image: image)
        f.hookMode = hookMode
        f.plymouth = plymouthd != nil
        guard case let .image(i) = image else { return f }
        f.imageExists = exists(i.path)
        f.imageModified = modified(i.path)
        f.sourceModified = i.source.flatMap(modified)
        f.pictures = pictures
        f.namedModules = namedModules
        f.cardModules = cardModules
        f.builtin = builtin
        f.newestSetting = newestSetting
        guard f.imageExists, f.hookMode != "no" else { return f }
        if let ls = Programs.find("lsinitramfs", kernel: kernel) {
            if let r = Programs.run([ls, root + i.path], kernel: kernel) {
                let entries = r.standardOutput.split(separator: "\n").map(String.init)
                // An archive without a compressor's trailer ends "premature": its list is whole.
                f.listing = entries.isEmpty && r.status != 0 ? DoctorInitramfsFacts.Listing.failed(firstLine(r.errors) ?? "status \(r.status)") : .listed(entries)
            } else {
                f.listing = .failed("cannot run \(ls)")
            }
        } else {
            f.listing = .notRun("lsinitramfs is missing")
        }
        return f
    }

    /// The pictures the boot's settings name: the logo, the underlay, --mode custom's image
    /// (a relative path is from /, the daemon's working directory).
    var pictures: [DoctorInitramfsFacts.Picture] {
        guard let s = boot.settings else { return [] }
        var out: [DoctorInitramfsFacts.Picture] = []
        func add(_ what: String, _ path: String?) {
            guard let path, !path.isEmpty else { return }
            let p = path.hasPrefix("/") ? path : "/" + path
            out.append(.init(what: what, path: p, exists: (try? kernel.fileStatus(root + p))?.kind == .regular))
        }
        add("logo (" + (boot.optionGiven("logo") ? "--logo in KIOSK_HUD_ARGS" : "[style] logo") + ")", s.profile.logo)
        let underlayOption = boot.arguments?.written(.underlayImage) ?? "--underlay-image"
        add("underlay (" + (boot.optionGiven("underlay-image") ? underlayOption + " in KIOSK_HUD_ARGS" : "the profile") + ")", s.underlayImage)
        add("image (--image in KIOSK_HUD_ARGS)", s.image)
        return out
    }

    /// The newest of the settings the initramfs carries: /etc/default/kiosk-hud, the files of
    /// /etc/kiosk-hud and /etc/kiosk-hud/boards, the pictures.
    var newestSetting: (path: String, modified: UInt64)? {
        var files = [BootSettings.defaultsPath]
        for dir in [DoctorFiles.settingsDirectory, BoardCatalog.userDirectory] {
            for n in list(dir) ?? [] where n.hasSuffix(".toml") || n.hasSuffix(".conf") { files.append(dir + "/" + n) }
        }
        files += pictures.map(\.path)
        var newest: (String, UInt64)?
        for f in files { if let m = modified(f), m > (newest?.1 ?? 0) { newest = (f, m) } }
        return newest
    }

    func unitsFacts() -> DoctorUnitsFacts {
        var f = DoctorUnitsFacts()
        f.units = DoctorChecks.bootUnits.map { u in (u, DoctorFiles.unitDirectories.map { $0 + "/" + u }.first(where: exists)) }
        let present = f.units.filter { $0.path != nil }.map(\.name)
        guard !present.isEmpty else { return f }
        guard let analyze = Programs.find("systemd-analyze", kernel: kernel) else { f.notRun = "systemd-analyze is missing"; return f }
        var args = [analyze, "verify", "--man=no"]
        if !root.isEmpty { args.append("--root=" + root) }
        f.verify = Programs.run(args + present, kernel: kernel)
        if f.verify == nil { f.notRun = "cannot run \(analyze)" }
        return f
    }

    func handoverFacts() -> DoctorHandoverFacts {
        var f = DoctorHandoverFacts()
        f.plymouthd = plymouthd
        f.hookMode = hookMode
        guard let target = link("/etc/systemd/system/display-manager.service"),
              let dm = target.split(separator: "/").last.map(String.init) else { return f }
        f.displayManager = dm
        f.orderedBy = orderingFile(dm)
        return f
    }

    /// The unit file or drop-in that orders the display manager `dm` after kiosk-hud-quit.service
    /// (its After=, or the quit unit's Before=), nil when none does.
    func orderingFile(_ dm: String) -> String? {
        func files(_ unit: String) -> [String] {
            var out: [String] = []
            for dir in DoctorFiles.unitDirectories {
                if exists(dir + "/" + unit) { out.append(dir + "/" + unit) }
                for n in list(dir + "/" + unit + ".d") ?? [] where n.hasSuffix(".conf") { out.append(dir + "/" + unit + ".d/" + n) }
            }
            return out
        }
        func lists(_ file: String, _ key: String, _ names: [String]) -> Bool {
            guard let text = read(file) else { return false }
            return text.split(separator: "\n").contains { line in
                line.hasPrefix(key + "=") && line.dropFirst(key.count + 1).split(separator: " ").contains { names.contains(String($0)) }
            }
        }
        for unit in ["display-manager.service", dm] {
            if let f = files(unit).first(where: { lists($0, "After", ["kiosk-hud-quit.service"]) }) { return f }
        }
        return files("kiosk-hud-quit.service").first { lists($0, "Before", ["display-manager.service", dm]) }
    }

    func displayFacts() -> DoctorDisplayFacts {
        var f = DoctorDisplayFacts()
        f.cards = boot.facts.cards
        f.isPi = isPi
        f.modules = namedModules
        f.loaded = Set((list("/sys/module") ?? []).map(moduleKey))
        f.builtin = builtin
        return f
    }
}

private extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}

/// The first non-empty line of `text`.
func firstLine(_ text: String) -> String? {
    text.split(separator: "\n").map { $0.trimmingBlanks }.first { !$0.isEmpty }
}
