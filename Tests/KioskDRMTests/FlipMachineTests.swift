@testable import KioskDRM
import Testing

/// FlipMachine alone: no card, no clock — the events and times are the test's. (A mutating call
/// cannot stand inside #expect: each result is taken first.)
@Suite struct FlipMachineTests {
    /// The first frame is lit, the next ones flip to the other buffer, and a present while a
    /// flip is in flight is owed (a second one replaces it) until the flip lands.
    @Test func presentsLightThenFlipThenOwe() {
        var m = FlipMachine()
        let first = m.present()
        #expect(first == .lightFirst)
        m.lit(0)
        let second = m.present()
        #expect(second == .flip(to: 1))
        let g = m.nextGeneration()
        let armed = m.issued(to: 1, on: [30, 31], at: 10)
        let owed = m.present(), replaced = m.present()
        #expect(armed && owed == .owe(replacing: false) && replaced == .owe(replacing: true))
        let one = m.completed(crtc: 30, generation: g)
        #expect(!one && m.front == 0, "one CRTC of two")
        let both = m.completed(crtc: 31, generation: g)
        #expect(both && m.front == 1 && m.flips == 1 && m.owesFrame)
        let next = m.present()
        #expect(next == .flip(to: 0) && !m.owesFrame)
    }

    /// A flip issued on no CRTC (every head was set directly) is on screen at once: no timeout.
    @Test func aFlipOnNoCRTCIsOnScreenAtOnce() {
        var m = FlipMachine()
        m.lit(0)
        _ = m.nextGeneration()
        let armed = m.issued(to: 1, on: [], at: 0)
        #expect(!armed && m.front == 1 && !m.flipPending && m.flips == 0)
    }

    /// An event for another CRTC or an older generation changes nothing; a lost event is taken
    /// as landed once the timeout has passed, not before.
    @Test func lateEventsAreIgnoredAndLostOnesExpire() {
        var m = FlipMachine()
        m.lit(0)
        let g = m.nextGeneration()
        _ = m.issued(to: 1, on: [30], at: 5)
        let other = m.completed(crtc: 99, generation: g), older = m.completed(crtc: 30, generation: g &- 1)
        #expect(!other && !older)
        let early = m.expire(at: 5.9, timeout: 1)
        #expect(!early && m.flipPending)
        let late = m.expire(at: 6.1, timeout: 1)
        #expect(late && m.front == 1 && m.flips == 1 && !m.flipPending)
        let after = m.completed(crtc: 30, generation: g)
        #expect(!after, "the event that comes after all")
    }

    /// Master lost mid-flip: the flip is taken as landed, and its event (older generation) is
    /// ignored when it comes late; master back: the redraw goes to the buffer not on screen,
    /// and an owed frame goes with it.
    @Test func masterLostAndBack() {
        var m = FlipMachine()
        m.lit(0)
        let g = m.nextGeneration()
        _ = m.issued(to: 1, on: [30], at: 0)
        _ = m.present()
        m.masterLost()
        #expect(m.front == 1 && !m.flipPending && m.flips == 1)
        let late = m.completed(crtc: 30, generation: g)
        #expect(!late)
        let back = m.reactivate()
        #expect(back.buffer == 0 && back.coalesced && !m.owesFrame)
    }

    /// A head that goes away mid-flip is no longer waited for: the flip lands when it was the
    /// last; master back before any frame was lit redraws from scratch (buffer −1).
    @Test func aHeadRemovedAndNothingLitYet() {
        var m = FlipMachine()
        m.lit(0)
        let g = m.nextGeneration()
        _ = m.issued(to: 1, on: [30, 31], at: 0)
        let one = m.completed(crtc: 30, generation: g)
        let removed = m.headRemoved(crtc: 31)
        #expect(!one && removed && m.front == 1)
        var fresh = FlipMachine()
        let back = fresh.reactivate(), owed = fresh.dropOwed()
        #expect(back.buffer == -1 && !owed)
    }
}
