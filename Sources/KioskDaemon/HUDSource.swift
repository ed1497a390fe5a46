/// What drives the daemon's HUD now, as `status` names it (`"source"`).
public enum HUDSource: String, Sendable, CaseIterable {
    /// Its clients (the control socket, psplash's FIFO, Plymouth's socket).
    case control
    /// RAUC's installer (`--rauc`): an installation, its failure being read, or the last state
    /// of one the service left.
    case rauc
}
