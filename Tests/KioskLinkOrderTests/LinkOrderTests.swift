// Sources/kiosk-hud/link-order.txt names the functions kiosk-hud runs at start-up and while
// showing, which lld places side by side (Sources/kiosk-hud/LinkOrder.md). lld skips a name the
// link does not define without a word (--no-warn-symbol-ordering), so after a rename the list
// goes stale silently and the renamed function lands among the cold code. This test fails on
// every entry the release kiosk-hud does not define, and names the command that re-makes the list.
//
// The release binary, because the list is made from it and names what only a release build has
// (generic specializations, merged functions): the debug kiosk-hud that `swift test` built lacks
// about 280 of the 1,400. So the test builds kiosk-hud in release with a scratch path of its own
// (.build-release-check, git-ignored; Tools/link-order/make.sh uses the same one): about 35 s of
// compiling on two cores in a fresh clone, later runs only what changed. It runs niced, so that
// it takes the CPU the QEMU suites leave and disturbs their timings as little as possible, and is
// waited for off the cooperative pool. The symbols are `nm --defined-only`'s: the names lld can
// order (what lld reports as "symbol ordering file: no such symbol" is exactly what nm lacks).
import Glibc
import KioskSys
import KioskTestSupport
import Testing

@Suite struct LinkOrderTests {
    static let list = "Sources/kiosk-hud/link-order.txt"
    static let scratch = Proc.root + "/.build-release-check"

    @Test(.timeLimit(.minutes(10))) func everyEntryIsASymbolOfTheReleaseBinary() async throws {
        let text = try #require(Proc.readFile(Proc.root + "/" + Self.list), "cannot read \(Self.list)")
        // As lld reads the file: lines trimmed, blank lines and # comments skipped.
        let entries = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map(trimmed)
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }

        let t0 = monotonicSeconds()
        let logs = Proc.makeTempDir("kiosk-link-order-test")
        defer { unlink(logs + "/out"); unlink(logs + "/err"); rmdir(logs) }
        let build = ["nice", "-n", "10", "swift", "build", "-c", "release", "--product", "kiosk-hud",
                     "--package-path", Proc.root, "--scratch-path", Self.scratch]
        let pid = try #require(Proc.spawn(build, stdout: logs + "/out", stderr: logs + "/err"), "cannot start \(build.joined(separator: " "))")
        let status = await onOwnThread { Proc.wait(pid) }
        let seconds = Int(monotonicSeconds() - t0)
        guard status == 0 else {
            let log = (Proc.readFile(logs + "/out") ?? "") + (Proc.readFile(logs + "/err") ?? "")
            Issue.record("\(build.joined(separator: " ")) failed (exit \(status)) after \(seconds) s:\n\(log.suffix(4000))")
            return
        }

        let binary = Self.scratch + "/release/kiosk-hud"
        let tool = Proc.executable("nm") ? "nm" : "llvm-nm"  // binutils', else the toolchain's
        let nm = await onOwnThread { Proc.run([tool, "--defined-only", "--just-symbols", binary]) }
        try #require(nm.status == 0, "\(tool) --defined-only \(binary) failed (exit \(nm.status)): \(nm.err.suffix(2000))")
        let defined = Set(nm.out.split(separator: "\n").map(String.init))
        #expect(defined.count > 10_000, "nm listed only \(defined.count) symbols of \(binary)")

        var seen = Set<String>(), stale: [String] = [], twice: [String] = []
        for e in entries {
            if !seen.insert(e).inserted { twice.append(e); continue }
            if !defined.contains(e) { stale.append(e) }
        }
        print("link-order.txt: \(entries.count) entries, \(stale.count) not in the release kiosk-hud " +
              "(release build \(seconds) s, \(binary))")
        let remake = "Re-make the list with the one command\n    Tools/link-order/make.sh\n" +
            "(two to three minutes: kiosk-hud under callgrind on the host and in the QEMU harness; " +
            "after a rename alone, `Tools/link-order/make.sh --prune` only drops the stale entries; " +
            "Sources/kiosk-hud/LinkOrder.md)."
        if !stale.isEmpty {
            let names = await onOwnThread { [stale] in demangled(stale) }
            let lines = zip(stale, names).map { $1 == $0 ? "  \($0)" : "  \($0)\n      \($1)" }
            Issue.record(Comment(rawValue: "\(stale.count) of the \(entries.count) entries of \(Self.list) " +
                (stale.count == 1 ? "is not a symbol" : "are not symbols") + " of the release kiosk-hud: " +
                "renamed or removed since the list was made, or never a symbol. The linker skips such a name " +
                "without a word, so the function it stood for now sits among the cold code:\n" +
                lines.joined(separator: "\n") + "\n" + remake))
        }
        #expect(twice.isEmpty, Comment(rawValue: "\(Self.list) names these more than once: \(twice). " + remake))
    }
}

/// `names` demangled, one for one: Swift symbols with `swift demangle`, C++ ones with c++filt,
/// others (C functions) as they are; a name a tool cannot read stays as it is. callgrind's
/// recursion levels (`name'2`) are demangled as `name` with the `'2` kept.
private func demangled(_ all: [String]) -> [String] {
    let split = all.map { name -> (String, String) in
        guard let q = name.lastIndex(of: "'"), name.index(after: q) < name.endIndex,
              name[name.index(after: q)...].allSatisfy(\.isNumber) else { return (name, "") }
        return (String(name[..<q]), String(name[q...]))
    }
    let names = split.map(\.0)
    var result = names
    for (prefix, tool) in [("$s", ["swift", "demangle", "--simplified", "--compact"]), ("_Z", ["c++filt"])] {
        let at = names.indices.filter { names[$0].hasPrefix(prefix) }
        guard !at.isEmpty else { continue }
        let r = Proc.run(tool + at.map { names[$0] })
        let out = r.out.split(separator: "\n", omittingEmptySubsequences: false)
        guard r.status == 0, out.count >= at.count else { continue }
        for (i, line) in zip(at, out) { result[i] = String(line) }
    }
    return zip(result, split).map { $0 + $1.1 }
}

/// `line` without the blanks lld's reader trims.
private func trimmed(_ line: Substring) -> String {
    let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
    guard let a = line.firstIndex(where: { !blank($0) }), let b = line.lastIndex(where: { !blank($0) }) else { return "" }
    return String(line[a...b])
}
