/// A generated IIO sysfs tree standing for `/` (`--iio-root DIR`, as Tests/KioskIIOTests/
/// Support.swift builds one): DIR/sys/bus/iio/devices/iio:deviceN/… and DIR/run/udev/data/….
/// Each attribute kiosk-hud reads is a regular file with a value (good, boundary, huge, garbage,
/// non-finite, long, invalid UTF-8), or missing, a FIFO, a directory, an empty file, a dangling
/// link, a link loop, or a link to /dev/zero. Device directories get odd names too.
enum IIOTree {
    /// What stands at an attribute's path.
    enum Node {
        case text([UInt8]), missing, fifo, directory, empty, dangling, loop, zero
    }

    /// Makes a tree under `root` (created here); returns a short description of what is odd in it.
    @discardableResult
    static func make(_ rng: inout Rng, at root: String) -> String {
        let devices = root + "/sys/bus/iio/devices"
        makeDirectories(devices)
        makeDirectories(root + "/run/udev/data")
        var notes: [String] = []
        let count = rng.weighted([8, 70, 15, 7])
        for d in 0..<count {
            let number = rng.chance(0.85) ? d : rng.pick([7, 99, 2_147_483_647, 9_999_999])
            var name = "iio:device\(number)"
            if rng.chance(0.05) { name = rng.pick(["iio:device", "iio:device-1", "iio:device18446744073709551616", "iio:device 1", "iio:device0x1", "iio:device٣"]) }
            let dir = devices + "/" + name
            if rng.chance(0.03) {  // the device itself is odd
                var node = rng.pick([Node.fifo, .empty, .dangling, .loop])
                if case .fifo = node, KnownFailures.skips("iio-fifo") { node = .empty }
                place(node, at: dir, &rng)
                notes.append("device directory: \(node)")
                continue
            }
            makeDirectories(dir)
            notes += device(&rng, dir: dir, name: name, udev: root + "/run/udev/data")
        }
        return notes.isEmpty ? "plain tree" : notes.joined(separator: ", ")
    }

    /// One device's attributes.
    static func device(_ rng: inout Rng, dir: String, name: String, udev: String) -> [String] {
        var notes: [String] = []
        func attr(_ a: String, _ value: () -> [UInt8], odd: Double = 0.06, present: Double = 1) {
            guard rng.chance(present) else { return }
            if rng.chance(odd) {
                var n = rng.pick([Node.missing, .fifo, .directory, .empty, .dangling, .loop, .zero])
                if case .fifo = n, KnownFailures.skips("iio-fifo") { n = .missing }
                place(n, at: dir + "/" + a, &rng)
                notes.append("\(a): \(n)")
            } else {
                place(.text(value()), at: dir + "/" + a, &rng)
            }
        }
        let oddRaw = rng.chance(0.5)
        for axis in ["x", "y", "z"] {
            attr("in_accel_\(axis)_raw", { rawValue(&rng, odd: oddRaw) }, odd: 0.03)
        }
        attr("name", { text(&rng, ["mxc4005", "bmc150_accel", "lis3dh", "accel_3d", ""]) }, present: 0.9)
        attr("label", { text(&rng, ["accel-display", "accel-base", "accel-display ", "ACCEL-DISPLAY", ""]) }, present: 0.3)
        let perAxis = rng.chance(0.2)
        if perAxis {
            for axis in ["x", "y", "z"] {
                attr("in_accel_\(axis)_scale", { decimal(&rng) }, present: 0.7)
                attr("in_accel_\(axis)_offset", { decimal(&rng) }, present: 0.3)
            }
        }
        attr("in_accel_scale", { decimal(&rng) }, present: 0.8)
        attr("in_accel_offset", { decimal(&rng) }, present: 0.2)
        let prefix = rng.chance(0.5) ? "" : "in_accel_"
        attr(prefix + "sampling_frequency_available", { frequencies(&rng) }, odd: 0.1, present: 0.4)
        attr(prefix + "sampling_frequency", { Array("30\n".utf8) }, odd: 0.15, present: 0.4)
        attr(rng.pick(["mount_matrix", "in_accel_mount_matrix", "in_mount_matrix"]), { matrix(&rng) }, present: 0.3)
        let major = rng.int(1...511), minor = rng.int(0...255)
        attr("dev", { Array(rng.pick(["\(major):\(minor)\n", "\(major):\(minor):1\n", "garbage\n", ":\n", "99999999999999999999:1\n"]).utf8) }, present: 0.3)
        if rng.chance(0.4) {
            let file = udev + "/" + (rng.chance(0.5) ? "+iio:\(name)" : "c\(major):\(minor)")
            if rng.chance(0.08) {
                var node = rng.pick([Node.fifo, .directory, .loop, .zero])
                if case .fifo = node, KnownFailures.skips("iio-fifo") { node = .directory }
                place(node, at: file, &rng)
                notes.append("udev database: \(node)")
            } else {
                var t = "I:1\n"
                if rng.chance(0.7) { t += "E:ACCEL_MOUNT_MATRIX=" + String(decoding: matrix(&rng), as: UTF8.self).split(separator: "\n").joined() + "\n" }
                if rng.chance(0.4) { t += "E:ACCEL_LOCATION=" + rng.pick(["display", "base", "lid", ""]) + "\n" }
                if rng.chance(0.1) { t += String(repeating: "E:K=V\n", count: rng.pick([10, 20_000])) }
                if rng.chance(0.1) { t += "E:=\nE\nE:ACCEL_MOUNT_MATRIX\n\u{FF}" }
                writeFile(file, t)
            }
        }
        return notes
    }

    static func place(_ node: Node, at path: String, _ rng: inout Rng) {
        switch node {
        case let .text(bytes): writeFile(path, bytes)
        case .missing: break
        case .fifo: makeFIFO(path)
        case .directory: makeDirectories(path)
        case .empty: writeFile(path, [])
        case .dangling: makeSymlink("nowhere-\(rng.below(1000))", at: path)
        case .loop: makeSymlink(String(path.split(separator: "/").last ?? "x"), at: path)
        case .zero: makeSymlink("/dev/zero", at: path)
        }
    }

    static func rawValue(_ rng: inout Rng, odd: Bool) -> [UInt8] {
        if !odd || rng.chance(0.4) { return Array("\(rng.int(-1200...1200))\n".utf8) }
        let huge = ["9223372036854775807", "-9223372036854775808", "999999999999999999", "1000000000000000000", "99999999999999999999",
                    "2147483648", "-0", "+5", "--5", "5-", "1.5", "1e3", "0x10", " 12 ", "\t12\n\n", "12abc", "", "١٢", "1 2", "\u{0}12",
                    "12\u{0}", String(repeating: "1", count: 60), String(repeating: "1", count: 5000), "nan", "inf"]
        var v = Array(rng.pick(huge).utf8)
        if rng.chance(0.7) { v.append(0x0A) }
        return v
    }

    static func decimal(_ rng: inout Rng) -> [UInt8] {
        if rng.chance(0.5) { return Array(rng.pick(["0.009582\n", "0.000598\n", "9.80665\n", "1\n", "0.038\n"]).utf8) }
        var t = interestingNumberText(&rng)
        if rng.chance(0.1) { t = String(repeating: "1", count: rng.pick([300, 5000])) + "x" }
        return Array((t + (rng.chance(0.7) ? "\n" : "")).utf8)
    }

    static func frequencies(_ rng: inout Rng) -> [UInt8] {
        let lists = ["12.5 25 50 100 200", "[0 0 0]", "[1 0 100]", "[1 -1 100]", "[nan 1 inf]", "[1e308 1e308 1e308]", "[0 1e-300 1e308]",
                     "[100 1 1]", "[", "]", "[]", "", "1e309", "nan inf -inf", "  \n", "0", "-5 -1", "[1 1]",
                     (0..<2000).map { String($0) }.joined(separator: " ")]
        return Array((rng.pick(lists) + "\n").utf8)
    }

    static func matrix(_ rng: inout Rng) -> [UInt8] {
        let ms = ["1, 0, 0; 0, 1, 0; 0, 0, 1", "0, 1, 0; -1, 0, 0; 0, 0, 1", "1,0,0;0,1,0;0,0,1", "1, 0, 0; 0, 1, 0", "nan, 0, 0; 0, 1, 0; 0, 0, 1",
                  "1e308, 1e308, 1e308; 1e308, 1e308, 1e308; 1e308, 1e308, 1e308", "1, 0, 0; 0, 1, 0; 0, 0, 1; 0, 0, 0", "", ";;",
                  "a, b, c; d, e, f; g, h, i", "1 0 0 0 1 0 0 0 1", "0, 0, 0; 0, 0, 0; 0, 0, 0", String(repeating: "1, ", count: 3000)]
        return Array((rng.pick(ms) + "\n").utf8)
    }

    static func text(_ rng: inout Rng, _ usual: [String]) -> [UInt8] {
        if rng.chance(0.8) { return Array((rng.pick(usual) + "\n").utf8) }
        return rng.pick([Array(String(repeating: "n", count: 5000).utf8), [0xFF, 0xFE, 0x0A], Array("a\nb\nc".utf8), Array("accel-display\u{0}x".utf8)])
    }
}
