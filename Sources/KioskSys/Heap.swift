// What a long-running process frees goes back to the kernel.
//
// glibc's malloc serves a block of 128 kB or more from a mapping of its own, unmapped when freed
// — until the first such block is freed: then it raises the threshold to that block's size (up to
// 32 MB), so the next full frames (1.5 MB at 800x480, 8 MB at 1920x1080) and decoded pictures come
// from the heap, where a freed block stays resident until everything above it is freed too. A
// daemon with an underlay picture, asked 300 times for an underlay colour or a theme (each a full
// redraw), went from 42 MB to 56 MB resident at 800x480; a fuzzing run of 6,000 such requests
// left it at 103 MB, 36 MB after malloc_trim. With the threshold fixed at 256 kB (fixing it
// also stops glibc from moving it) and the heap trimmed once the daemon is idle, the same 300
// requests end where they started (docs/measurements.md, "The daemon over months").
//
// 256 kB: above the blocks a frame's drawing allocates and frees all the time (a glyph's
// coverage at 500 px is ~250 kB and is kept; text runs, rows and requests are a few kB), below
// any full frame or picture, which are allocated rarely (a redraw reuses its bitmaps) and would
// cost a page fault per 4 kB wherever they come from.
import CKioskSys

/// The C library's heap, for a process that runs for months (the daemon).
public enum Heap {
    /// Blocks of at least this many bytes get a mapping of their own, unmapped when freed.
    public static let largeBlock = 256 << 10

    /// Puts every block of `largeBlock` bytes or more in its own mapping, for good (see the
    /// notes above); false where the C library is not glibc (nothing changes).
    @discardableResult
    public static func keepLargeBlocksOutOfTheHeap() -> Bool { kiosk_malloc_set_mmap_threshold(Int32(largeBlock)) == 0 }

    /// Gives free heap pages back to the kernel (glibc's malloc_trim). Walks the heap's free
    /// blocks: ~0.1–1 ms for a daemon's heap, so call it when idle, not per frame.
    public static func giveBackFreeMemory() { _ = kiosk_malloc_trim() }
}
