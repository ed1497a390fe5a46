import Glibc
import KioskSys

/// Ends the program with `code` after the command has cleaned up (thrown out of a command's run).
public struct ExitCode: Error {
    /// The process's exit status.
    public var code: Int32
    /// Ends with `code`.
    public init(_ code: Int32) { self.code = code }
}

/// No display could be opened (`run` then runs its command without a HUD).
struct ScreenUnavailable: Error, CustomStringConvertible {
    var description: String
}

/// A display run's failure, as one line.
public struct ShowError: Error, CustomStringConvertible {
    /// The failure, as the error line says it.
    public var description: String
    /// A failure saying `s`.
    public init(_ s: String) { description = s }
}

/// Where the commands' output and log lines go: standard output and error, written through the
/// `Kernel` seam (a test can set another kernel and see the lines).
public enum CommandOutput {
    /// The kernel the lines are written through.
    nonisolated(unsafe) public static var kernel: Kernel = LinuxKernel()
}

/// Writes `text` straight to descriptor `fd` (unbuffered: a reader of a pipe or file sees it at
/// once; EINTR and short writes handled here and by the kernel seam).
public func writeText(_ text: String, to fd: Int32) {
    let kernel = CommandOutput.kernel
    Array(text.utf8).withUnsafeBytes { bytes in
        var rest = bytes[...]
        while !rest.isEmpty {
            do {
                let n = try kernel.write(fd, UnsafeRawBufferPointer(rebasing: rest))
                guard n > 0 else { return }
                rest = rest.dropFirst(n)
            } catch let e as SysError where e.errno == EINTR {
                continue
            } catch {
                return
            }
        }
    }
}

/// `text` and a newline, as `writeText`.
public func writeLine(_ text: String, to fd: Int32) { writeText(text + "\n", to: fd) }

/// One log line on stderr (write(2): unbuffered, no stdio state).
public func showLog(_ s: String) { writeText("kiosk-hud: \(s)\n", to: 2) }

/// Seconds (or milliseconds) with two decimals at most, as the log lines show them.
func fmt(_ v: Double) -> String {
    let r = (v * 100).rounded() / 100
    return String(r)
}
