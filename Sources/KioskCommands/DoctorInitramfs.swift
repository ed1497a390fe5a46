// doctor's initramfs check: the image the boot loads, and whether kiosk-hud, the pictures its
// settings name and the display's modules are in it (lsinitramfs), and whether it is older than
// the settings it carries.
//
// Which image: Debian's boot loaders load /boot/initrd.img-$(uname -r). A Raspberry Pi's
// firmware loads what config.txt says: an `initramfs FILE followkernel` line, or with
// `auto_initramfs=1` (Raspberry Pi OS's default) the file named after the kernel image —
// kernel8.img → initramfs8 (Pi 3/4/400/CM4 64-bit), kernel_2712.img → initramfs_2712 (Pi 5),
// kernel7l.img → initramfs7l, kernel7.img → initramfs7 (32-bit). Raspberry Pi OS's
// initramfs-tools hook (raspi-firmware's z50-raspi-firmware) copies /boot/initrd.img-VERSION
// there, naming it after the kernel's flavour (6.12.25+rpt-rpi-v8 → initramfs8, -rpi-2712 →
// initramfs_2712), so `update-initramfs -u` writes both.
import KioskSys

/// What the firmware or boot loader loads, or why nothing.
struct InitramfsImage: Equatable {
    /// The image's path on the system (not under the root).
    var path: String
    /// How it was found: "Debian: the running kernel's" …
    var why: String
    /// On a Pi, the file the firmware's copy is made from (/boot/initrd.img-VERSION).
    var source: String?
}

/// The image the boot loads, or why none is known.
enum BootImage {
    case image(InitramfsImage)
    /// None (or not known): the line saying so.
    case none(DoctorResult)
}

/// What the initramfs check looks at.
struct DoctorInitramfsFacts {
    /// lsinitramfs's answer.
    enum Listing: Equatable {
        /// Not listed: why (lsinitramfs missing, no image).
        case notRun(String)
        /// lsinitramfs failed: its message.
        case failed(String)
        /// The paths in the image, relative ("usr/bin/kiosk-hud").
        case listed([String])
    }

    /// A picture the settings name.
    struct Picture: Equatable {
        /// "logo ([style] logo)", "underlay (--underlay-image in KIOSK_HUD_ARGS)".
        var what: String
        /// Its path on the system.
        var path: String
        /// Whether the system has it.
        var exists: Bool
    }

    /// The image, or why none.
    var image: BootImage
    var imageExists = false
    /// Modification times, nanoseconds.
    var imageModified: UInt64?
    var sourceModified: UInt64?
    var listing = Listing.notRun("")
    /// KIOSK_HUD_INITRAMFS (/etc/kiosk-hud/initramfs.conf): yes, no or force.
    var hookMode = "yes"
    /// Plymouth's daemon is installed (the hook then leaves kiosk-hud out, unless forced).
    var plymouth = false
    var pictures: [Picture] = []
    /// The display's modules the profile names ([display] modules, its switch driver).
    var namedModules: [String] = []
    /// The modules of the DRM cards there now (the hook adds them too).
    var cardModules: [String] = []
    /// Modules built into the kernel (modules.builtin), by `moduleKey`.
    var builtin: Set<String> = []
    /// The newest of the settings the image carries: path, modification time.
    var newestSetting: (path: String, modified: UInt64)?
}

extension DoctorChecks {
    /// The initramfs's lines.
    static func initramfs(_ f: DoctorInitramfsFacts) -> [DoctorResult] {
        let image: InitramfsImage
        switch f.image {
        case let .none(line): return [line]
        case let .image(i): image = i
        }
        let where_ = "\(image.path) (\(image.why))"
        guard f.imageExists else {
            return [DoctorResult(.initramfs, .warn, "\(where_) does not exist: the splash starts from the real root, seconds later",
                                 todo: "update-initramfs -u" + (image.source == nil ? "" : " (on Raspberry Pi OS its hook writes \(image.path))"))]
        }
        if f.hookMode == "no" {
            return [DoctorResult(.initramfs, .ok, "kiosk-hud is left out of \(where_) by KIOSK_HUD_INITRAMFS=no in \(DoctorFiles.initramfsConf): the splash starts from the real root")]
        }
        var out: [DoctorResult] = []
        let paths: Set<String>
        switch f.listing {
        case let .notRun(why):
            return [DoctorResult(.initramfs, .warn, "\(where_): contents not checked: \(why)", todo: "apt install initramfs-tools-core (lsinitramfs)")]
        case let .failed(why):
            return [DoctorResult(.initramfs, .fail, "lsinitramfs \(image.path) failed: \(why)", todo: "update-initramfs -u")]
        case let .listed(list):
            paths = Set(list.map(normalizedEntry))
        }
        let has = { (p: String) in paths.contains(normalizedEntry(p)) }
        guard has("/etc/kiosk-hud/initramfs-program") || has("/usr/bin/kiosk-hud") else {
            let beside = f.plymouth && f.hookMode != "force"
            out.append(DoctorResult(.initramfs, .fail, "no kiosk-hud in \(where_)" + (beside ? ": Plymouth is installed, and kiosk-hud's hook stays out beside it" : ""),
                                    todo: beside ? "apt purge plymouth (or KIOSK_HUD_INITRAMFS=force in \(DoctorFiles.initramfsConf)), then update-initramfs -u"
                                        : "update-initramfs -u"))
            return out + staleness(f, image)
        }
        out.append(DoctorResult(.initramfs, .ok, "kiosk-hud is in \(where_)"))
        // The pictures: the daemon reads them before its screen opens, and one it cannot read ends it.
        var pictureProblems = false
        for p in f.pictures {
            if !p.exists {
                pictureProblems = true
                out.append(DoctorResult(.initramfs, .fail, "the \(p.what) \(p.path) does not exist: the daemon cannot start with it",
                                        todo: "kiosk-hud theme with another picture (or \"\" for none)"))
            } else if !has(p.path) {
                pictureProblems = true
                out.append(DoctorResult(.initramfs, .fail, "the \(p.what) \(p.path) is not in the initramfs: its daemon ends at once, and the splash starts from the real root",
                                        todo: "update-initramfs -u"))
            }
        }
        if !pictureProblems, !f.pictures.isEmpty {
            out.append(DoctorResult(.initramfs, .ok, "pictures in it: " + spokenList(f.pictures.map { "the \($0.what) \($0.path)" })))
        }
        // The display's modules: what the profile names must be there (else the HUD waits for
        // the real root); the cards' drivers now are what the hook adds too.
        let modules = Set(paths.compactMap(moduleName))
        let there = { (m: String) in modules.contains(moduleKey(m)) || f.builtin.contains(moduleKey(m)) }
        let named = unique(f.namedModules)
        let cards = unique(f.cardModules).filter { !named.map(moduleKey).contains(moduleKey($0)) }
        let missingNamed = named.filter { !there($0) }, missingCards = cards.filter { !there($0) }
        if !missingNamed.isEmpty {
            out.append(DoctorResult(.initramfs, .fail, "the display's module\(missingNamed.count == 1 ? "" : "s") \(spokenList(missingNamed)) (the board profile's [display] modules or switch) "
                                        + "not in the initramfs: the HUD waits for the real root to load \(missingNamed.count == 1 ? "it" : "them")",
                                    todo: "update-initramfs -u; if still missing, check the names (modinfo NAME) and /etc/kiosk-hud/initramfs.conf's KIOSK_HUD_DRM_MODULES"))
        }
        if !missingCards.isEmpty {
            out.append(DoctorResult(.initramfs, .warn, "the driver\(missingCards.count == 1 ? "" : "s") of this machine's DRM cards, \(spokenList(missingCards)), not in the initramfs",
                                    todo: "update-initramfs -u"))
        }
        let present = (named + cards).filter(there)
        if missingNamed.isEmpty, missingCards.isEmpty, !present.isEmpty {
            out.append(DoctorResult(.initramfs, .ok, "the display's modules in it (or built in): " + spokenList(present)))
        }
        return out + staleness(f, image)
    }

    /// An image older than the settings it carries, or (a Pi) than the file its copy is made from.
    static func staleness(_ f: DoctorInitramfsFacts, _ image: InitramfsImage) -> [DoctorResult] {
        guard let built = f.imageModified else { return [] }
        if let s = f.newestSetting, s.modified > built {
            return [DoctorResult(.initramfs, .warn, "\(image.path) is older than \(s.path): the boot's splash has the settings of before",
                                 todo: "update-initramfs -u")]
        }
        if let source = image.source, let m = f.sourceModified, m > built {
            return [DoctorResult(.initramfs, .warn, "\(image.path) is older than \(source), which the firmware's copy is made from",
                                 todo: "update-initramfs -u (Raspberry Pi OS's hook copies it to \(image.path))")]
        }
        return []
    }
}

/// "usr/bin/kiosk-hud" for "./usr/bin/kiosk-hud", "/usr/bin/kiosk-hud" …; a merged-/usr path
/// (bin/x is usr/bin/x, lib/x usr/lib/x) as usr/….
func normalizedEntry(_ path: String) -> String {
    var p = Substring(path)
    while p.hasPrefix("./") { p = p.dropFirst(2) }
    while p.hasPrefix("/") { p = p.dropFirst() }
    for top in ["bin/", "sbin/", "lib/"] where p.hasPrefix(top) { return "usr/" + p }
    return String(p)
}

/// The module a path in the image is (".../vc4.ko", "...ko.xz", "...ko.zst"), by `moduleKey`.
func moduleName(_ path: String) -> String? {
    guard let name = path.split(separator: "/").last else { return nil }
    for suffix in [".ko", ".ko.xz", ".ko.zst", ".ko.gz"] where name.hasSuffix(suffix) {
        return moduleKey(String(name.dropLast(suffix.count)))
    }
    return nil
}

/// `items` without repeats (by module key), in order.
func unique(_ items: [String]) -> [String] {
    var seen: Set<String> = [], out: [String] = []
    for i in items where seen.insert(moduleKey(i)).inserted { out.append(i) }
    return out
}

/// The image the boot loads on the system under the root: a Pi's firmware's (from `configText`,
/// its config.txt, at `configPath`), else Debian's for `kernel`.
func bootInitramfs(kernel: String?, configPath: String?, configText: String?) -> BootImage {
    guard let configText, let configPath else {
        guard let kernel else {
            return .none(DoctorResult(.initramfs, .warn, "the kernel's version is unknown (no /proc/sys/kernel/osrelease): the initramfs is not checked"))
        }
        return .image(InitramfsImage(path: "/boot/initrd.img-" + kernel, why: "the running kernel's"))
    }
    let dir = parentDirectory(of: configPath)
    var explicit: String?, auto = false, kernelImage: String?
    for raw in configText.split(separator: "\n") {
        let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map { $0.trimmingBlanks } ?? ""
        if line.hasPrefix("initramfs ") || line.hasPrefix("initramfs\t") {
            explicit = line.dropFirst(10).trimmingBlanks.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init)
        } else if line.hasPrefix("auto_initramfs=") {
            auto = line.dropFirst(15).trimmingBlanks == "1"
        } else if line.hasPrefix("kernel=") {
            kernelImage = String(line.dropFirst(7).trimmingBlanks)
        }
    }
    let source = kernel.map { "/boot/initrd.img-" + $0 }
    if let e = explicit?.split(separator: ",").first {
        let file = e.hasPrefix("/") ? dir + e : dir + "/" + e
        return .image(InitramfsImage(path: file, why: "\(configPath): initramfs \(e)", source: source))
    }
    guard auto else {
        return .none(DoctorResult(.initramfs, .warn, "\(configPath) loads no initramfs (no auto_initramfs=1, no initramfs line): the splash starts from the real root, seconds later",
                                     todo: "add auto_initramfs=1 to \(configPath), then update-initramfs -u"))
    }
    // The firmware names the initramfs after the kernel image; without kernel=, the image is the
    // one Raspberry Pi OS installs for the running kernel's flavour.
    if let k = kernelImage, k.hasPrefix("kernel"), k.hasSuffix(".img") {
        let name = "initramfs" + k.dropFirst(6).dropLast(4)
        return .image(InitramfsImage(path: dir + "/" + name, why: "\(configPath): auto_initramfs=1, kernel=\(k)", source: source))
    }
    guard let kernel, let flavour = piInitramfsSuffix(kernel: kernel) else {
        return .none(DoctorResult(.initramfs, .warn, "\(configPath) has auto_initramfs=1, but which initramfs the firmware loads is not known for kernel \(kernel ?? "?")",
                                     todo: "name it: initramfs FILE followkernel in \(configPath)"))
    }
    return .image(InitramfsImage(path: dir + "/initramfs" + flavour, why: "\(configPath): auto_initramfs=1, kernel \(kernel)", source: source))
}

/// The suffix of the Pi firmware's initramfs for a Raspberry Pi OS kernel release
/// ("6.12.25+rpt-rpi-v8" → "8", "-rpi-2712" → "_2712", "-rpi-v7l" → "7l", "-rpi-v8-rt" →
/// "8_rt"), as raspi-firmware's hook names the copy; nil for another kernel.
func piInitramfsSuffix(kernel: String) -> String? {
    let marker = Array("-rpi-".utf8), bytes = Array(kernel.utf8)
    guard bytes.count > marker.count, let at = (0...(bytes.count - marker.count)).last(where: { Array(bytes[$0..<$0 + marker.count]) == marker }) else { return nil }
    let flavour = String(decoding: bytes[(at + marker.count)...], as: UTF8.self)
    switch flavour {
    case "v8": return "8"
    case "v8-rt": return "8_rt"
    case "2712": return "_2712"
    case "v7": return "7"
    case "v7l": return "7l"
    case "v6": return ""
    default: return nil
    }
}

extension StringProtocol {
    /// Without leading and trailing blanks (spaces, tabs, CR, LF).
    var trimmingBlanks: String {
        func blank(_ c: Character) -> Bool { c == " " || c == "\t" || c == "\r" || c == "\n" }
        var s = Substring(self)
        while let c = s.first, blank(c) { s = s.dropFirst() }
        while let c = s.last, blank(c) { s = s.dropLast() }
        return String(s)
    }
}
