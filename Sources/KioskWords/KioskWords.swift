// KioskWords — the texts the HUD shows by itself, not ones it was given (`Word`: run's Cancel and
// end notices, Plymouth's mode labels and boot status, the update notices), each in every shipped
// `Language` (WordsTable.swift: one switch per language, so a language without a word does not
// build), a board's own texts over them (`Words`), and the language chosen from a locale name.
// Pure: no Glibc, no files (the locale's text is read by the commands). Its own module, apart
// from the board profiles that choose the language (KioskBoards re-exports it: the words were
// KioskBoards' before 0.2.0).
