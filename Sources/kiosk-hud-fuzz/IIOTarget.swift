import KioskBoards

/// `iio`: `kiosk-hud tilt --iio-root DIR` on generated sysfs trees (IIOTree: values, missing
/// files, FIFOs, directories, links, huge numbers, garbage, udev database files), with the tilt
/// options sometimes given (`--accel` naming a device or not, `--mount-matrix`, `--rate`,
/// `--depth`, `--neutral`, `--reduce-motion`, `--rotate`) and `--samples`/`--duration` so every
/// case ends (`--duration` 0.1–0.3 s; a healthy sensor at a high rate ends it sooner).
///
/// Besides the common criteria: a run that ends normally must have said what the sampler did
/// ("tilt: using …", "tilt: cannot use …: …", "tilt: no accelerometer …", "… lost: …"); a
/// sampler that says nothing for the whole run is stuck in a call (a FIFO standing in for an
/// attribute blocks open(2)), which is a hang of the tilt effect even though `--duration` ends
/// the process.
final class IIOTarget: SpawnTarget {
    let name = "iio"

    func prepare(_ rng: inout Rng, index: Int, in dir: String) -> SpawnCase {
        let notes = IIOTree.make(&rng, at: dir + "/root")
        var argv: [[UInt8]] = [b("tilt"), b("--iio-root"), b("root"), b("--duration"), b(rng.pick(["0.1", "0.15", "0.2", "0.3"]))]
        if rng.chance(0.8) { argv += [b("--samples"), b(String(rng.int(1...20)))] }
        if rng.chance(0.6) { argv += [b("--rate"), b(rng.pick(["1000", "500", "100", "30", "0.1", "1000"]))] }
        if rng.chance(0.2) {
            argv += [b("--accel"), b(rng.pick(["iio:device0", "iio:device1", "accel-display", "accel-base", "mxc4005", "lis3dh", "nothing", "iio:device"]))]
        }
        if rng.chance(0.15) {
            argv += [b("--mount-matrix"), b(rng.pick(["0, 1, 0; -1, 0, 0; 0, 0, 1", "1, 0, 0; 0, 1, 0; 0, 0, 1", "1e308, 0, 0; 0, 1e308, 0; 0, 0, 1e308"]))]
        }
        if rng.chance(0.15) { argv += [b("--depth"), b(rng.pick(["0", "10", "100", "0.001"]))] }
        if rng.chance(0.1) { argv += [b("--neutral"), b(rng.pick(["face-up", "resting"]))] }
        if rng.chance(0.1) { argv.append(b(rng.chance(0.5) ? "--reduce-motion" : "--no-reduce-motion")) }
        if rng.chance(0.1) { argv += [b("--rotate"), b(rng.pick(["0", "90", "180", "270"]))] }
        if rng.chance(0.1) { argv += [b("--time-constant"), b(rng.pick(["0", "10", "0.15"])), b("--dead-zone"), b(rng.pick(["0", "45"]))] }
        return SpawnCase(argv: argv, canvasBytes: 800 * 480 * 4, check: { o in
            guard o.status == 0 else { return nil }
            let said = o.stderrLines.contains { l in
                l.hasPrefix("tilt: using ") || l.hasPrefix("tilt: cannot use ") || l.hasPrefix("tilt: no accelerometer") || l.contains(" lost: ")
            }
            return said ? nil : Violation(kind: "stuck", detail: "the sampler said nothing in the whole run (blocked in a call?); tree: \(notes)",
                                         key: "sampler silent: " + Self.oddPart(notes))
        })
    }

    /// Which attributes of the tree are FIFOs (the usual reason a sampler says nothing).
    static func oddPart(_ notes: String) -> String {
        let fifos = notes.split(separator: ",").map { String($0.drop { $0 == " " }) }.filter { $0.hasSuffix(": fifo") }.map { String($0.dropLast(6)) }
        return fifos.isEmpty ? "no FIFO in the tree" : "FIFO at " + Set(fifos).sorted().joined(separator: "+")
    }
}
