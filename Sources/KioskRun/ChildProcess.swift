import Glibc
import KioskDevices
import KioskSys

/// The command `run` starts: in a process group of its own, stdin from /dev/null (unless asked),
/// stdout and stderr through pipes that the loop reads — passed through byte for byte and
/// handed to the progress reader — and its end seen through SIGCHLD on the loop. `run` is the
/// child subreaper, so a grandchild that detached (setsid, a daemon's double fork) is still
/// found among our descendants and ended with the rest.
public final class ChildProcess {
    public let pid: Int32
    let loop: PollEventLoop
    private var pipes: [(fd: FileDescriptor, target: Int32, token: LoopToken)] = []
    private var signalToken: LoopToken?
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
    public init(_ arguments: [String], stdin: Bool, ownsEveryChild: Bool = false, loop: PollEventLoop,
                onOutput: @escaping (Int32, ArraySlice<UInt8>) -> Void, onExit: @escaping (ChildExit) -> Void) throws(SysError) {
        self.loop = loop; self.onOutput = onOutput; self.onExit = onExit; self.ownsEveryChild = ownsEveryChild
        if ownsEveryChild { try becomeChildSubreaper() }
        let out = try makePipe()
        let err: (read: FileDescriptor, write: FileDescriptor)
        do { err = try makePipe() } catch { try? out.read.close(); try? out.write.close(); throw error }
        let null = stdin ? nil : try? FileDescriptor.open("/dev/null", O_RDONLY)
        var request = SpawnRequest(arguments: arguments)
        request.stdin = null?.rawValue
        request.stdout = out.write.rawValue
        request.stderr = err.write.rawValue
        request.signalMask = loop.originalSignalMask
        // SIGCHLD is read by the loop from before the child can end (the handler finds this
        // object through a box, as `self` cannot be captured before `pid` is set).
        var spawned: Int32 = -1
        let box = WeakBox()
        let token = loop.onSignal(SIGCHLD) { box.child?.reap() }
        do { spawned = try spawnProcess(request) } catch {
            loop.cancel(token)
            for f in [out.read, out.write, err.read, err.write] { try? f.close() }
            try? null?.close()
            throw error
        }
        pid = spawned
        signalToken = token
        box.child = self
        try? out.write.close(); try? err.write.close(); try? null?.close()
        for (fd, target) in [(out.read, Int32(1)), (err.read, Int32(2))] {
            _ = fcntl(fd.rawValue, F_SETFL, O_NONBLOCK)
            let t = loop.watch(fd.rawValue, .readable) { [weak self] _ in self?.drain(fd, target: target) }
            pipes.append((fd, target, t))
        }
    }

    deinit { close() }

    /// Sends `signal` to the command's process group (and so to what it started there).
    public func signalGroup(_ signal: Int32) { try? sendSignal(signal, to: -pid) }

    /// Sends `signal` to the group and to every descendant that left it (setsid, daemons).
    public func signalAll(_ signal: Int32) {
        signalGroup(signal)
        for p in family() { try? sendSignal(signal, to: p) }
    }

    /// Whether anything started by the command is still alive.
    public var anyAlive: Bool { !family().isEmpty }

    public let ownsEveryChild: Bool
    private var seen: Set<Int32> = []

    /// Remembers the command's descendants as they are now (called on each SIGCHLD).
    public func notice() {
        if exit == nil { seen.insert(pid) }
        for p in descendants(of: pid) { seen.insert(p) }
    }

    private func family() -> [Int32] {
        let all = descendants(of: processID())
        if ownsEveryChild { return all }
        notice()
        return all.filter(seen.contains)
    }

    private func drain(_ fd: FileDescriptor, target: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        // A few chunks per turn: the loop stays responsive to a button while a command floods.
        for _ in 0..<4 {
            let n: Int
            do { n = try loop.kernel.read(fd.rawValue, into: &buffer) } catch where error.errno == EAGAIN { return } catch {
                closePipe(fd); return
            }
            if n == 0 { closePipe(fd); finishIfDone(); return }
            let chunk = buffer[..<n]
            let written = chunk.withUnsafeBytes { (try? FileDescriptor(rawValue: target).write($0)) != nil }
            if written { passed[target, default: 0] += n }
            onOutput(target, chunk)
        }
    }

    private func closePipe(_ fd: FileDescriptor) {
        guard let i = pipes.firstIndex(where: { $0.fd == fd }) else { return }
        loop.cancel(pipes[i].token)
        try? pipes[i].fd.close()
        pipes.remove(at: i)
    }

    private func closePipes() { for p in pipes { loop.cancel(p.token); try? p.fd.close() }; pipes = [] }

    private func reap() {
        let ended: [(pid: Int32, exit: ChildExit)]
        if ownsEveryChild { ended = reapChildren() } else {
            notice()
            ended = ([pid] + seen.filter { $0 != pid }).compactMap { p in reapChild(p).map { (p, $0) } }
        }
        for (p, e) in ended where p == pid && exit == nil { exit = e }
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
    }
}

private final class WeakBox { weak var child: ChildProcess? }
