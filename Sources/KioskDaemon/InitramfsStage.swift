/// What the daemon started in the initramfs (`daemon --initramfs`) does at the two moments of
/// switch-root, carried out by the owner (KioskCommands' `InitramfsDaemon`): the new root, and
/// being taken over by the real root's unit. docs/initramfs.md says why the same process is
/// carried over, and how.
public protocol InitramfsStage: AnyObject {
    /// The real root is mounted at `path` (an absolute path in the initramfs): the daemon makes it
    /// its own root now, before the initramfs is emptied. Throws (nothing changed) for a path
    /// that is not a directory, or a second time.
    func newRoot(_ path: String) throws(RequestError)
    /// Checks that the daemon can be carried over as the new root's program now; returns what does it
    /// (after the reply is sent). Throws, nothing changed, when it cannot (no new root yet, no
    /// program there, the screen not one that can be carried over, or busy for a moment: try again).
    func prepareAdoption() throws(RequestError) -> () -> Void
}
