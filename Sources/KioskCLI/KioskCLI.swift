// KioskCLI — the command line of `kiosk-hud`: commands and options declared as plain values,
// parsed without reflection, with help text made from the same declarations.
//
// Why not swift-argument-parser (which the first CLI used): it finds a command's options by
// reflecting over its property wrappers, and does that several times per run (to build the
// argument set, to look for completion-script requests, to check for pass-through arguments).
// Measured with callgrind on `kiosk-hud show --offscreen - --duration 0` (release, 800x480):
// 37.5 M instructions from exec to the first frame, of which option parsing was 21.1 M (56 %) —
// more than drawing, opening the display and loading the fonts together (11.3 M). Under QEMU
// TCG that was ~150–230 ms of a ~500 ms start, against a C libdrm program's ~100 ms. It also
// linked FoundationEssentials (3 MB of code) into a binary that otherwise has no Foundation.
// Parsing with this module costs a few thousand instructions.
//
// Rules, as users of getopt_long and swift-argument-parser expect them:
// * `--name VALUE` and `--name=VALUE`; a value is the next argument whatever it looks like
//   (`--offset -10,5` works). Short names take the next argument (`-o out.png`).
// * An option given twice: the last one counts; a repeatable option collects every value.
// * Flags: `--square`; an inversible flag also has `--no-…` (the last given counts).
// * `--help`/`-h` anywhere, and `kiosk-hud help [COMMAND]`, print help and succeed.
// * `--` ends options: the rest are positional arguments (a command that takes a program to
//   run puts them there untouched). A repeated positional (the program and its arguments) ends
//   options too once it starts: `run sh -c 'exit 3'` gives `-c` to sh.
// * An unknown option, a missing value, a stray argument: a `UsageError` naming it, with the
//   closest known option as a suggestion. The executable prints it with the usage line and
//   exits 64 (EX_USAGE), as before.
// * Values are strings until a command asks for a type: `double`, `int` … throw a `UsageError`
//   that names the option and what was expected.
// No Foundation, no Glibc: the module only turns an argument list into values and text.
