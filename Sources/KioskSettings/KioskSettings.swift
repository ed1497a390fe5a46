// KioskSettings — every setting declared once. A setting's declaration says its name, where it
// lives in a board file ([section] key), its command-line option, what a value must be (a
// `ValueRule`: type, range or choices, unit), its default, its help, and whether it may change
// while the HUD is shown. From that one declaration come the command line's options and their
// help, the board file's keys and their errors, the generated generic profile
// (Boards/generic.toml), the daemon's `update`/`style` fields and the table in the docs; a value
// is checked in one place, the rule, whichever of those it came from.
//
// Rules are strict and bounded: numbers are finite and inside their declared range (out of
// range is an error naming the range, never a silent clamp), text has a byte limit and no NUL,
// lists have a length limit. An error message shows the offending value cut at 80 characters.
//
// No Foundation, no Glibc: this runs before the first frame (parsing `show`'s options) and
// costs a few microseconds there.
