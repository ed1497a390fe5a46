/// What drives the daemon's HUD now, as `ctl status` names it (`"source"`): its clients, or an
/// update framework it follows by itself.
public enum DaemonSource: String, Sendable, CaseIterable {
    /// Its clients (the control socket, psplash's FIFO, Plymouth's socket).
    case control
    /// SWUpdate's progress socket (`--swupdate`; the state is `"swupdate": {"state": …}`,
    /// `SWUpdateMachine.State`).
    case swupdate
    /// RAUC's installer (`--rauc`): an installation, its failure being read, or the last state
    /// of one the service left.
    case rauc
}
