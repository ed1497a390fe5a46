// DaemonLinkMachine as a pure value: requests, replies and time in, actions out.
import KioskRun
import Testing

private typealias Link = DaemonLinkMachine

private func linkProgress(_ p: Double, label: String? = nil) -> Link.Request {
    .update(Link.Update(progress: p, label: label, animated: true))
}

@Suite struct DaemonLinkMachineTests {
    @Test func oneRequestInFlightAndUpdatesCoalesceBehindIt() {
        var m = Link(replyTimeout: 2)
        #expect(m.handle(.request(linkProgress(0.1)), at: 0) == [.send(linkProgress(0.1)), .armDeadline(2)])
        // The daemon is slow: three more updates wait, merged into one, each field its latest.
        #expect(m.handle(.request(linkProgress(0.2, label: "Copying")), at: 0.1) == [])
        #expect(m.handle(.request(linkProgress(0.3)), at: 0.2) == [])
        #expect(m.handle(.request(.update(Link.Update(details: "file 3"))), at: 0.3) == [])
        #expect(m.queue == [.update(Link.Update(progress: 0.3, label: "Copying", details: "file 3", animated: true))])
        #expect(m.handle(.reply(error: nil), at: 1) == [
            .send(.update(Link.Update(progress: 0.3, label: "Copying", details: "file 3", animated: true))), .armDeadline(3),
        ])
        #expect(m.handle(.reply(error: nil), at: 1.5) == [.disarmDeadline])
        #expect(m.inFlight == nil && m.queue.isEmpty && !m.isGone)
    }

    @Test func pushAndPopKeepTheirPlaceBetweenUpdates() {
        var m = Link(replyTimeout: 2)
        _ = m.handle(.request(linkProgress(0.1)), at: 0)
        _ = m.handle(.request(.push), at: 0)
        _ = m.handle(.request(linkProgress(0.2)), at: 0)
        _ = m.handle(.request(.pop), at: 0)
        _ = m.handle(.request(linkProgress(0.3)), at: 0)
        #expect(m.queue == [.push, linkProgress(0.2), .pop, linkProgress(0.3)])
        // An update that changes nothing is not sent at all.
        #expect(m.handle(.request(.update(Link.Update(animated: true))), at: 0) == [])
        #expect(m.queue.count == 4)
    }

    @Test func noReplyByTheDeadlineAndTheDaemonIsGoneOnce() {
        var m = Link(replyTimeout: 2)
        _ = m.handle(.request(linkProgress(0.1)), at: 10)
        #expect(m.handle(.tick, at: 11.9) == [])
        #expect(m.handle(.tick, at: 12) == [.disarmDeadline, .gone("no reply within 2 s")])
        #expect(m.isGone)
        // Nothing more goes out; what the task asks still coalesces.
        #expect(m.handle(.request(linkProgress(0.5)), at: 13) == [])
        #expect(m.handle(.request(linkProgress(0.6)), at: 13) == [])
        #expect(m.handle(.tick, at: 20) == [])
        #expect(m.handle(.reply(error: nil), at: 21) == [], "a late reply changes nothing")
        #expect(m.handle(.broken("closed"), at: 22) == [])
        #expect(m.queue == [linkProgress(0.6)])
    }

    @Test func aBrokenConnectionIsGoneAtOnce() {
        var m = Link(replyTimeout: 2)
        _ = m.handle(.request(.push), at: 0)
        #expect(m.handle(.broken("the daemon closed the connection"), at: 0.1) == [.disarmDeadline, .gone("the daemon closed the connection")])
    }

    @Test func aRefusalIsSaidAndTheLinkGoesOn() {
        var m = Link(replyTimeout: 2)
        _ = m.handle(.request(.pop), at: 0)
        _ = m.handle(.request(linkProgress(0.4)), at: 0)
        #expect(m.handle(.reply(error: "pop: nothing to pop"), at: 0.1) == [.refused("pop: nothing to pop"), .send(linkProgress(0.4)), .armDeadline(2.1)])
        #expect(!m.isGone)
    }

    @Test func finishWaitsForEveryReply() {
        var m = Link(replyTimeout: 2)
        _ = m.handle(.request(linkProgress(1)), at: 0)
        _ = m.handle(.request(.pop), at: 0)
        #expect(m.handle(.finish, at: 0.1) == [])
        #expect(m.handle(.reply(error: nil), at: 0.2) == [.send(.pop), .armDeadline(2.2)])
        #expect(m.handle(.reply(error: nil), at: 0.3) == [.disarmDeadline, .finished(unsent: [])])
        #expect(m.handle(.finish, at: 0.4) == [], "finished once")
        var idle = Link(replyTimeout: 2)
        #expect(idle.handle(.finish, at: 0) == [.finished(unsent: [])])
    }

    @Test func finishWhileTheDaemonIsStalledEndsAtTheDeadlineWithWhatWasNeverSent() {
        var m = Link(replyTimeout: 2)
        _ = m.handle(.request(linkProgress(0.5)), at: 0)
        _ = m.handle(.request(.update(Link.Update(mode: "bar", label: "Booting"))), at: 1)
        _ = m.handle(.request(.pop), at: 1)
        #expect(m.handle(.finish, at: 1) == [])
        #expect(m.handle(.tick, at: 2) == [.disarmDeadline, .gone("no reply within 2 s"), .finished(unsent: [
            .update(Link.Update(mode: "bar", label: "Booting")), .pop,
        ])])
        var gone = Link(replyTimeout: 0.5)
        _ = gone.handle(.request(.push), at: 0)
        _ = gone.handle(.tick, at: 1)
        _ = gone.handle(.request(.pop), at: 1)
        #expect(gone.handle(.finish, at: 1) == [.finished(unsent: [.pop])], "already gone: at once")
    }

    @Test func timeNeverGoesBack() {
        var m = Link(replyTimeout: 2)
        _ = m.handle(.tick, at: 5)
        #expect(m.handle(.request(.push), at: 1) == [.send(.push), .armDeadline(7)])
        #expect(m.handle(.tick, at: .nan) == [])
        #expect(m.handle(.tick, at: 7) == [.disarmDeadline, .gone("no reply within 2 s")])
    }

    @Test func theAnimatedFlagGoesWithTheProgress() {
        let a = Link.Update(progress: 0.5, animated: true)
        #expect(a.merged(with: Link.Update(label: "x")) == Link.Update(progress: 0.5, label: "x", animated: true))
        #expect(a.merged(with: Link.Update(progress: 0.6, animated: false)) == Link.Update(progress: 0.6, animated: false))
    }
}
