#!/usr/bin/env bash
# Soak of `vaultctx watch`: CPU and RSS while idle, with a few edits.
#
#   scripts/watch-soak.sh VAULTCTX_BIN CONFIG [MINUTES]
#
# Starts `VAULTCTX_BIN --config CONFIG watch`, waits for its first run, then
# for MINUTES (default 10) samples every 10 s its CPU time (utime+stime from
# /proc/PID/stat) and RSS (VmRSS from /proc/PID/status), and edits one note
# of the configured vault once a minute (appending a line, then taking it
# out again), so the soak covers runs as well as idling and shows whether
# RSS grows run after run. It prints one line
# per sample, then the idle CPU share (CPU seconds over wall seconds, the
# samples that saw no run) and the RSS at the first and last sample. Linux
# only (/proc). The vault's note is restored at the end.
set -euo pipefail
bin=$1 config=$2 minutes=${3:-10}
vault=$(sed -n 's/^vault *= *"\(.*\)"/\1/p' "$config")
[ -d "$vault" ] || { echo "no vault in $config" >&2; exit 2; }
note=$(find "$vault" -name '*.md' -not -path '*/.*' -print -quit)
cp -p "$note" "$note.soak-orig"
log=$(mktemp)
"$bin" --config "$config" watch 2>"$log" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; mv -f "$note.soak-orig" "$note"; rm -f "$log"' EXIT
until grep -q 'msg=indexed' "$log"; do sleep 0.5; done
tck=$(getconf CLK_TCK)
cpu() { awk -v t="$tck" '{print ($14+$15)/t}' "/proc/$pid/stat"; }
rss() { awk '/^VmRSS/{print $2}' "/proc/$pid/status"; }
runs() { grep -c 'msg=indexed' "$log"; }
samples=$((minutes * 6))
c0=$(cpu) t0=$(date +%s.%N) r0=$(rss) n0=$(runs)
idle_cpu=0 idle_wall=0
printf "%6s %9s %9s %5s\n" sec cpu_s rss_kb runs
for i in $(seq 1 "$samples"); do
  if [ $((i % 6)) -eq 0 ]; then
    if [ $((i % 12)) -eq 0 ]; then cp -p "$note.soak-orig" "$note" && touch "$note"; else echo "soak edit $i" >>"$note"; fi
  fi
  cb=$(cpu) tb=$(date +%s.%N) nb=$(runs)
  sleep 10
  c=$(cpu) t=$(date +%s.%N) r=$(rss) n=$(runs)
  if [ "$n" -eq "$nb" ]; then
    idle_cpu=$(echo "$idle_cpu + $c - $cb" | bc -l); idle_wall=$(echo "$idle_wall + $t - $tb" | bc -l)
  fi
  printf "%6.0f %9.2f %9d %5d\n" "$(echo "$t - $t0" | bc -l)" "$(echo "$c - $c0" | bc -l)" "$r" "$((n - n0))"
done
echo "idle CPU: $(echo "100 * $idle_cpu / $idle_wall" | bc -l | cut -c1-6) % over $(printf %.0f "$idle_wall") s of samples without a run"
echo "RSS: $r0 kB after the first run, $(rss) kB at the end; runs during the soak: $(( $(runs) - n0 ))"
