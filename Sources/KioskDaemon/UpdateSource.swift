import KioskProtocol

/// An update framework the daemon follows by itself (`--swupdate`: `SWUpdateProgress`, `--rauc`:
/// `RaucSource`): one shape for both, so the daemon asks each the same questions — which
/// `DaemonSource` it is, whether it drives the HUD now, what it adds to `status` — and ends
/// each the same way. The daemon's clients (control socket, psplash's FIFO, Plymouth's socket)
/// are the `control` source: they drive the HUD through `Daemon.handle`, each on its own wire.
public protocol UpdateSource: AnyObject {
    /// The source `status` names while this one drives the HUD.
    var source: DaemonSource { get }
    /// Whether it drives the HUD now (an installation running, or its end shown).
    var drivesTheHUD: Bool { get }
    /// Its entry in `status`: its name and an object of its state and connection.
    var statusEntry: (String, JSONValue) { get }
    /// Stops following: its sockets or bus connection closed, its timers cancelled.
    func close()
}
