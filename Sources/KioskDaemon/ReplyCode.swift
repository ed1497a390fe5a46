/// Why a request got an error reply, as a client can tell without reading the message: the
/// reply's `"code"` beside its `"error"` (docs/protocol.md, "Errors"). The message is for people
/// and may change; the codes are part of the protocol.
public enum ReplyCode: String, Sendable, CaseIterable {
    /// Not what the protocol allows: not JSON, not an object, an unknown op or field, a value
    /// outside its rule. Sending it again will not help.
    case badRequest = "bad_request"
    /// A `"v"` other than this daemon's protocol version.
    case unsupportedVersion = "unsupported_version"
    /// A request the daemon understood but cannot carry out now: no button to press, a picture
    /// it cannot read, a look that cannot be laid out. The HUD is as it was.
    case cannot
    /// The peer may not use the socket (not root, not in the daemon's group, not allowed).
    case permissionDenied = "permission_denied"
    /// The daemon serves as many clients as it may; try again later.
    case tooManyClients = "too_many_clients"
    /// Understood, and possible a moment later (a page flip in flight): send it again.
    case busy
}

/// The ops of the control protocol, as clients name them.
public enum DaemonOp: String, Sendable, CaseIterable {
    case ping, show, hide, update, style, success, error, info, push, pop, press, status, subscribe, quit
    /// The initramfs's daemon: the new root (before switch-root), and the real root's unit taking it over.
    case newRoot = "new_root", adopt
    /// A HUD drawn elsewhere (a process of the compositor's user) follows this daemon's: the
    /// reply is the state, `changed` events carry each change after it (docs/wayland.md).
    case overlay
}
