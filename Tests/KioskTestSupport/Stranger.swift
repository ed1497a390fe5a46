// Running programs as another user (nobody, uid 65534) from tests. The checkout may live where
// that user cannot go (root's home is 0700 on Debian), so whatever a stranger runs is copied
// first to a directory of its own under /tmp that every user can reach.
import Glibc
import KioskSys

/// Another user for tests: nobody (uid and gid 65534, no supplementary groups), entered with
/// util-linux's setpriv.
public enum Stranger {
    public static let uid: uid_t = 65534
    public static let gid: gid_t = 65534

    /// The words that run a command as the stranger: `Stranger.command + [program, args…]`.
    public static let command = ["setpriv", "--reuid=\(uid)", "--regid=\(gid)", "--clear-groups"]

    /// The words that run a command as the stranger with `groups` as its supplementary groups
    /// (a member of a daemon's group: the first of them counts as much as the others).
    public static func command(groups: [gid_t]) -> [String] {
        ["setpriv", "--reuid=\(uid)", "--regid=\(gid)", "--groups=" + groups.map { String($0) }.joined(separator: ",")]
    }

    /// Whether `user` (with group `group` and no others) can reach `path` — search every
    /// ancestor directory — and has every permission of `need` on it (R_OK, W_OK, X_OK as
    /// access(2) takes them). Decided from the modes and owners alone, as the kernel does for a
    /// user without capabilities; nil when a component cannot be stat'ed.
    public static func canReach(_ path: String, need: Int32 = R_OK, user: uid_t = uid, group: gid_t = gid) -> Bool? {
        guard path.hasPrefix("/") else { return nil }
        let parts = path.split(separator: "/")
        var prefix = ""
        for part in parts.dropLast() {
            prefix += "/" + part
            guard let ok = allows(prefix, X_OK, user: user, group: group) else { return nil }
            if !ok { return false }
        }
        guard allows("/", X_OK, user: user, group: group) == true else { return false }
        return allows(path, need, user: user, group: group)
    }

    /// Whether the mode bits of `path` (the owner's, the group's or the others', whichever
    /// class `user` falls in) include `need`.
    static func allows(_ path: String, _ need: Int32, user: uid_t, group: gid_t) -> Bool? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        let shift: UInt32 = st.st_uid == user ? 6 : st.st_gid == group ? 3 : 0
        let bits = (UInt32(st.st_mode) >> shift) & 7
        return bits & UInt32(need) == UInt32(need)
    }
}

/// Copies of files and directories in a fresh directory under /tmp that the stranger can reach
/// (0755, every ancestor searchable by all), readable — and executable where they were — by
/// everyone; removed with the object. Use it for anything a test runs as `Stranger`.
///
///     let c = try StrangerCopy([Proc.kioskHUD])
///     Proc.run(Stranger.command + [c.path(Proc.kioskHUD), "ctl", "ping", "--socket", path])
public final class StrangerCopy: @unchecked Sendable {
    /// Why the copy could not be made.
    public enum Failure: Error, CustomStringConvertible {
        case notReachable(String)
        case copy(String, String)
        case mode(SysError)

        public var description: String {
            switch self {
            case let .notReachable(dir): "\(dir): not reachable by uid \(Stranger.uid)"
            case let .copy(path, why): "copying \(path): \(why)"
            case let .mode(e): "\(e)"
            }
        }
    }

    /// The directory that holds the copies.
    public let dir: String
    private var copies: [String: String] = [:]

    /// Copies each of `paths` (absolute; a directory with everything in it) into the new
    /// directory, under its own name (two with the same name: the first wins).
    public init(_ paths: [String]) throws(Failure) {
        dir = Proc.makeTempDir("kiosk-stranger")
        do throws(SysError) { try setMode(dir, 0o755) } catch { _ = Proc.run(["rm", "-rf", dir]); throw .mode(error) }
        guard Stranger.canReach(dir, need: R_OK | X_OK) == true else { _ = Proc.run(["rm", "-rf", dir]); throw .notReachable(dir) }
        for p in paths {
            let name = String(p.split(separator: "/").last ?? "copy")
            let to = dir + "/" + name
            if copies[p] != nil || Proc.exists(to) { continue }
            // cp -R keeps the execute bits; then everyone may read, and search what they can run.
            let r = Proc.run(["cp", "-R", "--preserve=mode", p, to])
            let m = r.status == 0 ? Proc.run(["chmod", "-R", "go+rX,go-w", to]) : r
            guard m.status == 0 else { _ = Proc.run(["rm", "-rf", dir]); throw .copy(p, r.err + m.err) }
            copies[p] = to
        }
    }

    /// Where the copy of `original` (one of the paths given), or of a file under a directory
    /// that was copied, is.
    public func path(_ original: String) -> String {
        if let c = copies[original] { return c }
        for (from, to) in copies where original.hasPrefix(from + "/") { return to + original.dropFirst(from.count) }
        return original
    }

    deinit { _ = Proc.run(["rm", "-rf", dir]) }
}
