// RepeatLog: a LogLimiter on an event loop, its windows ended by the loop's timers (a manual
// clock: nothing waits).
@testable import KioskDaemon
import KioskTestDoubles
import Testing

@Suite struct RepeatLogTests {
    final class Lines { var all: [String] = [] }

    @Test func aTimerWritesTheCountWhenTheWindowEnds() {
        let loop = EmbeddedEventLoop()
        let lines = Lines()
        let log = RepeatLog<Int>(loop: loop, window: 10, log: { lines.all.append($0) }) { "kind \($0):" }
        for i in 0..<500 { log.write(1, "bad line \(i)") }
        #expect(lines.all == ["bad line 0"])
        loop.advance(by: 9.9)
        #expect(lines.all.count == 1)
        loop.advance(by: 0.1)
        #expect(lines.all == ["bad line 0", "kind 1: (and 499 more like it in the last 10 s)"])
        // Quiet since: the next line is written, and a window with no repeats ends silently.
        loop.advance(by: 30)
        log.write(1, "bad line again")
        loop.advance(by: 10)
        #expect(lines.all.suffix(1) == ["bad line again"])
        log.close()
        #expect(lines.all.count == 3)
    }

    /// Two kinds, windows that end at different times: each count when its own window ends.
    @Test func eachKindOnItsOwnTimer() {
        let loop = EmbeddedEventLoop()
        let lines = Lines()
        let log = RepeatLog<Int>(loop: loop, window: 10, log: { lines.all.append($0) }) { "kind \($0):" }
        log.write(1, "one")
        log.write(1, "one")
        loop.advance(by: 4)
        log.write(2, "two")
        log.write(2, "two")
        log.write(2, "two")
        loop.advance(by: 6)
        #expect(lines.all == ["one", "two", "kind 1: (and 1 more like it in the last 10 s)"])
        loop.advance(by: 4)
        #expect(lines.all.last == "kind 2: (and 2 more like it in the last 10 s)")
        log.write(2, "two")
        log.write(2, "two")
        log.close()   // what is open is written at once
        #expect(lines.all.last == "kind 2: (and 1 more like it in the last 1 s)")
    }
}
