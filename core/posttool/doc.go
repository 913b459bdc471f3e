// Package posttool answers Claude Code's PostToolUse hook: for a long Bash
// result it condenses the output (core/compress), saves the full output
// under $XDG_CACHE_HOME/vaultctx/outputs (scrubbed of credentials, newest
// DefaultKeepOutputs kept) and returns the protocol bytes that replace the
// result with the extract (hookio.BashOutput).
//
// It owns the hook's I/O that the pure condense algorithm must not do: the
// options from the environment and the config file (OptionsFromEnv,
// OptionsFromConfig), the complete output Claude Code saved when it handed
// the hook only its first 30,000 bytes (ReadPersisted, bounded and fail
// safe), the saved files (OutputPath, SaveOutput) and the
// latest user prompt read from the session transcript (LatestPrompt), which
// the extract is ranked against. The user's opt-outs come first: with
// hooks.posttooluse = false (Options.Disabled), or for a command listed in
// hooks.output_passthrough (PassthroughPrefix), Hook returns nil at once.
// The vaultctx-posttooluse binary is a thin main around Hook.
package posttool
