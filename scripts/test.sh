#!/usr/bin/env bash
# Runs every check CI runs: gofmt, go vet, staticcheck, the whole test suite
# (which includes scripts/install.sh end to end with `vaultctx doctor`, and
# the retrieval-quality regression check against eval/baseline.json), the
# race detector over every package (cgo ones included, with -short), and
# the cgo-free packages' tests again with CGO_ENABLED=0, and
# the cross-builds: every cgo-free package builds and vets for darwin/arm64,
# darwin/amd64 and windows/amd64, and the cgo packages typecheck for darwin.
# Needs Go 1.26+, a C compiler, and ../shared beside the repository (test data).
# staticcheck is installed on first use into bin/tools (git-ignored) from
# the Go module proxy, at the pinned version below. So are, with npm from
# the npm registry, node@22 and the pinned Claude Code CLI that the
# end-to-end hook tests run (internal/claudetest; about 570 MB, once).
# Extra arguments go to the main `go test` run (e.g. -short, -run X).
set -euo pipefail
cd "$(dirname "$0")/.."
export CGO_ENABLED=1
tags="sqlite_fts5"
staticcheck_version="v0.8.2"
claude_version="2.1.332" # internal/claudetest.Version

echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
echo "== go vet"
go vet -tags "$tags" ./...
echo "== staticcheck $staticcheck_version"
tools="$PWD/bin/tools"
if ! "$tools/staticcheck" -version 2>/dev/null | grep -qF "($staticcheck_version)"; then
  GOBIN="$tools" go install "honnef.co/go/tools/cmd/staticcheck@$staticcheck_version"
fi
"$tools/staticcheck" -tags "$tags" ./...
echo "== Claude Code $claude_version (node@22) for the end-to-end hook tests"
claude_dir="${VAULTCTX_CLAUDE_DIR:-$tools/claude-$claude_version}" # internal/claudetest.EnvDir
if ! "$claude_dir/node_modules/.bin/claude" --version 2>/dev/null | grep -qxF "$claude_version (Claude Code)" ||
   ! "$claude_dir/node_modules/.bin/node" --version 2>/dev/null | grep -q '^v22\.'; then
  if command -v npm >/dev/null 2>&1; then
    # Into a fresh folder, renamed when complete: a half-done install is
    # never used. The CLI's install script runs on the node@22 put first.
    rm -rf "$claude_dir" "$claude_dir.tmp"
    npm install --prefix "$claude_dir.tmp" --no-audit --no-fund --save-exact --loglevel=error node@22
    PATH="$claude_dir.tmp/node_modules/.bin:$PATH" npm install --prefix "$claude_dir.tmp" --no-audit --no-fund \
      --save-exact --loglevel=error "@anthropic-ai/claude-code@$claude_version"
    mv "$claude_dir.tmp" "$claude_dir"
  else
    echo "npm not found: the end-to-end hook tests will skip (and fail when CI is set)"
  fi
fi
echo "== go test"
# A package may take minutes on a busy machine (install runs scripts/install.sh
# end to end, about 3.5 min alone): 30 min per package instead of go's 10.
go test -tags "$tags" -count=1 -timeout 30m "$@" ./...
# Fuzz budgets are counts, not durations: a -fuzztime duration races Go
# 1.26's fuzz coordinator on a loaded machine ("context deadline exceeded"
# with no failing input, golang/go#75804, fixed in Go 1.27). Each count is
# about 5-10 s here. A count alone has no end if an input hangs the target
# (or a worker stalls), so each run is also bounded in wall time, with
# `timeout` on the whole process group, well above the count's time:
# VAULTCTX_FUZZ_TIMEOUT seconds (300 by default).
fuzz_timeout="${VAULTCTX_FUZZ_TIMEOUT:-300}"
timeout_cmd=$(command -v timeout || command -v gtimeout || true)
# fuzz TARGET COUNT PACKAGE runs one fuzz target for COUNT inputs.
fuzz() {
  if [ -z "$timeout_cmd" ]; then
    echo "no timeout (coreutils) found: fuzzing $1 without a wall-clock bound"
    go test -count=1 -run '^$' -fuzz "^$1\$" -fuzztime "$2" "$3"
    return
  fi
  local rc=0
  "$timeout_cmd" --kill-after=10 "$fuzz_timeout" go test -count=1 -run '^$' -fuzz "^$1\$" -fuzztime "$2" "$3" || rc=$?
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    echo "FAIL: fuzz $1 ($3) did not finish $2 inputs in ${fuzz_timeout} s: an input or a worker hangs" >&2
  fi
  return "$rc"
}
echo "== fuzz: hook input nested up to the stdin cap (3,000 inputs)"
fuzz FuzzRunNesting 3000x ./core/hookio
echo "== fuzz: the shell command-line reader (200,000 inputs)"
fuzz FuzzPipelines 200000x ./core/internal/shell
echo "== fuzz: the BM25 skip-table decoder (200,000 inputs)"
fuzz FuzzDecodeSkips 200000x ./core/internal/postings
echo "== go test -race -short (every package)"
go test -race -tags "$tags" -short -count=1 -timeout 30m ./...

# Packages that need cgo: those importing (directly or not) a non-standard
# package with cgo files (go-sqlite3, sqlite-vec, core/store). The rest
# must build without a C compiler on every platform.
cgo_deps=$(go list -deps -tags "$tags" -f '{{if and (not .Standard) .CgoFiles}}{{.ImportPath}}{{end}}' ./... | paste -sd'|')
pkgs=$(go list -tags "$tags" -f '{{.ImportPath}} {{join .Deps " "}}' ./...)
pure=$(awk -v re="^($cgo_deps)\$" '{c=0; for (i=1; i<=NF; i++) if ($i ~ re) c=1; if (!c) print $1}' <<<"$pkgs")
cgo=$(awk -v re="^($cgo_deps)\$" '{c=0; for (i=1; i<=NF; i++) if ($i ~ re) c=1; if (c) print $1}' <<<"$pkgs")
echo "== go test, cgo-free packages with CGO_ENABLED=0"
CGO_ENABLED=0 go test -short -count=1 $pure
for target in darwin/arm64 darwin/amd64 windows/amd64; do
  echo "== cross: cgo-free packages for $target"
  CGO_ENABLED=0 GOOS=${target%/*} GOARCH=${target#*/} go build $pure
  CGO_ENABLED=0 GOOS=${target%/*} GOARCH=${target#*/} go vet $pure
done
for arch in arm64 amd64; do
  echo "== cross: cgo packages typecheck for darwin/$arch"
  CGO_ENABLED=1 GOOS=darwin GOARCH=$arch CC="$PWD/scripts/cc-darwin-typecheck" go vet -tags "$tags" $cgo
done
