// The seam stays the only way to the kernel: no source outside KioskSys (and the fakes that play
// it) holds a `FileDescriptor`, calls libc's descriptor calls by name, or calls one of KioskSys's
// free wrappers (a descriptor opened, a file looked at by path, the process table, a signal,
// sd_notify, its own pid) instead of a `Kernel` — the executable included, which only wires
// (KioskCommands holds the commands).
import KioskSys
import KioskTestSupport
import Testing

@Suite struct KernelSeamGuardTests {
    /// The package's Sources directory, from this file's path (…/Tests/KioskSysTests/this.swift).
    static let sources: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/Sources"
    }()

    /// The folders under Sources that may talk to the kernel themselves.
    static let exempt: Set<String> = ["KioskSys", "KioskFakeKernel"]
    /// Folders that may call KioskSys's free calls by path and of the process (`pathCalls`,
    /// `processCalls`) but nothing else here: the bench and the fuzzer are measuring and driving
    /// tools, not product code — they set up directories, read /proc and reap their own workers
    /// for themselves, never through a seam a test plays.
    static let pathCallsAllowed: Set<String> = ["kiosk-hud-bench", "kiosk-hud-fuzz"]

    /// Words that may not appear at all (as an identifier).
    static let forbiddenWords = ["FileDescriptor"]
    /// Text that may not appear in code: stat(2) by path outside the seam (a file's identity is
    /// the kernel's `fileIdentity(_:)`).
    static let forbiddenPhrases = ["FileIdentity(path:"]
    /// Calls that may not be made by name: libc's, KioskSys's free wrappers that return a
    /// descriptor, or that look at or change a file by path: a `Kernel` has each of them.
    /// A method call (`kernel.lockFile(`) is fine.
    static let forbiddenCalls = [
        "Glibc.read", "Glibc.write", "Glibc.open", "Glibc.close", "Glibc.pread", "Glibc.poll", "Glibc.send", "Glibc.fcntl",
        "fcntl", "unixConnection", "unixAbstractConnection", "unixListener", "unixAbstractListener", "lockFile",
        "eventCounter", "ueventSocket", "openProcessDescriptor", "makePipe", "activationSockets",
        "setMode", "setOwner",
    ] + pathCalls + processCalls
    /// KioskSys's free calls by path (stat, unlink, mkdir -p, replace, small reads and writes):
    /// a `Kernel` has each of them, so a fake kernel sees (and can fail) every one.
    static let pathCalls = [
        "fileStatus", "removeFile", "makeDirectories", "replaceFile", "readSmallFile", "writeSmallFile", "fileExists",
        "listDirectory", "readFileBytes", "readLink", "makeFIFO",
    ]
    /// KioskSys's free calls of the process and its children, sockets, maps and the service
    /// manager (and libc's getpid beside them): a `Kernel` has each of them too.
    static let processCalls = [
        "sendSignal", "descendants", "processStartTime", "reapChildren", "reapChild", "becomeChildSubreaper",
        "processID", "getpid", "effectiveUserID", "groupID", "ignoreBrokenPipes", "notifyServiceManager",
        "boundPath", "unmap",
    ]

    /// Every .swift file under `dir`.
    static func swiftFiles(_ dir: String) -> [String] { Proc.swiftFiles(dir) }

    static func isIdentifier(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }

    /// The forbidden uses in one line of code (comments are skipped).
    static func violations(in line: Substring, allowing allowed: [String] = []) -> [String] {
        var code = line
        if let comment = line.firstRange(of: "//") { code = line[..<comment.lowerBound] }
        var found: [String] = forbiddenPhrases.filter { !allowed.contains($0) && code.contains($0) }
        for word in forbiddenWords + forbiddenCalls where !allowed.contains(word) {
            let call = forbiddenCalls.contains(word)
            var rest = code[...]
            while let r = rest.firstRange(of: word) {
                let before = r.lowerBound == code.startIndex ? nil : code[code.index(before: r.lowerBound)]
                let after = r.upperBound == code.endIndex ? nil : code[r.upperBound]
                // A method (`kernel.fileStatus(`) is fine; the module's own name (`KioskSys.fileStatus(`) is not.
                let qualified = code[..<r.lowerBound].hasSuffix("KioskSys.")
                // A method of the same name declared (`func unmap(` on a card) is not a call.
                let declared = code[..<r.lowerBound].hasSuffix("func ")
                let startsWord = !declared && (before.map { !isIdentifier($0) && (word.contains(".") || $0 != "." || qualified) } ?? true)
                let endsWord = call ? after == "(" : after.map { !isIdentifier($0) } ?? true
                if startsWord && endsWord { found.append(call ? word + "(" : word); break }
                rest = code[r.upperBound...]
            }
        }
        return found
    }

    @Test func onlyKioskSysTalksToTheKernel() throws {
        let top = try #require(listDirectory(Self.sources), "no Sources at \(Self.sources)")
        var offenders: [String] = []
        var scanned = 0
        for dir in top where !Self.exempt.contains(dir) {
            let allowed = Self.pathCallsAllowed.contains(dir) ? Self.pathCalls + Self.processCalls : []
            for file in Self.swiftFiles(Self.sources + "/" + dir) {
                scanned += 1
                let text = String(decoding: try readFileBytes(file, limit: 1 << 22), as: UTF8.self)
                for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    for v in Self.violations(in: line, allowing: allowed) {
                        offenders.append("\(file.dropFirst(Self.sources.count + 1)):\(i + 1): \(v)")
                    }
                }
            }
        }
        #expect(scanned > 50, "only \(scanned) files found under \(Self.sources)")
        #expect(offenders.isEmpty, "calls past the Kernel seam (go through a `Kernel`):\n\(offenders.joined(separator: "\n"))")
    }

    /// The scanner finds what it is meant to, and not a method of the seam or a comment.
    @Test func scannerSeesForbiddenUses() {
        #expect(Self.violations(in: "let fd = try FileDescriptor.open(path, 0)") == ["FileDescriptor"])
        #expect(Self.violations(in: "_ = Glibc.read(fd, &b, 4)") == ["Glibc.read("])
        #expect(Self.violations(in: "_ = fcntl(fd, F_SETFL, 0)") == ["fcntl("])
        #expect(Self.violations(in: "let c = try unixConnection(path)") == ["unixConnection("])
        #expect(Self.violations(in: "let l = try kernel.lockFile(path)").isEmpty)
        #expect(Self.violations(in: "// FileDescriptor.open, fcntl(2)").isEmpty)
        #expect(Self.violations(in: "let fileDescriptorCount = 1").isEmpty)
        #expect(Self.violations(in: "guard let st = try? fileStatus(path) else { return nil }") == ["fileStatus("])
        #expect(Self.violations(in: "if KioskSys.fileExists(path) {}") == ["fileExists("])
        #expect(Self.violations(in: "try kernel.replaceFile(path, with: bytes)").isEmpty)
        #expect(Self.violations(in: "do { try makeDirectories(dir) }", allowing: Self.pathCalls).isEmpty)
        #expect(Self.violations(in: "for p in descendants(of: processID()) {}") == ["descendants(", "processID("])
        #expect(Self.violations(in: "try? sendSignal(SIGTERM, to: pid)") == ["sendSignal("])
        #expect(Self.violations(in: "let me = getpid()") == ["getpid("])
        #expect(Self.violations(in: "_ = try? notifyServiceManager(\"READY=1\\n\")") == ["notifyServiceManager("])
        #expect(Self.violations(in: "guard let names = listDirectory(dir) else { return }") == ["listDirectory("])
        #expect(Self.violations(in: "for p in kernel.descendants(of: kernel.processID()) {}").isEmpty)
        #expect(Self.violations(in: "try kernel.kill(-pid, signal); _ = kernel.reapChildren()").isEmpty)
        #expect(Self.violations(in: "public func unmap(_ p: UnsafeMutableRawPointer, length: Int) { kernel.munmap(p, length: length) }").isEmpty)
        #expect(Self.violations(in: "try? unmap(p, length: n)") == ["unmap("])
    }
}
