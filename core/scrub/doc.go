// Package scrub finds credentials in text and replaces them with
// [REDACTED:<rule-id>] markers, so that secrets pasted into notes are never
// stored in the index, embedded, or shown to a model.
//
// # What it detects
//
// Provider formats (rules named after the provider, e.g. "github-pat",
// "aws-access-key-id", "anthropic-api-key"): fixed prefixes or fixed shapes
// documented by the issuers, each checked for length, character set, word
// boundaries and a minimum Shannon entropy so that placeholders such as
// ghp_XXXXXXXX... survive.
//
// Generic detectors, which need context:
//   - URLs with a password in their user info ("database-url-password" for
//     postgres, mysql, mongodb, redis, amqp and friends, else
//     "url-credentials");
//   - JWTs ("jwt");
//   - Authorization headers with Bearer, Basic, Token or no scheme, and bare
//     "Bearer <token>" with a random-looking token ("bearer-token",
//     "basic-auth-header", "authorization-header");
//   - assignments to password-, secret-, token- and API-key-like names in env
//     files, YAML, JSON, INI, XML, .NET config, code, command-line flags,
//     .netrc and ADO-style connection strings, plus informal "pw is X" and
//     "password for the wifi is X" ("password-assignment",
//     "generic-secret-assignment", "high-entropy-hex", "high-entropy-base64",
//     "connection-string-password", "docker-config-auth"). Names are split
//     into words (dbPassword, SECRET_KEY_BASE, x-api-key) and judged by the
//     last meaningful word; values must look like a credential for that
//     name: passwords mix character classes (or are diceware phrases),
//     tokens and keys are long and random (Shannon entropy per byte);
//   - PEM and PGP private key blocks, also JSON-escaped, truncated, or only
//     their tail with the END line (a chunk boundary inside a key), and
//     PuTTY private lines ("private-key");
//   - curl/wget -u user:password ("curl-auth") and -p passwords of mysql,
//     sshpass and registry logins ("cli-password").
//
// Once a secret of 8 bytes or more is found, its other occurrences in the same
// text are redacted too, even without context.
//
// # How it stays fast
//
// One pass of an Aho-Corasick automaton (Aho and Corasick, "Efficient string
// matching", CACM 1975) over the ASCII-case-folded text finds every anchor:
// provider prefixes ("ghp_", "AKIA", "sk-"), structural literals ("://",
// "-----BEGIN", "eyJ") and key words ("pass", "secret", "token", "key").
// Only at an anchor does a rule run: hand-written parsers for the generic
// detectors, and for provider formats a regular expression compiled on first
// use and matched against a small window around the anchor. Text without
// anchors costs one table lookup per byte. New builds only the automaton
// (well under 2 ms); see BENCH.md for measured numbers.
//
// # What survives
//
// UUIDs, ULIDs, git SHAs, checksums and digests (no context), ARNs, base64
// images, URLs without passwords, placeholders (<your-key>, ${TOKEN}, $VAR,
// {{ .Values.x }}, xxxx, EXAMPLE), code that reads a secret rather than
// holding one (os.Getenv("X"), r.Header.Get(...)), identifiers, SSH public
// keys and certificates, and prose about passwords and tokens.
//
// Existing [REDACTED:...] markers are opaque: nothing inside or overlapping
// them is reported, and context that looks back over lines or forward over
// bytes stops at a marker. A second Scrub therefore never sees context the
// first did not, which makes Scrub idempotent.
//
// # Scrub whole notes
//
// Detection needs context: a key name before a value, a BEGIN line before a
// key body. Scrub a note before cutting it into pieces; scrubbing the pieces
// again afterwards is harmless (idempotent) but cannot recover context a cut
// removed, such as the middle third of a long private key.
package scrub
