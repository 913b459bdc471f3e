// Package hub downloads Model2Vec models from the Hugging Face hub
// (<base>/<name>/resolve/<revision>/<file>) into a directory that
// embed.Open reads: resumable HTTP Range downloads into a staging
// directory, SHA-256 checks against pinned digests, then an atomic install.
//
// It is separate from package embed so that programs which only embed text
// (the Claude Code hooks) do not link net/http and crypto/tls, whose package
// initialisation costs a fresh process about 1-2 ms of CPU on the reference
// machine.
package hub
