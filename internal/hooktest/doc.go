// Package hooktest runs hook binaries end to end in tests: it builds a
// small real index from ../shared corpora, compiles a hook's main package,
// and runs it with a payload on stdin in a private environment (HOME, XDG
// directories and VAULTCTX_* under a temp dir).
package hooktest
