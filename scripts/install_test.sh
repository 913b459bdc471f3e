#!/usr/bin/env bash
# End-to-end test of scripts/install.sh in a throwaway HOME, without network:
# install with the demo vault and the GloVe model from ../shared, check that
# `vaultctx doctor` passes, re-run (nothing changes), uninstall (settings.json
# comes back byte for byte, index and config stay), then purge; a --vault
# switch (our config) and refusal (the user's config); the offline install
# and its printed retry against a local hub; the --no-<hook> opt-outs.
# Run by install/install_test.go (skipped with -short), or by hand.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
shared="$(cd "$repo/../shared" && pwd)" || { echo "install_test: ../shared is missing" >&2; exit 1; }
vault="$shared/corpora/obsidian/tasks-demo-vault"
model="$shared/models/glove-120k"

fail() {
  printf 'install_test: FAIL: %s\n' "$*" >&2
  exit 1
}
pass() { printf 'install_test: ok: %s\n' "$*"; }

# Keep Go's caches from the real environment: a fresh HOME would otherwise
# mean a cold build cache and module downloads.
go="${GO:-$(command -v go || echo /usr/local/go/bin/go)}"
GOCACHE="$("$go" env GOCACHE)" GOMODCACHE="$("$go" env GOMODCACHE)" GOPATH="$("$go" env GOPATH)"
export GOCACHE GOMODCACHE GOPATH GOFLAGS=-mod=readonly GOTOOLCHAIN=local GOPROXY=off
export GO="$go"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home"
mkdir -p "$HOME"
unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_CACHE_HOME CLAUDE_CONFIG_DIR
unset VAULTCTX_CONFIG VAULTCTX_DB VAULTCTX_VAULT VAULTCTX_MODEL VAULTCTX_LOG
bin="$HOME/.local/bin"
export PATH="$bin:$PATH"
config="$HOME/.config/vaultctx/config.toml"
settings="$HOME/.claude/settings.json"
install="$repo/scripts/install.sh"
log="$tmp/log"

# A settings file full of other tools' hooks and settings.
mkdir -p "$HOME/.claude"
cp "$repo/core/settings/testdata/competitors.json" "$settings"
cp "$settings" "$tmp/settings.orig"

run() { # run the installer, showing its output only on failure
  if ! "$install" "$@" >"$log" 2>&1; then
    cat "$log" >&2
    return 1
  fi
}

# Refusals come before any change.
run --no-hooks --no-model && fail "install without --vault and without a config succeeded"
grep -q -- "pass --vault DIR" "$log" || fail "no clear message without --vault: $(cat "$log")"
printf '#!/bin/sh\necho go1.22.4\n' >"$tmp/oldgo" && chmod +x "$tmp/oldgo"
GO="$tmp/oldgo" run --vault "$vault" && fail "install with Go 1.22 succeeded"
if ! grep -q "Go 1.26 or later is needed" "$log" || ! grep -q "go.dev/dl" "$log"; then
  fail "unclear message for an old Go: $(cat "$log")"
fi
cmp -s "$settings" "$tmp/settings.orig" || fail "a refused install touched settings.json"
pass "refusals"

# Install.
run --vault "$vault" --model "$model" || fail "install.sh failed"
for b in vaultctx vaultctx-userprompt vaultctx-pretooluse vaultctx-posttooluse; do
  [ -x "$bin/$b" ] || fail "$bin/$b not installed"
done
grep -qF "vault = \"$vault\"" "$config" || fail "config lacks the vault: $(cat "$config")"
grep -qF "model = \"$model\"" "$config" || fail "config lacks the model: $(cat "$config")"
ls "$settings".bak-* >/dev/null 2>&1 || fail "no settings.json backup"
[ "$(vaultctx hooks status | grep -c '✓')" = 5 ] || fail "hooks not wired: $(vaultctx hooks status)"
grep -q "Try:" "$log" || fail "no next command in the summary"
# The uninstall command it prints works from any folder: an absolute path.
uninst=$(sed -n 's/^Uninstall: \(.*\)   (add --purge.*/\1/p' "$log")
first=$(eval "set -- $uninst" && printf %s "$1")
case $first in /*) [ -x "$first" ] || fail "the printed uninstall command names no installer: $uninst" ;;
*) fail "the printed uninstall command is relative: $uninst" ;; esac
pass "install"

if ! vaultctx doctor >"$tmp/doctor" 2>&1; then
  cat "$tmp/doctor" >&2
  fail "vaultctx doctor failed after install"
fi
cat "$tmp/doctor"
grep -q '✗' "$tmp/doctor" && fail "doctor printed a failure"
# Off PATH the hooks still run by their absolute paths: a caveat, not a failure.
if ! PATH="${PATH#"$bin:"}" "$bin/vaultctx" doctor >"$tmp/doctor" 2>&1; then
  cat "$tmp/doctor" >&2
  fail "vaultctx doctor failed with the binaries off PATH although the hooks use absolute paths"
fi
grep -q '^! binaries on PATH: .*absolute path' "$tmp/doctor" || fail "doctor does not warn about PATH: $(cat "$tmp/doctor")"
pass "doctor"

# Re-run: safe, and it keeps the user's own edits to our entries: an env
# prefix, a wider matcher, a longer timeout. The installer writes a path
# with characters sh does not leave alone (a TMPDIR with a space) in single
# quotes, as core/settings.ShellQuote does; so does the edit.
shq() {
  case $1 in
  *[!A-Za-z0-9_/.,:@%+=-]*) printf "'%s'" "$(printf %s "$1" | sed "s/'/'\\\\''/g")" ;;
  *) printf %s "$1" ;;
  esac
}
hookcmd="$(shq "$bin/vaultctx-userprompt")"
logenv="VAULTCTX_LOG=$(shq "$tmp/hook.log")"
sed -e "s#\"command\": \"$hookcmd\"#\"command\": \"$logenv $hookcmd\"#" \
  -e 's#"matcher": "Grep|Glob|WebSearch|WebFetch|Task|Agent"#"matcher": "Grep|Glob|WebSearch|WebFetch|Task|Agent|Read"#' \
  -e "/vaultctx-posttooluse'*\"/,/timeout/ s#\"timeout\": 10#\"timeout\": 25#" "$settings" >"$tmp/settings.edited"
cp "$tmp/settings.edited" "$settings"
grep -qF "$logenv" "$settings" && grep -qF 'Agent|Read"' "$settings" && grep -qF '"timeout": 25' "$settings" ||
  fail "could not edit our entries for the re-run test: $(cat "$settings")"
cp "$config" "$tmp/config.1" && cp "$settings" "$tmp/settings.1"
run --vault "$vault" --model "$model" || fail "second install.sh failed"
cmp -s "$config" "$tmp/config.1" || fail "re-run changed the config"
cmp -s "$settings" "$tmp/settings.1" || fail "re-run changed settings.json, or undid the user's edits: $(diff "$tmp/settings.1" "$settings")"
if ! vaultctx doctor >"$tmp/doctor" 2>&1; then
  cat "$tmp/doctor" >&2
  fail "vaultctx doctor failed with the user's edits to our entries"
fi
[ -s "$tmp/hook.log" ] || fail "the env prefix of the edited UserPromptSubmit entry did not reach the hook"
pass "re-run keeps the user's edits"

# --vault OTHER with the config the installer wrote: it says so, rewrites
# the vault line, rebuilds the index from scratch for OTHER, and leaves
# settings.json alone; switching back works the same way.
other="$shared/corpora/linked/obsidian-tasks-docs"
cp "$settings" "$tmp/settings.1"
run --vault "$other" --model "$model" || fail "install.sh --vault OTHER failed"
grep -q "^Switching the vault: $config names $vault; this install makes it $other" "$log" || fail "the switch was not announced: $(cat "$log")"
grep -qF "vault = \"$other\"" "$config" || fail "config does not name the new vault: $(cat "$config")"
grep -qF "$vault" "$config" && fail "config still names the old vault: $(cat "$config")"
grep -qF "model = \"$model\"" "$config" || fail "the switch lost the model line: $(cat "$config")"
vaultctx status --json | grep -qF "\"vault\": \"$other\"" || fail "the index is not of the new vault: $(vaultctx status --json)"
vaultctx search --json "recurring task" >"$tmp/hits" || fail "search after the switch failed"
grep -q '"path"' "$tmp/hits" || fail "no hits after the switch: $(cat "$tmp/hits")"
grep -qF "$vault" "$tmp/hits" && fail "the old vault's notes are still in the index: $(cat "$tmp/hits")"
cmp -s "$settings" "$tmp/settings.1" || fail "the vault switch changed settings.json: $(diff "$tmp/settings.1" "$settings")"
run --vault "$vault" --model "$model" || fail "switching back failed"
cmp -s "$config" "$tmp/config.1" || fail "switching back did not restore the config: $(diff "$tmp/config.1" "$config")"
vaultctx status --json | grep -qF "\"vault\": \"$vault\"" || fail "the index is not of the first vault again"
pass "--vault OTHER switches a config the installer wrote, with a fresh index"

# Uninstall keeps index and config; settings.json comes back exactly.
run --uninstall || fail "uninstall failed"
for b in vaultctx vaultctx-userprompt vaultctx-pretooluse vaultctx-posttooluse; do
  [ -e "$bin/$b" ] && fail "$bin/$b still there after --uninstall"
done
cmp -s "$settings" "$tmp/settings.orig" || fail "settings.json differs from the original after uninstall"
[ -f "$config" ] || fail "uninstall removed the config"
[ -n "$(find "$HOME/.local/share/vaultctx" -name '*.db' 2>/dev/null)" ] || fail "uninstall removed the index"
pass "uninstall"

# Uninstall again with the binaries gone, after re-wiring the hooks by hand
# from a fresh build: the installer rebuilds a vaultctx to unwire them.
(cd "$repo" && "$go" build -tags sqlite_fts5 -o "$tmp/vaultctx" ./indexer && "$go" build -o "$tmp/vaultctx-pull" ./pull) || fail "build for re-wiring"
mkdir -p "$tmp/hookbin"
for b in vaultctx-userprompt vaultctx-pretooluse vaultctx-posttooluse; do printf '#!/bin/sh\n' >"$tmp/hookbin/$b" && chmod +x "$tmp/hookbin/$b"; done
"$tmp/vaultctx" hooks install --bin-dir "$tmp/hookbin" >/dev/null || fail "re-wiring failed"
run --uninstall || fail "uninstall without binaries failed"
cmp -s "$settings" "$tmp/settings.orig" || fail "uninstall without binaries left hooks in settings.json"
pass "uninstall without binaries"

# Each install and uninstall backs settings.json up; at most 5 backups stay.
for i in 1 2 3; do
  "$tmp/vaultctx" hooks install --bin-dir "$tmp/hookbin" >/dev/null && "$tmp/vaultctx" hooks uninstall >/dev/null || fail "install/uninstall round $i"
done
n="$(find "$HOME/.claude" -name 'settings.json.bak-*' | wc -l)"
# More than 10 edits so far, each backed up: the newest 5 stay.
[ "$n" = 5 ] || fail "$n backups of settings.json, want the newest 5"
run --uninstall --purge || fail "purge failed"
[ -e "$config" ] && fail "purge kept the config"
[ -e "$HOME/.local/share/vaultctx" ] && fail "purge kept the data dir"
cmp -s "$settings" "$tmp/settings.orig" || fail "purge changed settings.json"
[ -n "$(find "$HOME/.claude" -name 'settings.json.bak-*')" ] && fail "purge kept the settings backups: $(ls "$HOME/.claude")"
pass "purge, and at most 5 settings backups"

# Installed with --prefix, uninstalled with the command the summary prints,
# or without --prefix at all: the binaries are found through settings.json.
run --vault "$vault" --no-model --prefix "$tmp/other" || fail "install with --prefix failed"
grep -q -- "--uninstall --prefix" "$log" || fail "the summary's uninstall command lacks --prefix: $(grep Uninstall "$log")"
[ -x "$tmp/other/bin/vaultctx-userprompt" ] || fail "no binaries in the --prefix"
run --uninstall || fail "uninstall of a --prefix install failed"
[ -e "$tmp/other/bin/vaultctx" ] && fail "uninstall left the binaries in the --prefix"
cmp -s "$settings" "$tmp/settings.orig" || fail "uninstall of a --prefix install left settings.json changed"
run --uninstall --purge || fail "purge after the --prefix install failed"
pass "uninstall finds a --prefix install"

# --purge deletes the index the config names with db = "...", not only the
# default one, and leaves a non-SQLite file of that name alone.
run --vault "$vault" --no-model || fail "install for the db = purge failed"
printf 'db = "%s"\n' "$tmp/elsewhere/idx.db" >>"$config"
"$HOME/.local/bin/vaultctx" index >/dev/null || fail "index into the config's db failed"
[ -f "$tmp/elsewhere/idx.db" ] || fail "no index at the config's db"
run --uninstall --purge || fail "purge with a config db failed"
[ -e "$tmp/elsewhere/idx.db" ] && fail "purge kept the index the config names"
[ -e "$tmp/elsewhere/idx.db.lock" ] && fail "purge kept the index's lock file"
run --vault "$vault" --no-model || fail "install for the non-index purge failed"
printf 'db = "%s"\n' "$tmp/elsewhere/notes.txt" >>"$config"
echo "not an index" >"$tmp/elsewhere/notes.txt"
run --uninstall --purge || fail "purge with a non-index db failed"
[ -f "$tmp/elsewhere/notes.txt" ] || fail "purge deleted a file that is not an index"
pass "purge deletes the config's db, and only an SQLite file"

# Offline without --model: the pull fails fast (through a proxy that refuses
# connections), the install goes on BM25-only, and doctor still passes.
HTTPS_PROXY=http://127.0.0.1:9 HTTP_PROXY=http://127.0.0.1:9 run --vault "$vault" || fail "offline install failed"
grep -q "BM25-only" "$log" || fail "no BM25-only warning after a failed pull: $(cat "$log")"
grep -q '^model' "$config" && fail "a failed pull wrote a model into the config"
if ! vaultctx doctor >"$tmp/doctor" 2>&1; then
  cat "$tmp/doctor" >&2
  fail "vaultctx doctor failed after a BM25-only install"
fi
grep -q "BM25-only" "$tmp/doctor" || fail "doctor does not say BM25-only: $(cat "$tmp/doctor")"
pass "offline BM25-only install"

# The retry the offline install printed, run as printed, against a local
# hub that serves GloVe as the default model. The pull gets the hub's URL
# and a test revision (the pinned digests of the real default model cannot
# be served from ../shared); everything else is the printed command.
retry="$(sed -n 's/^warning: search still works\. Retry later with: //p' "$log")"
[ "$retry" = "vaultctx model pull && vaultctx index" ] || fail "unexpected retry command: '$retry' in $(cat "$log")"
hubdir="$tmp/hub/minishlab/potion-base-8M/resolve/test"
mkdir -p "$hubdir"
for f in config.json tokenizer.json model.safetensors; do ln -s "$model/$f" "$hubdir/$f"; done
(cd "$repo" && "$go" build -o "$tmp/hubserve" ./scripts/testdata/hubserve) || fail "build hubserve"
"$tmp/hubserve" "$tmp/hub" "$tmp/hub.url" 2>"$tmp/hub.log" &
hub_pid=$!
trap 'kill "$hub_pid" 2>/dev/null || true; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do [ -s "$tmp/hub.url" ] && break; sleep 0.1; done
hub="$(cat "$tmp/hub.url")" || fail "the local hub did not start: $(cat "$tmp/hub.log")"
sh -c "${retry/model pull/model pull --base-url $hub --revision test}" >"$tmp/retry" 2>&1 || fail "the printed retry failed: $(cat "$tmp/retry")"
pulled="$HOME/.local/share/vaultctx/models/minishlab/potion-base-8M"
grep -qxF "model = \"$pulled\"" "$config" || fail "model pull did not record the model: $(cat "$config")"
vaultctx status --json | grep -q '"vec_available": true' || fail "the index has no vectors after the retry: $(cat "$tmp/retry")"
vaultctx status --json | grep -qF "\"model_dir\": \"$pulled\"" || fail "the index does not record the pulled model: $(vaultctx status --json)"
if ! vaultctx doctor >"$tmp/doctor" 2>&1; then
  cat "$tmp/doctor" >&2
  fail "vaultctx doctor failed after the retry"
fi
grep -q "model matches index: $pulled" "$tmp/doctor" || fail "doctor does not see the pulled model: $(cat "$tmp/doctor")"
run --uninstall --purge || fail "second purge failed"
cmp -s "$settings" "$tmp/settings.orig" || fail "second purge left settings.json changed"
pass "the offline install's printed retry gives vectors"

# Opt-outs: --no-posttooluse leaves the hook out and records it in the
# config the installer wrote, so a plain re-run keeps it out; the model
# line a later run adds goes above the [hooks] table; switching the hook
# back on and re-running wires it again.
run --vault "$vault" --no-model --no-posttooluse || fail "install --no-posttooluse failed"
grep -qx 'posttooluse = false' "$config" || fail "--no-posttooluse is not recorded in the config: $(cat "$config")"
grep -q 'vaultctx-posttooluse' "$settings" && fail "--no-posttooluse wired the PostToolUse hook"
status="$(vaultctx hooks status)"
[ "$(printf '%s\n' "$status" | grep -c '✓')" = 4 ] || fail "want the two context hooks wired (the prompt hook on three events): $status"
printf '%s\n' "$status" | grep -q -- '– PostToolUse *off (hooks.posttooluse = false), not wired' || fail "status does not show the hook off: $status"
if ! vaultctx doctor >"$tmp/doctor" 2>&1; then
  cat "$tmp/doctor" >&2
  fail "vaultctx doctor failed with the PostToolUse hook left out"
fi
grep -q '✗' "$tmp/doctor" && fail "doctor printed a failure with the PostToolUse hook left out: $(cat "$tmp/doctor")"
grep -q 'PostToolUse round trip: skipped: off in the config' "$tmp/doctor" || fail "doctor does not say the hook is off: $(cat "$tmp/doctor")"
# Off PATH too, the hook left out is no failure: the others run by absolute path.
if ! PATH="${PATH#"$bin:"}" "$bin/vaultctx" doctor >"$tmp/doctor" 2>&1; then
  cat "$tmp/doctor" >&2
  fail "vaultctx doctor failed off PATH with the PostToolUse hook left out"
fi
grep -q '^! binaries on PATH: .*absolute path' "$tmp/doctor" || fail "doctor does not warn about PATH: $(cat "$tmp/doctor")"
cp "$settings" "$tmp/settings.2"
run --vault "$vault" --model "$model" || fail "re-run without --no-posttooluse failed"
cmp -s "$settings" "$tmp/settings.2" || fail "a plain re-run wired the hook the config turns off"
awk '/^\[/ { t = 1 } /^model = / { m = 1; if (t) bad = 1 } END { exit !(m && !bad) }' "$config" ||
  fail "the model line is not above the config's tables: $(cat "$config")"
sed 's/^posttooluse = false$/posttooluse = true/' "$config" >"$tmp/config.on" && cp "$tmp/config.on" "$config"
run --vault "$vault" --model "$model" || fail "re-run with posttooluse = true failed"
[ "$(vaultctx hooks status | grep -c '✓')" = 5 ] || fail "posttooluse = true did not wire the hook again: $(vaultctx hooks status)"
run --uninstall --purge || fail "purge after the opt-outs failed"
cmp -s "$settings" "$tmp/settings.orig" || fail "purge after the opt-outs left settings.json changed"
pass "--no-posttooluse, kept out by a re-run, back with posttooluse = true"

# A config the user wrote is not edited: the installer says which line to
# add, and still leaves the hook out of this install.
mkdir -p "$(dirname "$config")"
printf 'vault = "%s"\n' "$vault" >"$config"
cp "$config" "$tmp/config.own"
run --no-model --no-pretooluse || fail "install --no-pretooluse with the user's config failed"
cmp -s "$config" "$tmp/config.own" || fail "the installer edited the user's own config"
grep -q 'add this line under \[hooks\] in it: pretooluse = false' "$log" || fail "no line to add for the user's config: $(cat "$log")"
grep -q 'vaultctx-pretooluse' "$settings" && fail "--no-pretooluse wired the PreToolUse hook"
grep -q 'vaultctx-posttooluse' "$settings" || fail "--no-pretooluse left out the PostToolUse hook too"
# --vault OTHER with the user's own config: refused with exit 2 before any
# change, with the line to set and the command to run; both, done as
# printed, switch the vault.
cp "$settings" "$tmp/settings.3"
rc=0
"$install" --vault "$other" --no-model >"$log" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "--vault OTHER with the user's config: exit $rc, want 2: $(cat "$log")"
cmp -s "$config" "$tmp/config.own" || fail "the refused --vault edited the user's config"
cmp -s "$settings" "$tmp/settings.3" || fail "the refused --vault touched settings.json"
grep -qxF "  vault = \"$other\"" "$log" || fail "the refusal does not give the line to set: $(cat "$log")"
cmd="$(grep -A1 '^then build the index of the new vault with:$' "$log" | sed -n '2s/^  //p')"
[ "$cmd" = "$(printf '%q' "$bin/vaultctx") index --full" ] || fail "the refusal does not give the command: '$cmd' in $(cat "$log")"
grep -q "To keep $vault, re-run without --vault" "$log" || fail "the refusal does not say how to keep the vault: $(cat "$log")"
sed "s#^vault = .*#vault = \"$other\"#" "$tmp/config.own" >"$config"
eval "$cmd" >"$tmp/full" 2>&1 || fail "the refusal's command failed: $(cat "$tmp/full")" # run as a user pastes it
vaultctx status --json | grep -qF "\"vault\": \"$other\"" || fail "the index is not of the new vault after the refusal's steps"
cp "$tmp/config.own" "$config"
pass "--vault OTHER with the user's config: exit 2, the line and the command"
run --uninstall --purge || fail "purge after the user's config failed"
cmp -s "$settings" "$tmp/settings.orig" || fail "purge left settings.json changed"
pass "--no-pretooluse with the user's own config"

# A config that `vaultctx model pull` created (there was none) is
# vaultctx's own: the installer may edit it, so --vault sets the vault in
# it, and the model it names is used.
"$tmp/vaultctx" model pull --base-url "$hub" --revision test >/dev/null 2>"$tmp/pull" || fail "pull without a config: $(cat "$tmp/pull")"
grep -q "written by vaultctx model pull" "$config" || fail "pull did not create the config: $(cat "$tmp/pull")"
run --vault "$vault" || fail "install over the config model pull wrote failed"
grep -qxF "vault = \"$vault\"" "$config" && grep -qxF "model = \"$pulled\"" "$config" || fail "config after the install: $(cat "$config")"
vaultctx status --json | grep -q '"vec_available": true' || fail "no vectors from the model pull recorded: $(cat "$log")"
run --uninstall --purge || fail "purge after the pull's config failed"
cmp -s "$settings" "$tmp/settings.orig" || fail "purge left settings.json changed"
pass "a config made by model pull is the installer's to edit"
