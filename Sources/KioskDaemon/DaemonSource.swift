/// A source of progress the daemon follows by itself (`ctl status`'s `"source"`), beside its
/// clients' requests.
public enum DaemonSource: String, Sendable, CaseIterable {
    /// SWUpdate's progress socket (`--swupdate`; the state is `"swupdate": {"state": …}`,
    /// `SWUpdateMachine.State`).
    case swupdate
}
