// KioskDaemon — `kiosk-hud daemon`: the HUD on screen, driven by clients over a Unix socket
// (and psplash's FIFO), the way Plymouth and psplash are driven at boot.
//
// DESIGN
//
// * One thread, one event loop (KioskSys.PollEventLoop): the screen's flips and hotplug, input,
//   the tilt, the listening socket, every client and the FIFO are watched by the same poll; a
//   request is handled and answered in the turn it arrives in, so replies come in order and a
//   request's frame is drawn in the same turn (the session draws after each handler).
// * The protocol (docs/protocol.md): newline-delimited JSON, a "v" version field, one request
//   per line, one reply per request, in order; events are pushed to subscribers as lines of
//   their own. The fields of `update` and `style` are the settings table's live settings
//   (KioskBoards' HUDSettings.table), checked by the same rules as the command line and board
//   files, with the same messages.
// * Nothing a client sends can end the daemon: a line over 64 KiB, invalid JSON, an unknown op
//   or field, a bad value, a refused peer — each gets an error reply (and the connection is
//   closed where going on cannot make sense); more than 32 clients are refused; a client that
//   does not read its replies or events is dropped once 256 KiB wait for it. Writes use
//   MSG_NOSIGNAL, so a client that has gone is EPIPE, never SIGPIPE.
// * Access: the socket file is 0660, owned by the group given (default root); each connection's
//   SO_PEERCRED is checked — root, the daemon's own user, a member of the group (primary or
//   supplementary, from /proc/PID/status), or an allowed uid.
// * One daemon per socket: a lock file beside the socket is held for the daemon's life, so a
//   second one refuses to start while a stale socket file left by a crash is simply replaced.
//   Under systemd socket activation the socket comes ready (LISTEN_FDS) and is left alone.
// * No Foundation: the JSON codec is KioskProtocol's own (its header says why).
