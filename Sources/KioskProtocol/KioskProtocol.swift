// KioskProtocol — the daemon's control protocol: newline-delimited JSON on a Unix socket, one
// request object per line, one reply per request. This module is its JSON codec; the requests
// and replies built on it come with the daemon.
//
// Hand-written, on purpose. A kept JSON library was considered — the one at hand is Foundation's
// JSONSerialization — but kiosk-hud keeps Foundation out of the process entirely, and Foundation
// costs milliseconds of start-up and megabytes of resident memory: kiosk-hud's exec → first frame
// went from 10.6 to 8.6 ms when TOMLKit's Foundation was dropped (docs/measurements.md), and for
// this module a static Swift program that reads one object with JSONSerialization measured 12.1 MB
// VmRSS against 5.2 MB for the same program without Foundation (binary 70 MB against 8.9 MB;
// host, release, -static-stdlib), in a process whose whole RSS goal is 12 MB. So: no Foundation,
// no Glibc, no dependencies, like the other pure modules. A 200-byte request parses in a few
// microseconds (KioskProtocolTests prints the figure for its build).
//
// Clients may be buggy or hostile, so the codec is strict and bounded:
// - exactly RFC 8259 is read: UTF-8 checked strictly (overlong forms, surrogates encoded in
//   UTF-8, code points above U+10FFFF and a byte order mark refused), only the four white space
//   characters, every string escape (a \u surrogate pair is combined, a lone surrogate escape
//   refused), no raw control characters in strings, numbers exactly per the grammar and finite
//   as a Double, and nothing but white space after the value;
// - everything is limited (`JSONLimits`: input bytes, nesting, a string's bytes, a container's
//   items), and going over a limit is an error naming it. The input's size is checked before
//   anything is read, a string is refused as soon as it passes its limit (never built larger),
//   and the parser keeps its own stack of open containers instead of recursing, so a
//   100,000-deep `[[[[…` is "input longer than 65536 bytes", or with a larger maxBytes
//   "nesting deeper than 16", never a stack overflow;
// - every refusal is a `JSONError` saying what was wrong and at which byte ("at byte 7: leading
//   zero in a number"), never a crash or a trap: every read of the input is behind a check
//   against its end (UnsafeBufferPointer's own checks go away in release builds), and the
//   numbers it accumulates are capped before they could overflow.
//
// The reader works on the bytes (never on Characters), keeps objects' keys in their order and
// compares keys code point by code point (RFC 8259 §8.3: "é" and "e\u0301" are two keys, where
// Swift's String == would call them equal). The writer (`JSON.encode`) writes one compact line
// that the reader reads back to the same value.
//
// Walking a value (==, `JSON.encode`, releasing it) recurses once per nesting level; a parsed
// value is at most `maxDepth` deep, so keep `maxDepth` in the tens or hundreds.
