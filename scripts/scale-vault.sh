#!/bin/sh
# Build an N-times vault for scale measurements (issue 17).
#
#     scripts/scale-vault.sh N DST [SRC]
#
# Copies SRC (default ../shared/corpora/large, from the repository root) N
# times into DST/copy-1 ... DST/copy-N (DST must not exist), and appends to
# every copied file one unique word, "vaultctxscale<copy>x<file>" (file =
# the file's place in SRC's sorted file list, from 1), on a line of its own.
# The word makes every copy of a file a distinct note with its own chunks,
# as in the fault campaign of issue 17; the rest of the text is unchanged.
# The same N and SRC always give the same files. Dot folders (.obsidian)
# are skipped, as the bench's copy skips them. N=1 gives the 1x vault with
# the same perturbation, so that 1x and Nx differ only in size.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 N DST [SRC]" >&2; exit 2; }
n=$1 dst=$2
src=${3:-$(dirname "$0")/../../shared/corpora/large}
case $n in '' | *[!0-9]* | 0) echo "N must be a positive integer" >&2; exit 2 ;; esac
[ -d "$src" ] || { echo "no such vault: $src" >&2; exit 2; }
[ ! -e "$dst" ] || { echo "$dst exists" >&2; exit 2; }
list=$(mktemp)
trap 'rm -f "$list"' EXIT
(cd "$src" && find . -name '.*' ! -name . -prune -o -type f -print | LC_ALL=C sort) >"$list"
k=1
while [ "$k" -le "$n" ]; do
  mkdir -p "$dst/copy-$k"
  (cd "$src" && tar cf - --no-recursion -T "$list") | (cd "$dst/copy-$k" && tar xf -)
  awk -v dir="$dst/copy-$k" -v k="$k" '{ f = dir "/" substr($0, 3); printf "\nvaultctxscale%dx%d\n", k, NR >> f; close(f) }' "$list"
  k=$((k + 1))
done
echo "$dst: $n x $(wc -l <"$list") files"
