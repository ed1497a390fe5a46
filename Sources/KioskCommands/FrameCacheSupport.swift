import KioskBoards
import KioskCLI
import KioskSeams
import KioskDRM
import KioskRaster
import KioskSys
import KioskText

// `show`'s side of the frame cache: writing the cache after the first frame. (Taking the
// early frame the C constructor showed, to continue it, is the executable's: `ShowCommand.takeEarlyFrame`.)

extension ShowCommand {
    /// The early frame the executable's C constructor put on screen, if any (nil: none, as in
    /// a process without that constructor). kiosk-hud sets it before running a command.
    nonisolated(unsafe) public static var takeEarlyFrame: () -> EarlyFrame? = { nil }

    /// Whether the executable's C constructor put the frame cache's picture on screen (before
    /// `takeEarlyFrame` takes it to continue it). kiosk-hud sets it; false in a process without it.
    nonisolated(unsafe) public static var earlyFrameShown: () -> Bool = { false }

    /// The frame cache's picture put on a card that appeared after exec (`EarlyFrame.show`), if
    /// any. kiosk-hud sets it (the process whose constructor shows the cache at exec); nil here.
    nonisolated(unsafe) public static var showCachedFrame: (_ card: String) -> EarlyFrame? = { _ in nil }

    /// The pictures' files, which count in the frame cache's key as the board file and the fonts
    /// do (a changed picture is a changed frame): the underlay picture (`--underlay-image`) and the logo
    /// (`--logo`, else the board file's `[style] logo`; an empty `--logo` is none).
    static func pictureFiles(_ a: ParsedArguments, board: BoardProfile?) -> [String] {
        let logo = a.given(.logo) ? a.string(.logo) : board?.logo
        let underlay = a.given(.underlayImage) ? a.string(.underlayImage) : board?.underlayImage
        return [underlay, logo].compactMap { $0 }.filter { !$0.isEmpty }
    }

    /// After the first frame: keep it for the next start with these arguments (unless the file
    /// already holds this picture), where `FrameKeeping` says. Logs what it did.
    /// `asStarted`: the frame shows what the options say; one a client had changed before it is
    /// not kept (the next start would show last time's progress and lines until it drew its own).
    func saveFrameCache(_ cache: FrameCacheSource, fonts: FontLibrary, asStarted: Bool = true) {
        let keeping = extras?.frameKeeping ?? .cache
        // Carried over from the initramfs, the picture now is the boot's middle (its progress, a
        // unit's line), not a first frame: the initramfs's own goes into the cache instead.
        if keeping == .carriedOver { keepInitramfsFrame(); return }
        guard asStarted else {
            showLog("frame cache: not written (the content changed before the first frame: not what these options show)")
            return
        }
        guard var location = FrameCache.locate(CommandLine.arguments) else { return }
        if keeping == .initramfs, let name = location.path.split(separator: "/").last {
            location.path = InitramfsFrame.directory + "/" + name
        }
        let path = location.path
        let board = SettingOptions.chosen?.selection.files ?? []
        // /etc/default/locale when it decides the words' language (no locale in the environment,
        // which the key holds) and is there: a changed file, a new first frame.
        let locale = Language.localeName(environment: environmentValue, localeFile: nil) == nil ? ["/etc/default/locale"] : []
        let files = ["/proc/self/exe"] + board + ShowCommand.pictureFiles(arguments, board: SettingOptions.chosen?.selection.profile)
            + fonts.fontFiles
        let previous = cache.earlyFrameHash
        switch cache.saveFrame(at: location, files: files, filesIfPresent: locale) {
        case .written: showLog("frame cache: written \(path)" + (previous != nil ? " (the picture differed from the cached one)" : ""))
        case .unchanged: break
        case let .skipped(why): showLog("frame cache: not written (\(why))")
        }
    }
}

/// How a run keeps its first frame for the next start.
///
/// The initramfs's daemon starts before any card exists, so its constructor finds no display for
/// a cached frame; and its own cache directory is the initramfs's, gone at switch-root. So the
/// frame goes a longer way: the initramfs's daemon writes its first frame to
/// /run/kiosk-hud/frame-cache (/run moves to the real root); the same process, carried over,
/// copies it into the real root's cache directory as initramfs-frame-KEY.bin (at its first
/// frame there, else at its end: the root may still be read-only at the first); the hook puts
/// that file into the next initramfs as frame-KEY.bin; there the daemon shows it the moment
/// its card appears (`ShowCommand.showCachedFrame`). The files the picture was drawn from match
/// across the copies by size, time and build ID (CKioskFrameCache.h), not by inode.
enum FrameKeeping: Equatable, Sendable {
    /// In the cache directory, for the next start with the same options (show, run, a daemon).
    case cache
    /// The initramfs's daemon (--initramfs): in `InitramfsFrame.directory`.
    case initramfs
    /// The initramfs's daemon carried over into the real root: nothing of its own; the
    /// initramfs's first frame into the cache directory (`InitramfsFrame.keep`).
    case carriedOver
}

/// The initramfs's first frame on its way to the next initramfs (`FrameKeeping`).
enum InitramfsFrame {
    /// Where the initramfs's daemon writes its first frame: on /run, which moves to the real root.
    static let directory = "/run/kiosk-hud/frame-cache"
    /// The name's prefix in the cache directory (apart from the frame-*.bin files the prune keeps
    /// four of): the hook copies initramfs-frame-KEY.bin into the initramfs as frame-KEY.bin.
    static let prefix = "initramfs-"

    /// What `keep` did.
    enum Outcome: Equatable {
        /// Copied (the paths written).
        case kept([String])
        /// No frame waiting in `directory` (the initramfs showed the cached one, or drew none).
        case nothingToKeep
        /// Could not write into the cache directory (yet): why.
        case failed(String)
    }

    /// Copies each frame-*.bin in `directory` into `cacheDirectory` as initramfs-frame-*.bin,
    /// removing the other initramfs-frame-*.bin there (one initramfs, one frame) and the source.
    static func keep(cacheDirectory: String, from directory: String = directory, kernel: Kernel) -> Outcome {
        let frames = (kernel.listDirectory(directory) ?? []).filter { FrameCache.isFrameFile($0) }.sorted()
        guard !frames.isEmpty else { return .nothingToKeep }
        var written: [String] = []
        do throws(SysError) {
            try kernel.makeDirectories(cacheDirectory)
            for name in frames {
                let bytes = try kernel.readFileBytes(directory + "/" + name, limit: FrameCacheFile.sizeLimit)
                let target = cacheDirectory + "/" + prefix + name
                try kernel.replaceFile(target, with: bytes)
                written.append(target)
            }
        } catch {
            return .failed("\(cacheDirectory): \(error)")
        }
        for name in kernel.listDirectory(cacheDirectory) ?? [] where FrameCache.isFrameFile(name, prefix: prefix) {
            let path = cacheDirectory + "/" + name
            if !written.contains(path) { try? kernel.removeFile(path) }
        }
        for name in frames { try? kernel.removeFile(directory + "/" + name) }
        return .kept(written)
    }
}

extension ShowCommand {
    /// The carried-over daemon's part of `FrameKeeping`: the initramfs's first frame into the
    /// cache directory, once (at the first frame, else at the end). Logs what it did.
    func keepInitramfsFrame() {
        guard extras?.frameKeeping == .carriedOver, !firstFrame.initramfsFrameKept else { return }
        guard let directory = FrameCache.cacheDirectory(CommandLine.arguments) else { return }
        switch InitramfsFrame.keep(cacheDirectory: directory, kernel: LinuxKernel()) {
        case let .kept(paths):
            firstFrame.initramfsFrameKept = true
            showLog("frame cache: the initramfs's first frame kept for the next initramfs: " + paths.joined(separator: " "))
        case .nothingToKeep: firstFrame.initramfsFrameKept = true
        case let .failed(why): showLog("frame cache: the initramfs's first frame not kept yet (\(why))")
        }
    }
}

/// What a display run has done of its first frame (one per run, shared by its closures).
final class FirstFrameMark {
    /// The first frame is on screen (drawn, or the frame cache's): a cached frame shown now would
    /// go back to the start.
    var shown = false
    /// `keepInitramfsFrame` has done its part.
    var initramfsFrameKept = false
}
