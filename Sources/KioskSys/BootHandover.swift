import CKioskSys
import Glibc

/// The boot's handover as the daemon remembers it for the rest of the boot: its `quit` (the
/// splash handing the screen to the app) leaves a mark beside the control socket, in /run, which
/// the next boot starts without. A daemon started on systemd's socket while the mark is there
/// (a later `ctl status` activated it) starts hidden, and the early frame stays off the screen.
/// The rule is CKioskFrameCache.h's (`kiosk_daemon_after_handover`), shared with the C constructor.
public enum BootHandover {
    /// The mark for the control socket of `argv` (the whole command line, argv[0] first):
    /// `--socket` PATH or the default, with ".handed-over" after it.
    public static func markPath(_ argv: [String]) -> String? {
        withArgv(argv) { argc, p -> String? in
            var out = [CChar](repeating: 0, count: Int(KIOSK_FRAME_CACHE_PATH_MAX))
            guard kiosk_handover_mark_path(argc, p, &out, out.count) == 0 else { return nil }
            return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// Whether `argv` is `kiosk-hud daemon` started on systemd's socket after the handover. Ask
    /// before `activationSockets()`, which takes LISTEN_PID and LISTEN_FDS away.
    public static func isDaemonAfterHandover(_ argv: [String]) -> Bool {
        withArgv(argv) { argc, p in kiosk_daemon_after_handover(argc, p) == 1 }
    }

    /// Leaves the mark for `argv`'s control socket (an empty file, 0644).
    public static func mark(_ argv: [String]) throws(SysError) {
        guard let path = markPath(argv) else { throw SysError(call: "open", errno: ENAMETOOLONG, target: argv.first) }
        try replaceFile(path, with: [])
    }

    private static func withArgv<R>(_ argv: [String], _ body: (Int32, UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
        var pointers: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) }
        defer { for p in pointers { free(p) } }
        pointers.append(nil)
        return pointers.withUnsafeBufferPointer { body(Int32(argv.count), $0.baseAddress!) }
    }
}
