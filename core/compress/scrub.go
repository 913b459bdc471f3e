package compress

import "github.com/vaultctx/vaultctx/core/scrub"

// defaultScrub redacts secrets with the project's shared default scrubber
// (scrub.Default), which replaces each credential with a rule marker.
func defaultScrub(s string) string {
	out, _ := scrub.Default().Scrub(s)
	return out
}
