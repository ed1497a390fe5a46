// BoardProfile [motion]: the tilt effect's accelerometer and filter keys, strict like the rest.
import KioskPresentation
import KioskBoards
import KioskHUD
import Testing

@Suite struct MotionProfileTests {
    private func failure(_ text: String) -> String {
        do { _ = try BoardProfile.parse(text, source: "b.toml"); return "parsed" } catch { return "\(error)" }
    }

    @Test func genericDefaults() throws {
        let p = BoardProfile.generic
        #expect(p.motion == MotionProfile())
        #expect(p.motion.accel == nil && p.motion.mountMatrix == nil)
        #expect(p.motion.rate == 30 && p.motion.timeConstant == 0.15 && p.motion.deadZone == 1.5 && !p.motion.reduceMotion)
        #expect(p.style.motionDepth == 10)
    }

    @Test func everyKeyIsApplied() throws {
        let p = try BoardProfile.parse("""
            [motion]
            accel = "accel-display"
            mount_matrix = "0, 1, 0; -1, 0, 0; 0, 0, 1"
            depth = 6
            rate = 50
            time_constant = 0.3
            dead_zone = 2.5
            reduce_motion = true
            """, source: "b.toml")
        #expect(p.motion.accel == "accel-display")
        #expect(p.motion.mountMatrix == MountMatrix(rowMajor: [0, 1, 0, -1, 0, 0, 0, 0, 1]))
        #expect(p.style.motionDepth == 6)
        #expect(p.motion.rate == 50 && p.motion.timeConstant == 0.3 && p.motion.deadZone == 2.5 && p.motion.reduceMotion)
        // [style] motion_depth still works on its own.
        #expect(try BoardProfile.parse("[style]\nmotion_depth = 3", source: "b.toml").style.motionDepth == 3)
    }

    @Test(arguments: [
        ("[motion]\nacel = \"x\"", "b.toml:2:1: [motion] acel: unknown key"),
        ("[motion]\naccel = \"\"", "[motion] accel = \"\": expected iio:deviceN"),
        ("[motion]\naccel = 3", "[motion] accel = 3: expected iio:deviceN"),
        ("[motion]\nmount_matrix = \"1, 0, 0; 0, 1, 0\"", "[motion] mount_matrix = \"1, 0, 0; 0, 1, 0\": expected 3 rows of 3 numbers (2 rows, not 3)"),
        // A long bad number: the line shows the value cut at 80 and names the place only
        // (found by kiosk-hud-fuzz cli: a 588-character --mount-matrix line).
        ("[motion]\nmount_matrix = \"1, " + String(repeating: "9", count: 300) + "x, 0; 0, 1, 0; 0, 0, 1\"",
         "b.toml:2:16: [motion] mount_matrix = \"1, " + String(repeating: "9", count: 76)
         + "…: expected 3 rows of 3 numbers (value 2 in row 1 is not a decimal number)"),
        ("[motion]\nmount_matrix = \"0, 0, 0; 0, 1, 0; 0, 0, 1\"", "singular"),
        ("[motion]\ndepth = -1", "[motion] depth = -1: expected points from 0 to 100"),
        ("[motion]\nrate = 0", "[motion] rate = 0: expected samples per second from 0.1 to 1000"),
        ("[motion]\nrate = 5000", "from 0.1 to 1000"),
        ("[motion]\ntime_constant = -0.1", "[motion] time_constant = -0.1: expected seconds from 0 to 10"),
        ("[motion]\ndead_zone = 90", "[motion] dead_zone = 90: expected degrees from 0 to 45"),
        ("[motion]\nreduce_motion = \"yes\"", "[motion] reduce_motion = \"yes\": expected true or false"),
        ("[motion]\nreduce_motion = 1", "expected true or false"),
        ("[style]\nmotion_depth = 4\n[motion]\ndepth = 5", "[motion] depth: also given as [style] motion_depth; keep one"),
        ("motion = 3", "b.toml:1:1: motion: expected a table [motion]"),
    ])
    func badValuesAreErrors(text: String, message: String) {
        let e = failure(text)
        #expect(e.contains(message), "\(e)")
    }
}
