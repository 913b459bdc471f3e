// Package settings wires vaultctx's three Claude Code hooks into a
// settings.json file, and takes them out again, without disturbing anything
// else in it.
//
// Claude Code reads hooks from {"hooks": {"<Event>": [{"matcher": "...",
// "hooks": [{"type": "command", "command": "...", "timeout": N}]}]}}, with
// timeouts in seconds. Render turns the settings template (install/) into a
// Plan; Merge and Remove edit a file's bytes; Install, Uninstall and Status
// do the same on disk.
//
// Guarantees, which the tests check on files full of other tools' hooks:
//   - Merge never replaces: every foreign key, hook and group keeps its
//     exact bytes and position. Edits are byte splices located with a span
//     tree of the file (no decode and re-encode), so number literals, string
//     escapes, key order and indentation all survive. Inserted text copies
//     the file's indentation.
//   - An entry is ours only when the program its command runs is one of
//     our three hook binaries by its exact base name, on an event the
//     template wires that binary to (see Ours): behind a leading cd, env
//     assignments and the wrappers Ours knows (env, nice, flock, sh -c,
//     ...), in any folder. Arguments of other programs, other names
//     (vaultctx-notify, vaultctx-userprompt.sh) and other events are the
//     user's and never touched. Each of ours appears exactly once and a
//     re-install updates it in place: only the binary's path changes, and
//     the user's env prefix, wrapper, arguments, timeout, matcher and
//     status message stay. Installing the same Plan twice changes nothing
//     the second time.
//   - Remove deletes only our entries; a matcher group goes only when it
//     held nothing else, an event's array only when it became empty, and
//     "hooks" only when it became empty.
//   - A file that is not valid JSON, or whose "hooks" is not an object, is
//     never written (SyntaxError, ErrShape).
//   - On disk: a timestamped backup beside the file before any change (the
//     newest MaxBackups kept; PruneBackups removes them), an
//     atomic write (temporary file in the same directory, same permissions,
//     rename), symlinks followed, missing file and directory created, and a
//     check that nobody else wrote the file in between (ErrConcurrentEdit).
//
// The package is pure Go and does not print.
package settings
