// `--board auto` at boot, before the board's display driver has loaded: a profile that matches
// on the display (connector, mode, DRM driver) cannot match yet, so detection says which
// profiles wait for the display, and a display run detects again when one opens
// (KioskCommands' ShowBoard.swift). The same machine before and after vc4 loads.
import KioskBoards
import KioskTestSupport
import Testing

@Suite struct DetectionAtBootTests {
    /// A Raspberry Pi 4 with the 7" Touch Display before vc4: the firmware's framebuffer as
    /// simpledrm (connector Unknown-1), no DSI-1 yet.
    static func pi4BeforeVC4() -> FakeBoardRoot {
        FakeBoardRoot()
            .deviceTree(model: "Raspberry Pi 4 Model B Rev 1.4", compatible: ["raspberrypi,4-model-b", "brcm,bcm2711"])
            .card(0, driver: "simple-framebuffer", [("Unknown-1", "connected", ["800x480"])])
    }

    @Test func beforeTheDriverTheDisplaysProfilesWait() throws {
        let m = Self.pi4BeforeVC4()
        let s = try m.select()
        #expect(s.name == "generic")
        let d = try #require(s.detection)
        #expect(d.awaitingDisplay.contains("rpi-touch-display"), "\(d.awaitingDisplay)")
        #expect(d.mayChangeWithDisplay)
        #expect(s.line.contains("rpi-touch-display"), "\(s.line)")
        #expect(s.line.hasSuffix("detected again when one appears"), "\(s.line)")
        // The Touch Display 2 fits a Pi 4 too; a board that is not one waits for nothing.
        #expect(d.awaitingDisplay.contains("rpi-touch-display-2"), "\(d.awaitingDisplay)")
        #expect(!d.awaitingDisplay.contains("beagleplay-hdmi"))
    }

    @Test func onceTheDriverHasLoadedTheProfileMatchesAndNothingWaits() throws {
        let m = Machines.pi4TouchDisplay()
        let s = try m.select()
        #expect(s.name == "rpi-touch-display", "\(s.line)")
        #expect(s.detection?.mayChangeWithDisplay == false)
        #expect(!s.line.contains("detected again"), "\(s.line)")
    }

    /// A profile that fails on a rule that is not the display's does not wait: no display makes
    /// it match.
    @Test func aProfileFailingOnTheBoardDoesNotWait() throws {
        let m = FakeBoardRoot()
            .deviceTree(model: "Raspberry Pi 3 Model B Plus Rev 1.3", compatible: ["raspberrypi,3-model-b-plus", "brcm,bcm2837"])
        let d = m.detect()
        // rpi3-waveshare35 matches on the DRM driver and connector too: it waits; the Pi 5's does not.
        #expect(d.awaitingDisplay.contains("rpi3-waveshare35"), "\(d.awaitingDisplay)")
        #expect(!d.awaitingDisplay.contains("rpi-zero2w-hdmi"))
        #expect(!d.awaitingDisplay.contains("rk3566-accelerometer"))
        let x86 = FakeBoardRoot().card(0, driver: "i915", [("eDP-1", "connected", ["1920x1080"])])
        #expect(x86.detect().awaitingDisplay.isEmpty, "the x86 profiles fail on input and IIO: \(x86.detect().awaitingDisplay)")
    }
}
