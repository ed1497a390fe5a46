// The calls that carry the initramfs's daemon across switch-root (docs/initramfs.md): chroot(2)
// into the new root before the initramfs is emptied, and execve(2) of the new root's own
// kiosk-hud with the descriptors that hold the screen and the control socket kept open — the
// same process (its pid, DRM master, the frame on screen) on a program file that no longer pins
// the initramfs's memory. Made here once; everything else calls them through `Kernel`.
import Glibc

/// chroot(2) to `path` and chdir(2) to its "/" (so no directory of the old root stays in use).
func changeRoot(_ path: String) throws(SysError) {
    if chroot(path) != 0 { throw SysError(call: "chroot", errno: errno, target: path) }
    if chdir("/") != 0 { throw SysError(call: "chdir", errno: errno, target: "/ (in \(path))") }
}

/// Sets (`on`) or clears FD_CLOEXEC on `fd`.
func setCloseOnExec(_ fd: Int32, _ on: Bool) throws(SysError) {
    let flags = fcntl(fd, F_GETFD)
    if flags < 0 { throw SysError(call: "fcntl(F_GETFD)", errno: errno, target: "descriptor \(fd)") }
    let next = on ? flags | FD_CLOEXEC : flags & ~FD_CLOEXEC
    if fcntl(fd, F_SETFD, next) != 0 { throw SysError(call: "fcntl(F_SETFD)", errno: errno, target: "descriptor \(fd)") }
}

/// execve(2); returns only on failure.
func replaceImage(_ path: String, arguments: [String], environment: [String]) -> SysError {
    func cStrings(_ list: [String]) -> [UnsafeMutablePointer<CChar>?] { list.map { strdup($0) } + [nil] }
    let argv = cStrings(arguments), envp = cStrings(environment)
    defer { for p in argv + envp { free(p) } }
    execve(path, argv, envp)
    return SysError(call: "execve", errno: errno, target: path)
}
