// Running a helper program (the QEMU harness, gcc) to the end from a test.
import Foundation

/// Runs `path` with `args` in `directory` to the end, both pipes read to the end (a full pipe
/// would block the program): its exit status, stdout and stderr. 127 if it cannot start.
public func runToEnd(_ path: String, _ args: [String], in directory: URL) -> (status: Int32, out: String, err: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = args
    p.currentDirectoryURL = directory
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    do { try p.run() } catch { return (127, "", "\(path): \(error)") }
    let errBox = DataBox()
    let t = Thread { errBox.set(err.fileHandleForReading.readDataToEndOfFile()) }
    t.start()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    let e = errBox.wait()
    return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
}

/// A one-shot box for the stderr reader thread.
private final class DataBox: @unchecked Sendable {
    private let cond = NSCondition()
    private var data: Data?
    func set(_ d: Data) { cond.lock(); data = d; cond.signal(); cond.unlock() }
    func wait() -> Data {
        cond.lock(); defer { cond.unlock() }
        while data == nil { cond.wait() }
        return data!
    }
}
