// DeviceMatch: which touch device a board profile or --touch-device means.
import KioskInput
import Testing

@Suite struct DeviceMatchTests {
    @Test func sysnameAndNodeMatchExactly() {
        #expect(DeviceMatch("event5").matches(name: "Goodix Capacitive TouchScreen", sysname: "event5"))
        #expect(DeviceMatch("/dev/input/event5").matches(name: "x", sysname: "event5"))
        #expect(!DeviceMatch("event5").matches(name: "x", sysname: "event50"))
    }

    @Test func namePartMatchesIgnoringCase() {
        let ilitek = DeviceMatch("ILITEK")
        #expect(ilitek.matches(name: "ILITEK ILITEK-TP", sysname: "event3"))
        #expect(DeviceMatch("ft5x06").matches(name: "generic FT5X06 (00)", sysname: "event1"))
        #expect(DeviceMatch("TP").matches(name: "ILITEK ILITEK-TP", sysname: "event3"))  // at the end
        #expect(DeviceMatch("ILITEK ILITEK-TP").matches(name: "ILITEK ILITEK-TP", sysname: "event3"))  // whole
        #expect(!DeviceMatch("ILITEK ILITEK-TPX").matches(name: "ILITEK ILITEK-TP", sysname: "event3"))  // longer
        #expect(!DeviceMatch("goodix").matches(name: "ILITEK ILITEK-TP", sysname: "event3"))
        #expect(!DeviceMatch("").matches(name: "anything", sysname: "event3"))
        #expect(DeviceMatch("Über").matches(name: "ÜBER Touch", sysname: "event2"))  // not only ASCII
    }
}
