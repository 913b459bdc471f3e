#!/usr/bin/env bash
# Readers during index runs: 4 `vaultctx search` loops against 6 index runs
# (two of them --full) of a copy of the tasks demo vault, each run after
# appending a line to 10 notes. Prints the failed and answered searches and
# the distinct errors; a reader must never fail.
#
#   scripts/readers-during-index.sh VAULTCTX_BIN [SHARED_DIR]
set -euo pipefail
bin=$(realpath "$1")
shared=$(realpath "${2:-$(dirname "$0")/../../shared}")
work=$(mktemp -d)
trap 'touch "$work/stop"; wait; rm -rf "$work"' EXIT
cp -r "$shared/corpora/obsidian/tasks-demo-vault" "$work/v"
"$bin" index --vault "$work/v" --db "$work/i.db" --no-model >/dev/null 2>&1
for _ in 1 2 3 4; do
	(while [ ! -f "$work/stop" ]; do
		if "$bin" search --db "$work/i.db" --mode bm25 -k 5 -- 'microsoft specific size_t "return value" plug-in task' >/dev/null 2>>"$work/errors"; then
			echo >>"$work/ok"
		else
			echo >>"$work/failed"
		fi
	done) &
done
for run in 1 2 3 4 5 6; do
	for f in $(ls "$work"/v/*.md | shuf -n 10); do echo "line $RANDOM" >>"$f"; done
	full=()
	if [ $((run % 3)) = 0 ]; then full=(--full); fi
	"$bin" index --vault "$work/v" --db "$work/i.db" --no-model "${full[@]}" >/dev/null 2>&1 || echo "index run $run failed"
done
touch "$work/stop"
wait
echo "failed $(cat "$work/failed" 2>/dev/null | wc -l), answered $(cat "$work/ok" 2>/dev/null | wc -l)"
sort "$work/errors" 2>/dev/null | uniq -c | head -5
