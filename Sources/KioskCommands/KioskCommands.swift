// KioskCommands — the commands' wiring, out of the executable: each command built from the layers
// below (KioskBoards' settings, KioskSession's session, KioskDRM's screen, KioskInput, KioskIIO,
// KioskDaemon's servers and client, KioskRun's command), the display commands on one event loop.
//
// DESIGN
//
// * Small public entry points, one a command: `RenderCommand`, `ShowCommand` (`run(on:)` takes any
//   `EventLoop` with its `Kernel` and clock, so a test runs it on an EmbeddedEventLoop),
//   `DaemonCommand`, `CtlCommand` and `FollowBootCommand`, `RunCommand`, `PlymouthCommand`,
//   `TiltCommand`, `TouchCommand`, `BoardsCommand`; each with its `spec`, the options it takes,
//   declared once (KioskCLI).
// * kiosk-hud only parses the command line (KioskCLI), picks the command and calls its entry
//   point; its exit code comes from what the entry point throws (`ExitCode`, `UsageError`, any
//   other error: 1).
// * What a command adds to a display run (the daemon's control socket, psplash's FIFO and
//   Plymouth's socket; run's command) is attached to the session on the run's `EventLoop` and
//   `Kernel`; output and log lines go through the `Kernel` seam too (`CommandOutput`).
// * The early frame is the executable's (a C constructor linked into kiosk-hud only): it hands
//   the frame to continue in through `ShowCommand.takeEarlyFrame`.
