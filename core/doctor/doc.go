// Package doctor checks a vaultctx installation end to end and returns
// what it found, one Finding per check, in a fixed order: the binaries on
// $PATH, the config file, the index (SQLite integrity_check and the FTS5
// integrity check), the sqlite-vec extension, the model against the hash
// the index records, the Claude Code hook wiring in settings.json, and one
// round trip per hook event (the wired command run through /bin/sh with a
// sample payload, timed from spawn to exit in ms).
//
// Checks never print and never exit. A failing Finding names the remedy
// as a Hint (a kind plus the Subject it applies to); turning a hint into
// words, such as the command to run, is the caller's job (`vaultctx
// doctor` renders them as "fix:" lines). Later checks use what earlier
// ones learnt: the config, and the hooks as wired.
package doctor
