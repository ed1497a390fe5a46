// KioskIIO — the tilt: an IIO accelerometer from sysfs as a KioskSeams.MotionSource.
//
// Design
// ------
// * Discovery (`IIODiscovery`): `iio:deviceN` under /sys/bus/iio/devices with in_accel_x/y/z_raw;
//   the one labelled `accel-display` (label attribute, or udev ACCEL_LOCATION) before an
//   unlabelled one before `accel-base`; or the one named by `--accel` / the board profile
//   (sysName, else label, else the `name` attribute). `IIORoot` stands for `/`, so tests and
//   `--iio-root DIR` use a fake tree (DIR/sys/bus/iio/devices, DIR/run/udev/data).
// * Reading (`IIOAccelerometer`): calibration read once — per-axis in_accel_x_scale/_offset,
//   else the shared in_accel_scale/_offset, else 1/0 — value = (raw + offset) × scale in m/s²;
//   the three _raw attributes stay open and are re-read with pread(2) at offset 0 (sysfs
//   regenerates the text on each read from 0). Strict: non-integer text, a failed call (EIO,
//   ENODEV), a vanished device directory or a value beyond ±20 g is an error, never a number.
//   sampling_frequency is set to the lowest listed rate ≥ the poll rate when the device lists
//   rates and the attribute takes the write.
// * Mount matrix (`ResolvedMountMatrix`): board profile / --mount-matrix, else udev's
//   ACCEL_MOUNT_MATRIX (read from the database file /run/udev/data/c<maj>:<min>, or
//   +iio:<sysname>, not by running udevadm), else sysfs mount_matrix, in_accel_mount_matrix,
//   in_mount_matrix, else identity — iio-sensor-proxy's order. Rows, panel = M · chip
//   (`KioskPresentation.MountMatrix`). The first one present decides; if malformed: identity and one
//   warning.
// * Life cycle (`IIOSampler`): a synchronous state machine — attach, read at the rate, on failure
//   close + log once + look again every second (quietly), re-attach. Logged: no sensor (once),
//   "using …" at the first good reading, "lost …" once per loss.
// * Threading (`IIOMotionSource`): the sampler runs on its own detached pthread, because a sysfs
//   read of an I²C sensor takes milliseconds and can block for as long as the bus hangs. Each
//   sample goes into a mailbox guarded by a `Mutex` (Synchronization): the lock is held only to
//   append to or swap out a small array, never across I/O, so the render loop's
//   `samples(until:)` / `isDelivering(at:)` cost a few hundred nanoseconds and cannot wait on
//   the sensor. A source with no sample for `staleAfter` (5 periods, ≥ 0.5 s) — blocked read —
//   reports not delivering, and the tilt eases back to centre like on a failure.
// * `TiltTracker` feeds the samples through `KioskPresentation.TiltFilter` (tilt angles, dead zone
//   with hysteresis, rotation, low-pass, ease back) and gives HUD.setMotion its −1…1.
// * System calls and the thread go through KioskSys (poll-as-sleep in SamplerThread.swift).
//   No Foundation.
//
// Measurements (2-core host shared with other builds, debug build; Tests/KioskIIOTests/
// Measurements.swift prints them):
// * One sample on a fake tree in the page cache (existence check + 3 × pread + parse + matrix):
//   ~6 µs; sampler step + publish + take: ~7 µs.
// * Consumer side, samples(until:) + isDelivering(at:), uncontended mutex: ~0.2 µs. With the
//   sampler thread blocked in the kernel (a FIFO standing in for a hung bus) the worst consumer
//   call seen was 30–100 µs (scheduling noise on the loaded host), and frames went on.
// * TiltFilter add + value: ~1.2 µs.
// * Real driver, QEMU TCG guest (6–8× slower than the host): mxc4005 on i2c-stub, one sample
//   (3 regmap I²C reads through the stub) mean 1.2–1.5 ms, max 40–110 ms; at 30 Hz that is ~4 % of
//   the sampler thread's time and none of the render thread's.
