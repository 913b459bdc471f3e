#!/usr/bin/env bash
# Re-captures the fidelity corpus (core/compress/testdata/fidelity) from scratch
# by running real commands on this machine. Not run in CI: it takes about
# 15 minutes, needs the npm registry (jest, typescript, webpack, a few npm
# packages), Debian packages (python3-pytest, python3-tqdm, python3-wheel,
# python3-venv, iputils-ping, wget, jq, gcc, make), Go, cargo and git.
#
#   scripts/capture-outputs/capture.sh            # every case
#   scripts/capture-outputs/capture.sh log_kv_*   # only cases whose name starts so
#   scripts/capture-outputs/capture.sh --check    # re-check the written cases
#
# Setup here: a work dir $CAPTURE_WORK (default /tmp/vaultctx-capture, wiped
# first), a clone of this repository at $BASE (so HEAD~8 and friends always
# name the same commits), copies of the fixture projects in fixtures/ with
# their npm installs, wheels for the pip cases, and a local file server on
# 127.0.0.1:$PORT. The cases themselves (command, cwd, what to keep) are in
# cases.py; record.py runs each with `bash -c`, stdout and stderr on separate
# pipes, and writes the case folders. The file server is stopped on exit.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="$repo/core/compress/testdata/fidelity"
W="${CAPTURE_WORK:-/tmp/vaultctx-capture}"
BASE="${BASE:-17639cf54aa32cfaee50f694d763ce5cd3f292ba}"
PORT="${PORT:-18765}"
export CAPTURE_PORT="$PORT"
# Tools the cases run: /usr/bin first so python3 is Debian's (with pytest, tqdm).
export PATH="/usr/local/go/bin:$HOME/.cargo/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

if [ "${1:-}" = "--check" ]; then
  exec python3 "$here/record.py" --work "$W" --out "$out" --check
fi

for t in git go gcc make cargo node npm jq wget ping timeout; do
  command -v "$t" >/dev/null || { echo "capture.sh: $t is missing" >&2; exit 1; }
done
for m in pytest tqdm wheel venv; do
  /usr/bin/python3 -c "import $m" 2>/dev/null || { echo "capture.sh: /usr/bin/python3 lacks $m (apt-get install python3-$m)" >&2; exit 1; }
done

rm -rf "$W"
mkdir -p "$W"/{fx,logs,www,versions,tmp}
cd "$W"

echo "== repository clones at ${BASE:0:7}"
git clone --quiet "$repo" repo
git -C repo checkout --quiet --detach "$BASE"
# wip: the change of af13546 (a README bench update) as an uncommitted edit on its parent
git clone --quiet "$repo" wip
git -C wip checkout --quiet --detach af13546~1
git -C wip restore --source=af13546 --worktree -- .
for c in ea7b004 1b96882; do git -C repo show "$c:README.md" > "versions/README.$c.md"; done

echo "== fixture projects"
cp -r "$here/fixtures/." fx/
cp "$here/logserver.py" "$here/genlog.py" logs/
# broken copies of the C and Rust projects
cp -r fx/cbuild fx/cbuild-fixed
sed -i 's/    ring_free(r)$/    ring_free(r);/' fx/cbuild-fixed/src/main.c
cp -r fx/cargo fx/cargo-broken
cp fx/cargo-broken-mod/broken.rs fx/cargo-broken/src/broken.rs
echo 'mod broken;' >> fx/cargo-broken/src/lib.rs
(cd fx/web && node mkcatalogue.js)
cp -r fx/web fx/web-fixed
printf 'export const formatPrice = (c) => (c / 100).toFixed(2) + " EUR";\n' > fx/web-fixed/src/format.js

echo "== npm installs (registry)"
for d in jest web; do (cd "fx/$d" && npm install --no-audit --no-fund --loglevel=error); done
(cd fx/web-fixed && rm -rf node_modules && cp -r ../web/node_modules .)
# warm the npm cache for the npm install pair, so both runs see the same cache
(mkdir -p tmp/npm-warm && cd tmp/npm-warm && cp ../../fx/npm/package.json . && npm install --no-audit --no-fund --loglevel=error)

echo "== wheels for the pip cases"
python3 "$here/mkwheels.py" "$W/www/simple"

echo "== file server on 127.0.0.1:$PORT"
head -c 12582912 /dev/urandom > www/blob.bin
python3 -m http.server "$PORT" --bind 127.0.0.1 -d www >"$W/tmp/http.log" 2>&1 &
srv=$!
trap 'kill "$srv" 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/" && break; sleep 0.1; done

echo "== cases"
args=()
[ $# -gt 0 ] && args=(--only "$@")
python3 "$here/record.py" --work "$W" --out "$out" "${args[@]}"
