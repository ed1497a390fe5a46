import Glibc
import KioskSeams
import KioskSys

/// The command `run` starts: in a process group of its own, stdin from /dev/null (unless asked),
/// stdout and stderr through pipes that the loop reads — passed through byte for byte and
/// handed to the progress reader — and its end seen through SIGCHLD on the loop. `run` is the
/// child subreaper, so a grandchild that detached (setsid, a daemon's double fork) is still
/// found among our descendants and ended with the rest.
public final class ChildProcess {
    public let pid: Int32
    let loop: any EventLoop
    /// The system calls behind `loop` (pipes, the spawn, the descriptors).
    let kernel: any Kernel
    private var pipes: [(fd: Int32, target: Int32, token: LoopToken)] = []
    private var signalToken: LoopToken?
    /// The command's pidfd, when the kernel has them: its end is seen even when another thread
    /// of a program took the SIGCHLD (signals go to any thread that does not block them).
    private var processFD: (fd: Int32, token: LoopToken)?
    private let onOutput: (Int32, ArraySlice<UInt8>) -> Void
    private var onExit: ((ChildExit) -> Void)?
    public private(set) var exit: ChildExit?
    /// Bytes passed through, by target (1, 2).
    public private(set) var passed: [Int32: Int] = [1: 0, 2: 0]

    /// Starts `arguments`. `onOutput(target, bytes)` hears each chunk after it is written to
    /// our own descriptor `target` (1 or 2); `onExit` hears the command's end once its output
    /// is drained.
    ///
    /// With `ownsEveryChild` (the `run` command, whose only children are the command and what is
    /// reparented to it) this process becomes a child subreaper, and every descendant of it is
    /// the command's; else (a program with children of its own) the command's are the ones seen
    /// below it (`notice()`, on each SIGCHLD), and only they are reaped.
    public convenience init(_ arguments: [String], stdin: Bool, ownsEveryChild: Bool = false, loop: PollEventLoop,
                            onOutput: @escaping (Int32, ArraySlice<UInt8>) -> Void, onExit: @escaping (ChildExit) -> Void) throws(SysError) {
        try self.init(arguments, stdin: stdin, ownsEveryChild: ownsEveryChild, loop: loop, kernel: loop.kernel, onOutput: onOutput, onExit: onExit)
    }

    /// Starts `arguments` on any event loop, its system calls through `kernel` (the one behind
    /// `loop`: a real loop's, or a test's fake); else as the `PollEventLoop` initialiser.
    public init(_ arguments: [String], stdin: Bool, ownsEveryChild: Bool = false, loop: any EventLoop, kernel: any Kernel,
                onOutput: @escaping (Int32, ArraySlice<UInt8>) -> Void, onExit: @escaping (ChildExit) -> Void) throws(SysError) {
        self.loop = loop; self.kernel = kernel; self.onOutput = onOutput; self.onExit = onExit; self.ownsEveryChild = ownsEveryChild
        if ownsEveryChild {
            try kernel.becomeChildSubreaper()
            // What was ours before the command (a shell's process substitution on our stderr,
            // say) is not the command's, nor is what it starts.
            preexisting = Set(kernel.descendants(of: kernel.processID()))
        }
        // Pipes, the child, its descriptors, the process table (descendants, start times,
        // reaping) and the signals sent to it: all through the loop's kernel (the seam).
        let out = try kernel.pipe()
        let err: (read: Int32, write: Int32)
        do { err = try kernel.pipe() } catch { kernel.close(out.read); kernel.close(out.write); throw error }
        let null = stdin ? nil : try? kernel.open("/dev/null", flags: O_RDONLY)
        var request = SpawnRequest(arguments: arguments)
        request.stdin = null
        request.stdout = out.write
        request.stderr = err.write
        // A clean start: no signal blocked (whatever our parent or our loop blocks), every
        // action the default (spawnProcess), so SIGTERM and SIGINT reach the command.
        var empty = sigset_t()
        sigemptyset(&empty)
        request.signalMask = empty
        // SIGCHLD is read by the loop from before the child can end (the handler finds this
        // object through a box, as `self` cannot be captured before `pid` is set).
        var spawned: Int32 = -1
        let box = WeakBox()
        let token = loop.onSignal(SIGCHLD) { box.child?.reap() }
        do { spawned = try kernel.spawn(request) } catch {
            loop.cancel(token)
            for f in [out.read, out.write, err.read, err.write] { kernel.close(f) }
            if let null { kernel.close(null) }
            throw error
        }
        pid = spawned
        signalToken = token
        box.child = self
        kernel.close(out.write); kernel.close(err.write)
        if let null { kernel.close(null) }
        if let fd = try? kernel.processDescriptor(spawned) {
            processFD = (fd, loop.watch(fd, .readable) { [weak self] _ in self?.reap() })
        }
        for (fd, target) in [(out.read, Int32(1)), (err.read, Int32(2))] {
            try? kernel.setNonBlocking(fd)
            let t = loop.watch(fd, .readable) { [weak self] _ in self?.drain(fd, target: target) }
            pipes.append((fd, target, t))
        }
    }

    deinit { close() }

    /// Sends `signal` to the command's process group (and so to what it started there).
    public func signalGroup(_ signal: Int32) { try? kernel.kill(-pid, signal) }

    /// Sends `signal` to the group and to every descendant that left it (setsid, daemons).
    public func signalAll(_ signal: Int32) {
        // Who is there is read first: once the group has the signal, the command may be gone
        // and what it started moved out of our sight.
        let all = family()
        signalGroup(signal)
        for p in all { try? kernel.kill(p, signal) }
    }

    /// Whether anything started by the command is still alive.
    public var anyAlive: Bool { !family().isEmpty }

    public let ownsEveryChild: Bool
    private var preexisting: Set<Int32> = []
    /// The command and its descendants as they were seen, with their start times (a pid is
    /// used again once its process has gone).
    private var seen: [Int32: UInt64] = [:]

    /// Remembers the command's descendants as they are now (called on each SIGCHLD and before
    /// each signal sent to them all).
    public func notice() {
        // Below the command while it runs; once it has ended its pid may name another process.
        guard exit == nil else { return }
        for p in [pid] + kernel.descendants(of: pid) where seen[p] == nil {
            if let t = kernel.processStartTime(p) { seen[p] = t }
        }
    }

    /// Everything the command started that still runs: with `ownsEveryChild`, every descendant
    /// of ours (the orphans come to us as subreaper); else the ones seen, wherever they went
    /// (an orphan goes to init, out of our tree).
    private func family() -> [Int32] {
        if ownsEveryChild {
            let all = kernel.descendants(of: kernel.processID())
            guard !preexisting.isEmpty else { return all }
            var theirs = preexisting
            for p in preexisting { theirs.formUnion(kernel.descendants(of: p)) }
            return all.filter { !theirs.contains($0) }
        }
        notice()
        let alive = seen.filter { kernel.processStartTime($0.key) == $0.value }
        seen = alive
        return Array(alive.keys)
    }

    private func drain(_ fd: Int32, target: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        // A few chunks per turn: the loop stays responsive to a button while a command floods.
        for _ in 0..<4 {
            let n: Int
            do { n = try kernel.read(fd, into: &buffer) } catch where error.errno == EAGAIN { return } catch {
                closePipe(fd); return
            }
            if n == 0 { closePipe(fd); finishIfDone(); return }
            let chunk = buffer[..<n]
            let written = chunk.withUnsafeBytes { writeAll(target, $0) }
            if written { passed[target, default: 0] += n }
            onOutput(target, chunk)
        }
    }

    /// All of `bytes` to our own `fd` through the seam (a short write goes on with the rest).
    private func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var rest = bytes
        while !rest.isEmpty {
            guard let n = try? kernel.write(fd, rest), n > 0 else { return false }
            rest = UnsafeRawBufferPointer(rebasing: rest[n...])
        }
        return true
    }

    private func closePipe(_ fd: Int32) {
        guard let i = pipes.firstIndex(where: { $0.fd == fd }) else { return }
        loop.cancel(pipes[i].token)
        kernel.close(pipes[i].fd)
        pipes.remove(at: i)
    }

    private func closePipes() { for p in pipes { loop.cancel(p.token); kernel.close(p.fd) }; pipes = [] }

    private func reap() {
        let ended: [(pid: Int32, exit: ChildExit)]
        if ownsEveryChild { ended = kernel.reapChildren() } else {
            notice()
            ended = kernel.reapChild(pid).map { [(pid, $0)] } ?? []
        }
        for (p, e) in ended where p == pid && exit == nil { exit = e }
        if exit != nil, let p = processFD { loop.cancel(p.token); kernel.close(p.fd); processFD = nil }
        guard exit != nil, !pipes.isEmpty || onExit != nil else { return }
        // The command ended: what is left in the pipes is read now; a descendant that keeps
        // them open (a daemon it started) does not hold the end back.
        for p in pipes { drain(p.fd, target: p.target) }
        closePipes()
        finishIfDone()
    }

    private func finishIfDone() {
        guard let exit, pipes.isEmpty, let done = onExit else { return }
        onExit = nil
        done(exit)
    }

    /// Stops watching (the pipes and SIGCHLD); what is left of the command is no longer reaped here.
    public func close() {
        closePipes()
        if let t = signalToken { loop.cancel(t) }
        signalToken = nil
        if let p = processFD { loop.cancel(p.token); kernel.close(p.fd) }
        processFD = nil
    }
}

private final class WeakBox { weak var child: ChildProcess? }
