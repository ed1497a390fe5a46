// LogLimiter as a pure value: the first line of a kind written, repeats counted, one count a
// window; time passed in.
import KioskDaemon
import Testing

@Suite struct LogLimiterTests {
    enum Why: Hashable, Sendable { case full, stranger }

    @Test func theFirstIsWrittenAndRepeatsAreCounted() {
        var l = LogLimiter<Why>(window: 10)
        #expect(l.nextDeadline == nil)
        #expect(l.note(.full, at: 100).write)
        #expect(l.nextDeadline == 110)
        var written = 0
        for i in 0..<1234 where l.note(.full, at: 100 + Double(i) * 0.001).write { written += 1 }
        #expect(written == 0)
        #expect(l.expire(at: 109.999).isEmpty)
        let s = l.expire(at: 110)
        #expect(s == [RepeatedLines(kind: .full, count: 1234, since: 100, until: 110)])
        #expect(s.first?.description == "(and 1,234 more like it in the last 10 s)")
        #expect(l.nextDeadline == nil)
        // The window closed: the next line is written again.
        #expect(l.note(.full, at: 111).write)
    }

    @Test func kindsHaveWindowsOfTheirOwn() {
        var l = LogLimiter<Why>(window: 5)
        #expect(l.note(.full, at: 0).write)
        #expect(l.note(.stranger, at: 1).write)
        #expect(!l.note(.full, at: 2).write)
        #expect(!l.note(.stranger, at: 3).write)
        #expect(!l.note(.stranger, at: 4).write)
        #expect(l.nextDeadline == 5)
        #expect(l.expire(at: 5) == [RepeatedLines(kind: .full, count: 1, since: 0, until: 5)])
        #expect(l.nextDeadline == 6)
        #expect(l.expire(at: 7) == [RepeatedLines(kind: .stranger, count: 2, since: 1, until: 6)])
    }

    /// A window with no repeats ends without a line.
    @Test func aLoneLineHasNoCount() {
        var l = LogLimiter<Why>(window: 10)
        #expect(l.note(.full, at: 0).write)
        #expect(l.expire(at: 10).isEmpty)
        #expect(l.flush(at: 20).isEmpty)
    }

    /// When nobody called `expire` in time, the next line brings the count first.
    @Test func aLateLineBringsTheCount() {
        var l = LogLimiter<Why>(window: 10)
        _ = l.note(.full, at: 0)
        _ = l.note(.full, at: 1)
        let v = l.note(.full, at: 30)
        #expect(v == LogLimiter<Why>.Verdict(summary: RepeatedLines(kind: .full, count: 1, since: 0, until: 10), write: true))
        #expect(l.nextDeadline == 40)
    }

    /// Closing writes every count still open, up to now.
    @Test func flushWritesWhatIsOpen() {
        var l = LogLimiter<Why>(window: 10)
        _ = l.note(.stranger, at: 1)
        _ = l.note(.full, at: 2)
        for _ in 0..<99 { _ = l.note(.full, at: 2.01) }
        let s = l.flush(at: 2.02)
        #expect(s == [RepeatedLines(kind: .full, count: 99, since: 2, until: 2.02)])
        #expect(s.first?.description == "(and 99 more like it in the last 1 s)")
        #expect(l.nextDeadline == nil)
    }

    @Test(arguments: [(0, "(and 0 more like it in the last 1 s)"), (999, "(and 999 more like it in the last 1 s)"),
                      (1000, "(and 1,000 more like it in the last 1 s)"), (1_234_567, "(and 1,234,567 more like it in the last 1 s)")])
    func countsAreGrouped(_ n: Int, _ text: String) {
        #expect(RepeatedLines(kind: Why.full, count: n, since: 0, until: 0.5).description == text)
    }
}
