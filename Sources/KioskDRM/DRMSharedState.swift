// What a DRM screen and its displays both change, in one small object they share.
//
// A display (`DRMDisplay`) owns its paging: its buffers, the flip in flight, the frame owed, the
// last picture. The screen (`DRMScreen`) owns the card's lifetime, master, hotplug, the VT and
// the event loop. Between them are a few things that belong to neither alone: the driver's
// answers (whether it flips, whether DIRTYFB is worth calling — found out by whichever display
// asks first, read by all and by the summary) and the counters the summary shows, added to by
// a display (a present, a flip landed, a frame coalesced) and by the screen (frames dropped at a
// close or a carry-over). They live here rather than in either type, so that neither writes the
// other's stored properties: the screen makes this object, hands it to each display it makes,
// and reads it for `summary`. What a display needs of its screen beyond this (whether it may
// draw, telling it that master was lost, letting flips land, the flip timer) it asks through
// `DRMDisplayOwner`'s few methods.
import KioskSys

/// The state a DRM screen shares with its displays (see the file's header).
final class DRMSharedState {
    let card: DRMCard
    let log: (String) -> Void
    /// Check with GETCRTC before each copy that the buffer written is not the one on screen.
    let checkScanout: Bool
    /// Page flips still worth trying (false after the driver refused one).
    var flipsSupported = true
    /// DIRTYFB still worth calling (false after ENOSYS).
    var dirtySupported = true
    // The summary's counters (see `DRMScreen`'s public ones).
    var presents = 0
    var coalesced = 0
    var flipsCompleted = 0
    var scanoutViolations = 0

    init(card: DRMCard, options: DRMOptions) {
        self.card = card; log = options.log; checkScanout = options.checkScanout
    }
}

/// What a display asks of the screen it belongs to.
protocol DRMDisplayOwner: AnyObject {
    /// Master is ours and the screen is not closed: a present may reach the card.
    var isActive: Bool { get }
    var isClosed: Bool { get }
    /// The driver's name (for the log).
    var driver: String { get }
    /// A call failed with EACCES/EPERM: another program is master.
    func lostMaster(_ error: SysError)
    /// Waits up to `seconds` for the flips in flight to land (the card's events only).
    func landFlips(within seconds: Double)
    /// A flip was issued: a timer for its event.
    func scheduleFlipTimeout()
}
