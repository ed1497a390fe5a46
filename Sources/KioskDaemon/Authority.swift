// Who may ask for what (docs/security.md). The control socket lets in root, the daemon's own
// user, the socket's group and --allow-uid; most ops change only what the HUD shows, and any of
// them may ask. A few change the system itself — `new_root` chroots the daemon, `adopt` makes it
// execute a program as root — and only root may ask for those, as only root may run
// `plymouthd --newroot`. Which is which is said once, in each op's declaration below (a switch
// with no default: a new op does not build until it says), and checked in one place,
// `Daemon.handle(_:from:)`, for every request whatever its way in.
import KioskSys

/// Who may ask for an op.
public enum OpAuthority: String, Sendable {
    /// Any client the control socket lets in (root, the daemon's user, the socket's group,
    /// --allow-uid): the op changes only what the HUD shows.
    case client
    /// Root (uid 0) only: the op changes the system, not only the screen.
    case root
}

extension DaemonOp {
    /// Who may ask for this op (`OpAuthority`).
    public var authority: OpAuthority {
        switch self {
        case .ping, .show, .hide, .update, .style, .success, .error, .info, .push, .pop, .press, .status, .subscribe, .quit: .client
        // Reads what `status` reads and hears what `subscribe` hears; it changes nothing.
        case .overlay: .client
        case .newRoot, .adopt: .root
        }
    }
}

/// Who a request comes from, as the kernel says: the daemon itself (its options, its board
/// file, a front end that checked its own peer — Plymouth's socket is root's only, psplash's
/// FIFO root's or the daemon's) or a control-socket client named by SO_PEERCRED and
/// SO_PEERGROUPS when it connected.
public enum Requester: Sendable, Equatable {
    case daemon
    case client(PeerCredentials)

    /// Whether this requester may ask for `op`.
    public func may(_ op: DaemonOp) -> Bool {
        switch (op.authority, self) {
        case (.client, _), (.root, .daemon): true
        case let (.root, .client(c)): c.uid == 0
        }
    }

    /// The rights a file this requester names is opened with: nil for the daemon's own (the
    /// daemon itself, root, or the daemon's own user), else the client's uid and groups.
    public func fileRights(daemonUser: UInt32) -> PeerCredentials? {
        guard case let .client(c) = self, c.uid != 0, c.uid != daemonUser else { return nil }
        return c
    }
}

extension DaemonRequest {
    /// The op this request is.
    public var op: DaemonOp {
        switch self {
        case .ping: .ping
        case .show: .show
        case .hide: .hide
        case .update: .update
        case .style: .style
        case let .notice(kind, _, _):
            switch kind {
            case .success: .success
            case .error: .error
            case .info: .info
            }
        case .push: .push
        case .pop: .pop
        case .press: .press
        case .status: .status
        case .subscribe: .subscribe
        case .quit: .quit
        case .newRoot: .newRoot
        case .adopt: .adopt
        case .overlay: .overlay
        }
    }
}
