#!/bin/sh
# The 1x / Nx rows of the README's bench table (issue 17), in one run.
#
#     scripts/scale-bench.sh BIN_DIR [N] [BASE_BIN_DIR]
#
# Builds the 1x and Nx vaults (default N=4) of the large corpus with
# scripts/scale-vault.sh in a temporary directory, indexes each in full with
# BIN_DIR/vaultctx and ../shared/models/glove-120k under /usr/bin/time -v
# (wall time, peak RSS), then times hybrid search, vector search and the
# prompt hook spawn to exit on both indexes, interleaved
# (scripts/scale-latency.py, 3 rounds of the 73 queries of
# eval/large-queries.jsonl). With BASE_BIN_DIR, its binaries are timed on
# the same indexes in the same run (an A/B of two builds). BIN_DIR holds
# vaultctx and vaultctx-userprompt, e.g. as install.sh builds them. Needs
# about 0.6 GB of disk per 1x (vault plus index); everything is removed at
# the end. Progress goes to stderr, the results to stdout.
set -eu
[ $# -ge 1 ] || { echo "usage: $0 BIN_DIR [N] [BASE_BIN_DIR]" >&2; exit 2; }
bin=$(cd "$1" && pwd) n=${2:-4} base=${3:-}
[ -z "$base" ] || base=$(cd "$base" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
model=$here/../../shared/models/glove-120k
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vaultctx-scale-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
pairs=
for k in 1 "$n"; do
  "$here/scale-vault.sh" "$k" "$tmp/v$k" >&2
  printf 'vault = "%s"\ndb = "%s"\nmodel = "%s"\n' "$tmp/v$k" "$tmp/i$k.db" "$model" >"$tmp/c$k.toml"
  echo "full index of ${k}x ..." >&2
  /usr/bin/time -v "$bin/vaultctx" index --full --vault "$tmp/v$k" --model "$model" --db "$tmp/i$k.db" >/dev/null 2>"$tmp/time$k"
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$tmp/time$k")
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/time$k")
  echo "${k}x full index: $wall wall, peak RSS $((rss / 1024)) MiB, index $(du -m "$tmp/i$k.db" | cut -f1) MB"
  pairs="$pairs ${k}x=$bin:$tmp/c$k.toml"
  [ -z "$base" ] || pairs="$pairs base-${k}x=$base:$tmp/c$k.toml"
done
echo "timing queries ..." >&2
# shellcheck disable=SC2086 # pairs is a list of words without spaces
"$here/scale-latency.py" --rounds 3 $pairs
