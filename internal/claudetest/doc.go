// Package claudetest runs the real Claude Code CLI against a scripted model,
// so the hooks are tested inside the client that calls them.
//
// Three parts, used together by end-to-end tests:
//
//   - Claude locates, or installs with npm, node@22 and the pinned
//     @anthropic-ai/claude-code (Version) into a cache folder under the
//     repository (bin/tools/claude-<Version>, git-ignored, reused across
//     runs; VAULTCTX_CLAUDE_DIR overrides it). scripts/test.sh installs the
//     same folder before the tests run. When npm is missing or the registry
//     cannot be reached the test is skipped, unless CI is set: in CI it
//     fails. In -short mode the end-to-end tests are skipped.
//   - Mock is a Messages API server on 127.0.0.1 (net/http/httptest) that
//     answers POST /v1/messages, streamed (SSE) or not, from a script of
//     Turns (a tool call, then a text), and records every request body, so
//     a test reads what the model received: the tool_result after the
//     PostToolUse hook, the context a UserPromptSubmit hook added.
//   - Session runs `claude -p PROMPT --output-format json` in a private
//     HOME, CLAUDE_CONFIG_DIR, XDG folders and project folder, with a dummy
//     API key, ANTHROPIC_BASE_URL at the Mock, telemetry and every
//     non-essential request turned off, Bash allowed (--allowedTools Bash;
//     --dangerously-skip-permissions is refused as root), a --debug-file and
//     a timeout. WireHooks installs freshly built hook binaries (BuildHooks)
//     into its settings.json exactly as `vaultctx hooks install` does.
//
// What Claude Code 2.1.332 sends and expects is written down in
// docs/claude-code.md. The package is for tests only: every helper fails
// the test on an error instead of returning it.
package claudetest
