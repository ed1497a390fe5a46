// The programs doctor and theme run (lsinitramfs, systemd-analyze, update-initramfs): found in
// PATH (and the sbin directories, which a user's PATH may lack) or not run at all, their output
// read whole through pipes. Every call goes through the command's `Kernel` — the stat that finds
// a program, the pipes, /dev/null, the spawn, the polls, reads and closes, the pidfd its end is
// waited on — as `kiosk-hud run`'s ChildProcess makes them; the reaping itself reads the process
// table directly, as ChildProcess's does.
import Glibc
import KioskSys

/// How a program ended and what it said.
struct ProgramRun: Equatable {
    /// Its exit status (128 + the signal when killed).
    var status: Int32
    /// What it wrote on stdout and stderr, in one (`errors` has stderr alone).
    var output: String
    var errors: String
    /// Standard output alone.
    var standardOutput: String
}

enum Programs {
    /// The program `name`'s path: in PATH, then the sbin directories (update-initramfs is in
    /// /usr/sbin, which a user's PATH may lack); nil when none. A program is a regular file with
    /// an execute bit (stat through `kernel`); one this user still may not run fails to start.
    static func find(_ name: String, kernel: any Kernel) -> String? {
        func isProgram(_ p: String) -> Bool {
            guard let st = try? kernel.fileStatus(p) else { return false }
            return st.kind == .regular && st.permissions & 0o111 != 0
        }
        if name.hasPrefix("/") { return isProgram(name) ? name : nil }
        let path = (environmentValue("PATH") ?? "") + ":/usr/local/sbin:/usr/sbin:/sbin"
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let p = "\(dir)/\(name)"
            if isProgram(p) { return p }
        }
        return nil
    }

    /// Runs `arguments` (the program's path first) through `kernel`, stdin from /dev/null,
    /// reading its output whole (at most `limit` bytes of each stream; the rest is read and
    /// dropped); nil when it cannot start.
    static func run(_ arguments: [String], kernel: any Kernel, limit: Int = 16 << 20) -> ProgramRun? {
        guard let out = try? kernel.pipe() else { return nil }
        guard let err = try? kernel.pipe() else { kernel.close(out.read); kernel.close(out.write); return nil }
        let null = try? kernel.open("/dev/null", flags: O_RDONLY)
        var request = SpawnRequest(arguments: arguments)
        request.stdin = null
        request.stdout = out.write
        request.stderr = err.write
        let pid = try? kernel.spawn(request)
        // The child has its own copies of these (or was not made): ours are closed, so the pipes
        // end when the child's do.
        kernel.close(out.write); kernel.close(err.write)
        if let null { kernel.close(null) }
        guard let pid else { kernel.close(out.read); kernel.close(err.read); return nil }
        var streams: [(fd: Int32, bytes: [UInt8], open: Bool)] = [(out.read, [], true), (err.read, [], true)]
        var merged: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        reading: while streams.contains(where: \.open) {
            var fds = streams.filter(\.open).map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            do { _ = try kernel.poll(&fds, timeoutMs: -1) } catch { break reading }  // EINTR comes back as 0
            for p in fds where p.revents != 0 {
                guard let i = streams.firstIndex(where: { $0.fd == p.fd }) else { continue }
                var n = 0
                do throws(SysError) { n = try kernel.read(p.fd, into: &buffer) } catch where error.errno == EINTR || error.errno == EAGAIN {
                    continue
                } catch {
                    n = 0
                }
                if n > 0 {
                    if streams[i].bytes.count < limit { streams[i].bytes += buffer[0..<n] }
                    if merged.count < 2 * limit { merged += buffer[0..<n] }
                } else {
                    streams[i].open = false
                    kernel.close(p.fd)
                }
            }
        }
        for s in streams where s.open { kernel.close(s.fd) }
        return ProgramRun(status: wait(pid, kernel: kernel), output: String(decoding: merged, as: UTF8.self),
                          errors: String(decoding: streams[1].bytes, as: UTF8.self),
                          standardOutput: String(decoding: streams[0].bytes, as: UTF8.self))
    }

    /// Runs `arguments` through `kernel` with this process's standard output and error
    /// (update-initramfs's lines reach the user as it writes them): its exit status, nil when it
    /// cannot start.
    static func runAttached(_ arguments: [String], kernel: any Kernel) -> Int32? {
        var request = SpawnRequest(arguments: arguments)
        request.newProcessGroup = false
        guard let pid = try? kernel.spawn(request) else { return nil }
        return wait(pid, kernel: kernel)
    }

    /// Waits for the child `pid` to end and reaps it: its status as a shell gives it (128 + the
    /// signal when killed). The wait is a poll of its pidfd through `kernel` (a look every 20 ms
    /// where the kernel has no pidfds). A child reaped by nobody here (whoever started us left
    /// SIGCHLD ignored: the kernel reaps it) ends with status 0, its output then being all
    /// there is to judge it by.
    static func wait(_ pid: Int32, kernel: any Kernel) -> Int32 {
        let pidfd = try? kernel.processDescriptor(pid)
        defer { if let pidfd { kernel.close(pidfd) } }
        while true {
            if let exit = kernel.reapChild(pid) { return exit.shellStatus }
            do throws(SysError) { try kernel.kill(pid, 0) } catch where error.errno == ESRCH { return 0 } catch {}
            if let pidfd {
                var fds = [pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)]
                if (try? kernel.poll(&fds, timeoutMs: -1)) == nil { kernel.sleep(0.02) }
            } else {
                kernel.sleep(0.02)
            }
        }
    }
}
