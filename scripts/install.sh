#!/usr/bin/env bash
# Installs vaultctx from this checkout, or removes it.
#
#   scripts/install.sh --vault ~/Notes            build, configure, index, wire hooks
#   scripts/install.sh --uninstall [--purge]      remove hooks and binaries (--purge: index and config too)
#
# Options:
#   --vault DIR    the markdown vault to index (needed the first time, when no config exists).
#                  With a config that names another vault: if the installer wrote that
#                  config, it says so, sets the vault to DIR and rebuilds the index from
#                  scratch; if you wrote it, nothing changes and it exits 2 with the line
#                  to set and the command to run.
#   --prefix DIR   install binaries into DIR/bin (default ~/.local)
#   --model DIR    use this Model2Vec model directory instead of downloading one
#   --no-model     no embedding model: BM25 keyword search only
#   --no-hooks     do not touch Claude Code's settings.json
#   --no-userprompt, --no-pretooluse, --no-posttooluse
#                  leave that hook out: it is not wired into settings.json, and the config
#                  records NAME = false under [hooks], so later runs keep it out (set it to
#                  true, or delete the line, and re-run to wire it again). A config you wrote
#                  yourself is not edited: add the line the installer prints.
#   --uninstall    remove our hooks from settings.json and our binaries; keep index and config
#   --purge        with --uninstall, also delete the config file, the index, pulled models and
#                  the backups of settings.json vaultctx made (it keeps the newest 5 otherwise)
#
# Steps: 1 toolchain check, 2 build, 3 config, 4 model, 5 first index, 6 hooks, 7 summary.
# Re-running is safe: binaries are rebuilt, an existing config is never overwritten (the
# installer edits only its own: the vault, a model line, hook switches), the index is
# updated incrementally, and the hooks are merged into settings.json in place.
# Exit status: 0 done, 1 error, 2 a --vault the installer must not apply (see --vault).
#
# Environment: VAULTCTX_CONFIG (config file), VAULTCTX_DB (index), XDG_CONFIG_HOME,
# XDG_DATA_HOME, XDG_CACHE_HOME, CLAUDE_CONFIG_DIR (where Claude Code's settings.json is),
# CC (C compiler), GO (go binary).
set -euo pipefail
{ # read the whole script before running it, so a git pull mid-run cannot change it

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

vault="" prefix="${HOME}/.local" model="" no_model=0 no_hooks=0 uninstall=0 purge=0
hooks_off=() # hook names turned off with --no-NAME

say() { printf '%s\n' "$*"; }
step() { printf '\n[%s/7] %s\n' "$1" "$2"; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die() {
  printf 'error: %s\n' "$*" >&2
  exit 1
}
usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'; }
need_arg() { if [ $# -lt 2 ] || [ -z "$2" ]; then die "$1 needs a value (see --help)"; fi; }
abspath() { (cd "$1" && pwd); }

while [ $# -gt 0 ]; do
  case "$1" in
    --vault) need_arg "$@"; vault="$2"; shift 2 ;;
    --vault=*) vault="${1#*=}"; shift ;;
    --prefix) need_arg "$@"; prefix="$2"; shift 2 ;;
    --prefix=*) prefix="${1#*=}"; shift ;;
    --model) need_arg "$@"; model="$2"; shift 2 ;;
    --model=*) model="${1#*=}"; shift ;;
    --no-model) no_model=1; shift ;;
    --no-hooks) no_hooks=1; shift ;;
    --no-userprompt | --no-pretooluse | --no-posttooluse) hooks_off+=("${1#--no-}"); shift ;;
    --uninstall) uninstall=1; shift ;;
    --purge) purge=1; uninstall=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) die "unknown option $1 (see --help)" ;;
  esac
done

# Expand a leading ~ that the shell left alone (--vault=~/Notes).
# shellcheck disable=SC2088 # the literal ~ is what we look for
untilde() { case "$1" in "~") printf '%s' "$HOME" ;; "~/"*) printf '%s/%s' "$HOME" "${1#"~/"}" ;; *) printf '%s' "$1" ;; esac; }
vault="$(untilde "$vault")" model="$(untilde "$model")" prefix="$(untilde "$prefix")"
case "$prefix" in /*) ;; *) prefix="$(pwd)/$prefix" ;; esac
bindir="${prefix%/}/bin"
config="${VAULTCTX_CONFIG:-${XDG_CONFIG_HOME:-$HOME/.config}/vaultctx/config.toml}"
datadir="${XDG_DATA_HOME:-$HOME/.local/share}/vaultctx"
cachedir="${XDG_CACHE_HOME:-$HOME/.cache}/vaultctx"
binaries=(vaultctx vaultctx-pull vaultctx-userprompt vaultctx-pretooluse vaultctx-posttooluse)
packages=(indexer pull hooks/userprompt hooks/pretooluse hooks/posttooluse)

# ---------------------------------------------------------------- uninstall
if [ "$uninstall" = 1 ]; then
  if [ ! -x "$bindir/vaultctx" ]; then
    # Installed with another --prefix: find the binaries through the hooks
    # wired in settings.json, then through PATH.
    settings="${CLAUDE_CONFIG_DIR:-$HOME/.claude}/settings.json"
    hook="$(grep -o '"[^"]*vaultctx-userprompt' "$settings" 2>/dev/null | head -n 1 | sed -e 's/^"//' -e "s/^'//" || true)"
    # An entry the user prefixed (VAULTCTX_LOG=... /bin/vaultctx-userprompt): its last path.
    wrapped="$(grep -o "/[^\"' ]*/vaultctx-userprompt" "$settings" 2>/dev/null | head -n 1 || true)"
    for dir in "$(dirname "$hook")" "$(dirname "$wrapped")" "$(dirname "$(command -v vaultctx 2>/dev/null || echo .)")"; do
      case "$dir" in /*) ;; *) continue ;; esac
      if [ -x "$dir/vaultctx" ] && [ -x "$dir/vaultctx-userprompt" ]; then
        bindir="$dir"
        break
      fi
    done
  fi
  say "Removing vaultctx from $bindir"
  if [ "$no_hooks" = 0 ]; then
    tool="$bindir/vaultctx"
    if [ ! -x "$tool" ]; then
      # The binaries are gone already: build a throwaway vaultctx to edit settings.json.
      tmpbin="$(mktemp -d)"
      trap 'rm -rf "$tmpbin"' EXIT
      tool="$tmpbin/vaultctx"
      (cd "$repo" && CGO_ENABLED=1 "${GO:-go}" build -tags sqlite_fts5 -o "$tool" ./indexer) ||
        die "$bindir/vaultctx is missing and could not be rebuilt, so the hooks are still in settings.json; delete its vaultctx-* entries by hand"
    fi
    remove_backups=()
    if [ "$purge" = 1 ]; then remove_backups=(--remove-backups); fi
    "$tool" hooks uninstall ${remove_backups[@]+"${remove_backups[@]}"} ||
      die "could not remove the hooks from settings.json (see above); nothing else was removed"
  fi
  removed=0
  for b in "${binaries[@]}"; do
    if [ -e "$bindir/$b" ]; then rm -f "$bindir/$b" && say "removed $bindir/$b" && removed=$((removed + 1)); fi
  done
  if [ "$removed" = 0 ]; then
    others="$(command -v vaultctx 2>/dev/null || true)"
    warn "no vaultctx binaries in $bindir${others:+; one is still at $others: pass the --prefix you installed with}"
  fi
  if [ "$purge" = 1 ]; then
    # The index the config names (db = "..."), else the default one; a file
    # that is not an SQLite file is left alone.
    cfgdb="$(sed -n 's/^[[:space:]]*db[[:space:]]*=[[:space:]]*"\(.*\)"[[:space:]]*$/\1/p' "$config" 2>/dev/null | head -n 1)"
    case "$cfgdb" in "~/"*) cfgdb="$HOME/${cfgdb#"~/"}" ;; esac
    db="${VAULTCTX_DB:-${cfgdb:-$datadir/index.db}}"
    if [ -f "$db" ] && [ "$(head -c 15 "$db" 2>/dev/null)" != "SQLite format 3" ]; then
      warn "$db is not an SQLite file; left in place"
      db=""
    fi
    for f in "$config" ${db:+"$db" "$db-wal" "$db-shm" "$db.lock" "$db.watch.lock" "$db.refresh" "$db.refresh.lock"}; do
      if [ -e "$f" ]; then rm -f "$f" && say "removed $f"; fi
    done
    statedir="${XDG_STATE_HOME:-$HOME/.local/state}/vaultctx"
    for d in "$datadir" "$cachedir" "$statedir"; do
      if [ -d "$d" ]; then rm -rf "$d" && say "removed $d"; fi
    done
    rmdir "$(dirname "$config")" 2>/dev/null || true
  else
    say "kept the config ($config) and the index; add --purge to delete them"
  fi
  say "vaultctx is uninstalled."
  exit 0
fi

# Check the arguments before changing anything.
if [ -n "$model" ]; then
  [ -d "$model" ] || die "--model $model is not a directory"
  model="$(abspath "$model")"
fi
if [ -n "$vault" ]; then
  [ -d "$vault" ] || die "--vault $vault is not a directory"
  vault="$(abspath "$vault")"
elif [ ! -e "$config" ]; then
  die "no config yet at $config: pass --vault DIR, the markdown vault to index"
fi
marker="written by scripts/install.sh" # lets a re-run edit its own config: vault, model, hook switches
# ours_config: the config was written by vaultctx (this installer, or
# `vaultctx model pull` when there was none), so the installer may edit it.
ours_config() { grep -qsE "written by (scripts/install\.sh|vaultctx model pull)" "$config"; }
toml_string() { # a TOML basic string
  local s="${1//\\/\\\\}"
  s="${s//\"/\\\"}"
  printf '"%s"' "$s"
}
# config_vault: the vault the config names (its top-level vault = "..." or
# '...' line), with ~/ expanded and made absolute against the config's
# folder as vaultctx reads it; empty when it names none.
config_vault() {
  local v
  v="$(awk '
    /^[[:space:]]*\[/ { exit }
    /^[[:space:]]*vault[[:space:]]*=/ {
      s = $0
      sub(/^[[:space:]]*vault[[:space:]]*=[[:space:]]*/, "", s)
      if (s ~ /^"/) {
        sub(/^"/, "", s); sub(/"[[:space:]]*(#.*)?$/, "", s)
        gsub(/\\\\/, "\001", s); gsub(/\\"/, "\"", s); gsub(/\001/, "\\", s)
      } else if (s ~ /^\047/) {
        sub(/^\047/, "", s); sub(/\047[[:space:]]*(#.*)?$/, "", s)
      }
      print s
      exit
    }' "$config" 2>/dev/null)"
  v="$(untilde "$v")"
  case "$v" in "" | /*) ;; *) v="$(dirname "$config")/$v" ;; esac
  printf '%s' "$v"
}
# same_dir A B: A and B are the same folder (symlinks resolved), or the same
# path when one is missing.
same_dir() {
  if [ -d "$1" ] && [ -d "$2" ]; then
    [ "$(cd "$1" && pwd -P)" = "$(cd "$2" && pwd -P)" ]
  else
    [ "${1%/}" = "${2%/}" ]
  fi
}
# A --vault other than the config's switches to it when the config is ours
# (the installer rewrites its vault line and rebuilds the index from
# scratch), and is refused with exit 2 when the user wrote the config,
# which the installer never edits.
switch_from="" # the vault the config named, when this run switches it
if [ -n "$vault" ] && [ -e "$config" ]; then
  old_vault="$(config_vault)"
  if [ -z "$old_vault" ] || ! same_dir "$old_vault" "$vault"; then
    if ours_config; then
      switch_from="${old_vault:-no vault}"
      say "Switching the vault: $config names ${old_vault:-no vault}; this install makes it $vault and rebuilds the index from scratch for it (the index of the old vault is replaced)."
    else
      tool="vaultctx"
      if [ -x "$bindir/vaultctx" ]; then tool="$(printf '%q' "$bindir/vaultctx")"; fi
      printf 'error: --vault %s: your config %s names %s, and the installer does not edit a config you wrote.\n' "$vault" "$config" "${old_vault:-no vault}" >&2
      printf 'To switch to %s, set this top-level line in it (above any [table]):\n  vault = %s\n' "$vault" "$(toml_string "$vault")" >&2
      printf 'then build the index of the new vault with:\n  %s index --full\n' "$tool" >&2
      if [ -n "$old_vault" ]; then printf 'To keep %s, re-run without --vault.\n' "$old_vault" >&2; fi
      exit 2
    fi
  fi
fi

# ---------------------------------------------------------------- 1. toolchain
step 1 "Checking the toolchain"
go="${GO:-}"
if [ -z "$go" ]; then
  go="$(command -v go || true)"
  if [ -z "$go" ] && [ -x /usr/local/go/bin/go ]; then go=/usr/local/go/bin/go; fi
fi
[ -n "$go" ] || die "Go 1.26 or later is needed and was not found. Download it from https://go.dev/dl/ (Linux: unpack into /usr/local, then export PATH=/usr/local/go/bin:\$PATH)."
gover="$("$go" env GOVERSION 2>/dev/null || true)"
ver="${gover##*go}" # go1.26.1, go1.27rc1, devel go1.27-abc
ver="${ver%% *}"
major="${ver%%.*}"
minor="${ver#*.}" minor="${minor%%[!0-9]*}"
case "$major$minor" in
  '' | *[!0-9]*) die "could not read the version of $go (${gover:-no output}); Go 1.26 or later is needed: https://go.dev/dl/" ;;
esac
if [ "$major" -lt 1 ] || { [ "$major" -eq 1 ] && [ "$minor" -lt 26 ]; }; then
  die "Go 1.26 or later is needed; $go is $gover. Download a newer one from https://go.dev/dl/."
fi
cc="${CC:-}"
if [ -z "$cc" ]; then
  for c in cc gcc clang; do
    if command -v "$c" >/dev/null 2>&1; then cc="$c" && break; fi
  done
fi
cc_fix="Debian/Ubuntu: sudo apt-get install gcc; Fedora: sudo dnf install gcc; macOS: xcode-select --install"
if [ -z "$cc" ] || ! command -v "${cc%% *}" >/dev/null 2>&1; then
  die "a C compiler is needed to build SQLite (cgo) and none was found. $cc_fix."
fi
# A compiler shim (macOS without the command line tools) exists but cannot compile.
# shellcheck disable=SC2086 # CC may carry flags
if ! printf 'int main(void) { return 0; }\n' | $cc -x c -o /dev/null - >/dev/null 2>&1; then
  die "the C compiler $cc cannot build a trivial program. $cc_fix."
fi
# sqlite-vec's Go bindings and our own SQL functions compile against the
# system's sqlite3.h (the code linked is the SQLite built into the binary).
# shellcheck disable=SC2086 # CC may carry flags
if ! printf '#include <sqlite3.h>\nint main(void) { return 0; }\n' | $cc -x c -o /dev/null - >/dev/null 2>&1; then
  die "SQLite's C header sqlite3.h is needed to build and was not found. Debian/Ubuntu: sudo apt-get install libsqlite3-dev; Fedora: sudo dnf install sqlite-devel; macOS: xcode-select --install."
fi
say "Go $ver ($go), C compiler $(command -v "${cc%% *}")"

# ---------------------------------------------------------------- 2. build
step 2 "Building into $bindir"
mkdir -p "$bindir"
version="$(git -C "$repo" describe --always --dirty 2>/dev/null || echo dev)"
tags="sqlite_fts5"
# The source tree goes into vaultctx too, so that its advice (doctor's fix
# for a missing hook binary) names this script by its full path, which runs
# from any folder. A path with a quote in it is left out (-ldflags quoting).
base_ldflags="-X main.version=$version"
case "$repo" in *"'"* | *'"'*) ;; *) base_ldflags="$base_ldflags -X 'main.sourceDir=$repo'" ;; esac
ldflags="$base_ldflags"
# On Linux, link statically when the C library allows it: a hook then starts
# without the dynamic loader binding SQLite's libc calls, about 1 ms of its
# 15 ms budget (prompt hook p50 17.0 -> 15.9 ms here). The extra tags keep
# glibc's NSS and dlopen out of the binary: pure-Go user and DNS lookups, no
# SQLite run-time extension loading (sqlite-vec is compiled in).
# shellcheck disable=SC2086 # CC may carry flags
if [ "$(uname -s)" = Linux ] && printf 'int main(void) { return 0; }\n' | $cc -x c -static -o /dev/null - >/dev/null 2>&1; then
  tags="sqlite_fts5 osusergo netgo sqlite_omit_load_extension"
  ldflags="$ldflags -linkmode external -extldflags -static"
  say "linking statically"
fi
# Go 1.26's default garbage collector (Green Tea) keeps each small-object
# span's mark bits in the span's last bytes, so the first object of a fresh
# 8 KiB span faults in both of its pages. A hook or a search is a process
# that lives for one query and allocates into a hundred fresh spans, so
# building with the previous collector spares it 4-7 % of its page faults
# (about 70 of 1,050 for a prompt hook; 1-3 % of its time, measured in
# interleaved runs). Go 1.27 drops the option; a toolchain that does not
# know it, or a GOEXPERIMENT of your own, builds as it is.
experiment="${GOEXPERIMENT-}"
if [ -z "$experiment" ] && GOEXPERIMENT=nogreenteagc "$go" env GOEXPERIMENT >/dev/null 2>&1; then
  experiment=nogreenteagc
fi
build() { # build NAME PKG with the current tags and ldflags
  (cd "$repo" && CGO_ENABLED=1 CC="$cc" GOEXPERIMENT="$experiment" "$go" build -tags "$tags" -trimpath \
    -ldflags "$ldflags" -o "$bindir/$1" "./$2")
}
built=()
for i in "${!binaries[@]}"; do
  name="${binaries[$i]}" pkg="${packages[$i]}"
  if ! grep -qs '^package main' "$repo/$pkg"/*.go; then
    warn "$pkg has no main package yet; $name not built"
    continue
  fi
  if ! build "$name" "$pkg"; then
    [ "$tags" = sqlite_fts5 ] && die "building $name failed (see above)"
    # A static link can fail where a trivial one worked (a static library
    # missing): fall back to dynamic linking for this and the rest.
    warn "linking $name statically failed; building dynamically linked binaries instead"
    tags="sqlite_fts5" ldflags="$base_ldflags"
    build "$name" "$pkg" || die "building $name failed (see above)"
  fi
  built+=("$name")
  say "built $bindir/$name"
done
[ -x "$bindir/vaultctx" ] || die "vaultctx was not built"
case ":$PATH:" in
  *":$bindir:"*) ;;
  *) warn "$bindir is not on your PATH. Add it, e.g. in ~/.bashrc or ~/.zshrc: export PATH=\"$bindir:\$PATH\"" ;;
esac
vaultctx="$bindir/vaultctx"

# ---------------------------------------------------------------- 3. config
step 3 "Config"
# edit_config AWK-PROGRAM [VAR=VALUE...]: rewrite our config through awk, atomically.
edit_config() {
  local prog="$1"
  shift
  awk "$@" "$prog" "$config" >"$config.tmp.$$" && mv "$config.tmp.$$" "$config"
}
# add_top_key LINE: add a top-level key to our config above its first [table],
# where TOML reads it as top-level.
add_top_key() {
  edit_config '!done && /^[[:space:]]*\[/ { print line; done = 1 } { print } END { if (!done) print line }' -v line="$1"
}
if [ -n "$switch_from" ]; then
  line="vault = $(toml_string "$vault")"
  if [ "$switch_from" = "no vault" ]; then
    add_top_key "$line"
  else
    edit_config '/^[[:space:]]*\[/ { t = 1 } !t && !done && /^[[:space:]]*vault[[:space:]]*=/ { print line; done = 1; next } { print }' -v line="$line"
  fi
  same_dir "$(config_vault)" "$vault" || die "could not set the vault in $config; set it by hand: $line"
  say "switched the vault in $config from $switch_from to $vault"
elif [ -e "$config" ]; then
  say "kept the existing config $config (never overwritten; edit it to change the vault or model)"
else
  mkdir -p "$(dirname "$config")"
  {
    printf '# vaultctx config, %s. Keys: vault, db, model, include,\n' "$marker"
    printf '# exclude, extensions, max_file_bytes. Environment VAULTCTX_* and flags override them.\n'
    printf 'vault = %s\n' "$(toml_string "$vault")"
    if [ -n "$model" ]; then printf 'model = %s\n' "$(toml_string "$model")"; fi
  } >"$config.tmp.$$"
  mv "$config.tmp.$$" "$config"
  say "wrote $config (vault = $vault)"
fi

# ---------------------------------------------------------------- 4. model
step 4 "Embedding model"
mode="hybrid (BM25 + vectors)"
# use_model DIR: name DIR in the config when the config is ours and names no
# model yet; otherwise say how to.
use_model() {
  if grep -qsF "model = $(toml_string "$1")" "$config"; then
    return 0
  elif grep -qs '^model *=' "$config"; then
    warn "your config names another model; to use $1 set model = \"$1\" in $config"
  elif ours_config; then
    add_top_key "model = $(toml_string "$1")"
    say "added model = \"$1\" to $config"
  else
    warn "your config has no model; add this line to $config to use it: model = \"$1\""
  fi
}
if [ -n "$model" ]; then
  say "using the model in $model"
  use_model "$model"
elif [ "$no_model" = 1 ]; then
  mode="BM25 keyword search only (--no-model)"
  say "skipped (--no-model): search will use BM25 only"
elif configured="$(sed -n 's/^model *= *"\(.*\)" *$/\1/p' "$config" | head -n 1)" &&
  [ -n "$configured" ] && { [ -e "$configured/config.json" ] || [ -e "$configured/0_StaticEmbedding" ]; }; then
  say "using the model your config names: $configured"
elif pulled="$("$vaultctx" model pull --no-config)" && [ -n "$pulled" ]; then # use_model records it
  say "model ready in $pulled"
  use_model "$pulled"
else
  mode="BM25 keyword search only (model download failed)"
  warn "could not download the embedding model (see above). Continuing in BM25-only mode;"
  warn "search still works. Retry later with: vaultctx model pull && vaultctx index"
fi

# ---------------------------------------------------------------- 5. index
step 5 "First index"
index_flags=""
if [ "$no_model" = 1 ]; then index_flags="--no-model"; fi
if [ -n "$switch_from" ]; then
  index_flags="$index_flags --full" # a fresh index of the new vault replaces the old one's
  say "rebuilding the index from scratch for $vault"
fi
# shellcheck disable=SC2086 # index_flags is empty or words without spaces
"$vaultctx" index $index_flags || die "indexing failed (see above). Fix the cause and re-run scripts/install.sh; it is safe to re-run."
# Report what the index really holds, whatever the steps above assumed.
if "$vaultctx" status --json 2>/dev/null | grep -q '"vec_available": true'; then
  mode="hybrid (BM25 + vectors)"
elif [ "$mode" = "hybrid (BM25 + vectors)" ]; then
  mode="BM25 keyword search only (the index has no usable vectors)"
fi

# ---------------------------------------------------------------- 6. hooks
step 6 "Claude Code hooks"
all_hooks=(userprompt pretooluse posttooluse)
# hook_off NAME: record NAME = false under [hooks] in our config, so that
# every later install leaves the hook out too.
hook_off() {
  local name="$1" re="^[[:space:]]*$1[[:space:]]*="
  if grep -qsE "$re[[:space:]]*false[[:space:]]*(#.*)?$" "$config"; then
    return 0
  elif ! ours_config; then
    warn "$config is your own file, so it was not changed; to keep the $name hook out of later installs too, add this line under [hooks] in it: $name = false"
    return 0
  elif grep -qsE "$re" "$config"; then
    edit_config '$0 ~ re { sub(/=.*/, "= false") } { print }' -v re="$re"
  elif grep -qsE '^[[:space:]]*\[hooks\][[:space:]]*(#.*)?$' "$config"; then
    edit_config '{ print } !done && /^[[:space:]]*\[hooks\][[:space:]]*(#.*)?$/ { print line; done = 1 }' -v line="$name = false"
  else
    printf '\n[hooks]\n%s = false\n' "$name" >>"$config"
  fi
  say "set $name = false under [hooks] in $config (set it to true and re-run to wire the hook again)"
}
cp "$config" "$config.before.$$" # restored if the edited config does not load
trap 'rm -f "$config.before.$$"' EXIT
# (${a[@]+"${a[@]}"} expands an empty array under set -u in bash 3.2 too.)
for h in ${hooks_off[@]+"${hooks_off[@]}"}; do hook_off "$h"; done
only=()
for h in "${all_hooks[@]}"; do
  case " ${hooks_off[*]:-} " in *" $h "*) ;; *) only+=("$h") ;; esac
done
off_note=""
if [ "${#hooks_off[@]}" -gt 0 ]; then off_note="; left out: ${hooks_off[*]}"; fi
if [ "$no_hooks" = 1 ]; then
  hooks="not wired (--no-hooks); wire them later with: vaultctx hooks install"
  say "skipped (--no-hooks)"
elif [ "${#only[@]}" = 0 ]; then
  "$vaultctx" hooks uninstall || die "taking our hooks out of settings.json failed (see above)"
  hooks="none wired (every hook left out)"
else
  only_flag=()
  if [ "${#hooks_off[@]}" -gt 0 ]; then only_flag=(--only "$(IFS=,; printf '%s' "${only[*]}")"); fi
  if ! "$vaultctx" hooks install --bin-dir "$bindir" ${only_flag[@]+"${only_flag[@]}"}; then
    if ! cmp -s "$config" "$config.before.$$"; then
      mv "$config.before.$$" "$config" && warn "restored $config as it was before this step"
    fi
    die "wiring the hooks failed (see above); your settings.json was not changed. Re-run after fixing, or use --no-hooks."
  fi
  hooks="wired (vaultctx hooks status shows them)$off_note"
fi

# ---------------------------------------------------------------- 7. summary
step 7 "Done"
say "  binaries:  $bindir (${built[*]:-})"
say "  config:    $config"
say "  search:    $mode"
say "  hooks:     $hooks"
say ""
say "Try:  $vaultctx search \"what did I write about deadlines\""
say "      $vaultctx doctor"
uninstall_cmd="$(printf '%q' "$repo/scripts/install.sh") --uninstall"
if [ "$bindir" != "$HOME/.local/bin" ]; then uninstall_cmd="$uninstall_cmd --prefix $(printf '%q' "$prefix")"; fi
say "Uninstall: $uninstall_cmd   (add --purge to delete the index and config)"
exit 0
}
